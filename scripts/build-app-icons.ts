// Draws the installable app's icons (decision 019) from the logo, public/favicon.svg, into public/icons/: 192 and
// 512 px as the logo is (rounded corners), a 512 px "maskable" one whose art sits inside the safe zone on a full-bleed
// brand background (Android crops it to its own shape), and the 180 px apple-touch-icon (iOS rounds it itself).
// Run once when the logo changes; the PNGs are committed.
//   npx tsx scripts/build-app-icons.ts
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT = path.join(root, 'public/icons')
const BRAND = '#0e7490'

const logo = fs.readFileSync(path.join(root, 'public/favicon.svg'), 'utf8')
/** The logo's art on a square with no rounded corners, scaled to 80 % (the maskable safe zone is a 40 % radius). */
const fullBleed = logo
  .replace(/<rect [^>]*\/>/, '')
  .replace(
    /<svg ([^>]*)>/,
    `<svg $1><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(6.4 6.4) scale(0.8)">`,
  )
  .replace('</svg>', '</g></svg>')

async function png(svg: string, size: number, name: string) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT, name))
  console.log(`[icons] public/icons/${name}`)
}

fs.mkdirSync(OUT, { recursive: true })
await png(logo, 192, 'icon-192.png')
await png(logo, 512, 'icon-512.png')
await png(fullBleed, 512, 'icon-maskable-512.png')
await png(fullBleed, 180, 'apple-touch-icon.png')
