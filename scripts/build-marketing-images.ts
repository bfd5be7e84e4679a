// Turns the product screenshots in assets/marketing/ (see capture-product-shots.ts) into the responsive images the
// marketing pages serve from public/marketing/: AVIF and WebP for browsers that take them, JPEG for the rest, each
// at two widths; and the 1200×630 Open Graph image. Everything is served from our own origin.
//   npm run marketing:images
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { PRODUCT_SHOTS } from '../app/components/marketing/product-shots'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SOURCE = path.join(root, 'assets/marketing')
const OUT = path.join(root, 'public/marketing')
/** Content hashes of the outputs: pages add them to the URLs, so the files can be cached for a year. */
const VERSIONS = path.join(root, 'app/components/marketing/image-versions.json')

async function main() {
  // Start clean, so a width or format no longer produced does not linger in the repo.
  fs.rmSync(OUT, { recursive: true, force: true })
  fs.mkdirSync(OUT, { recursive: true })
  for (const shot of PRODUCT_SHOTS) {
    const source = sharp(path.join(SOURCE, `${shot.name}.png`))
    for (const width of shot.widths) {
      const resized = source.clone().resize({ width })
      await Promise.all([
        resized
          .clone()
          .avif({ quality: 55, effort: 6 })
          .toFile(path.join(OUT, `${shot.name}-${width}.avif`)),
        resized
          .clone()
          .webp({ quality: 72 })
          .toFile(path.join(OUT, `${shot.name}-${width}.webp`)),
        resized
          .clone()
          .jpeg({ quality: 78, mozjpeg: true })
          .toFile(path.join(OUT, `${shot.name}-${width}.jpg`)),
      ])
      console.log(`[images] ${shot.name}-${width}.{avif,webp,jpg}`)
    }
  }
  await buildOpenGraphImage()
  const versions = Object.fromEntries(
    fs
      .readdirSync(OUT)
      .sort()
      .map((file) => [
        file,
        createHash('sha256')
          .update(fs.readFileSync(path.join(OUT, file)))
          .digest('hex')
          .slice(0, 10),
      ]),
  )
  fs.writeFileSync(VERSIONS, `${JSON.stringify(versions, null, 2)}\n`)
  console.log(`[images] ${path.relative(root, VERSIONS)}`)
}

/** 1200×630: the name and promise on the brand color, beside a technician's route day. */
async function buildOpenGraphImage() {
  const banner = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0e7490"/><stop offset="1" stop-color="#155e75"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#g)"/>
  <text x="64" y="150" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="700" fill="#ffffff">Pool Bud</text>
  <text x="64" y="230" font-family="DejaVu Sans, Arial, sans-serif" font-size="34" fill="#cffafe">Run your pool-service</text>
  <text x="64" y="276" font-family="DejaVu Sans, Arial, sans-serif" font-size="34" fill="#cffafe">company from one screen</text>
  <text x="64" y="360" font-family="DejaVu Sans, Arial, sans-serif" font-size="24" fill="#e0f2fe">Routes · offline phone app</text>
  <text x="64" y="396" font-family="DejaVu Sans, Arial, sans-serif" font-size="24" fill="#e0f2fe">billing · customer portal</text>
</svg>`)
  const board = await sharp(path.join(SOURCE, 'route-day.png')).resize({ width: 580 }).png().toBuffer()
  await sharp(banner)
    .composite([{ input: board, left: 580, top: 160 }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT, 'og-image.png'))
  console.log('[images] og-image.png')
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
