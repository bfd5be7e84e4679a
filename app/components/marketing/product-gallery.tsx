import { cn } from '../ui/cn'
import { marketingImageUrl, PRODUCT_SHOTS, type ProductShot, type ProductShotName } from './product-shots'

const FORMATS = [
  ['avif', 'image/avif'],
  ['webp', 'image/webp'],
] as const

function srcSet(shot: ProductShot, extension: string) {
  return shot.widths.map((width) => `${marketingImageUrl(`${shot.name}-${width}.${extension}`)} ${width}w`).join(', ')
}

/**
 * Real screens of the product, in AVIF or WebP where the browser takes them, sized for the slot they fill. `names`
 * come in threes: a wide screen, a phone, a wide screen.
 */
export function ProductGallery({ names }: { names: readonly ProductShotName[] }) {
  const shots = names.map((name) => PRODUCT_SHOTS.find((shot) => shot.name === name) as ProductShot)
  return (
    <ul className="mt-8 grid items-start gap-6 md:grid-cols-[2fr_1fr]">
      {shots.map((shot) => {
        // A phone screen sits beside two wide ones on a desktop; each image is fetched at the width it shows.
        const phone = shot.width < 600
        const sizes = phone ? '(min-width: 768px) 30vw, 288px' : '(min-width: 768px) 60vw, 100vw'
        return (
          <li key={shot.name} className={phone ? 'md:row-span-2' : undefined}>
            <figure>
              <picture>
                {FORMATS.map(([extension, type]) => (
                  <source key={extension} type={type} srcSet={srcSet(shot, extension)} sizes={sizes} />
                ))}
                <img
                  src={marketingImageUrl(`${shot.name}-${shot.widths[0]}.jpg`)}
                  srcSet={srcSet(shot, 'jpg')}
                  sizes={sizes}
                  width={shot.width}
                  height={shot.height}
                  alt={shot.alt}
                  loading="lazy"
                  decoding="async"
                  className={cn(
                    'mx-auto h-auto w-full rounded-xl border border-slate-200 shadow-sm',
                    phone ? 'max-w-72' : 'max-w-full',
                  )}
                />
              </picture>
              <figcaption className="mt-2 text-sm text-slate-600">{shot.caption}</figcaption>
            </figure>
          </li>
        )
      })}
    </ul>
  )
}
