// `npx tsx bench/photo.ts [runs]`: time and peak memory of processing a 12-megapixel JPEG through
// the app's own processPhoto (app/models/photo.server.ts): header check, auto-orient, resize to
// 1600 px, re-encode without metadata, 400 px thumbnail. The photo is generated noisy, like a real
// camera's, so the JPEG is large (several MB) and the decoder does real work.
import sharp from 'sharp'
import { processPhoto } from '~/models/photo.server'

const runs = Number(process.argv[2] ?? 5)
const WIDTH = 4000
const HEIGHT = 3000

const noise = await sharp({
  create: {
    width: WIDTH,
    height: HEIGHT,
    channels: 3,
    background: '#2a9bd8',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .jpeg({ quality: 92 })
  .toBuffer()
console.log(
  `[photo] input: ${WIDTH}×${HEIGHT} JPEG (${(WIDTH * HEIGHT) / 1e6} MP), ${(noise.byteLength / 2 ** 20).toFixed(1)} MB`,
)

const rssBefore = process.memoryUsage().rss
let peakRss = rssBefore
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}, 5)
const timings: number[] = []
for (let run = 0; run < runs; run++) {
  const started = performance.now()
  const result = await processPhoto(noise)
  timings.push(performance.now() - started)
  if (!result.ok) throw new Error(`processPhoto refused the photo: ${result.message}`)
  if (run === 0) {
    const full = await sharp(result.photo.full).metadata()
    console.log(
      `[photo] output: ${full.width}×${full.height} (${Math.round(result.photo.full.byteLength / 1024)} KB), thumbnail ${Math.round(result.photo.thumb.byteLength / 1024)} KB`,
    )
  }
}
clearInterval(sampler)
peakRss = Math.max(peakRss, process.memoryUsage().rss)
timings.sort((a, b) => a - b)
const median = timings[Math.floor(timings.length / 2)] ?? 0
console.log(
  `[photo] ${runs} runs: median ${Math.round(median)} ms, min ${Math.round(timings[0] ?? 0)} ms, max ${Math.round(timings.at(-1) ?? 0)} ms; ` +
    `RSS ${Math.round(rssBefore / 2 ** 20)} MB before, peak ${Math.round(peakRss / 2 ** 20)} MB (+${Math.round((peakRss - rssBefore) / 2 ** 20)} MB); sharp concurrency ${sharp.concurrency()}`,
)
