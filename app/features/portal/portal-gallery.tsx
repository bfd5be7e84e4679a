import type { CustomerPortalData } from './customer-portal.server'
import { PortalSection } from './portal-section'

/** "Photo gallery": thumbnails of the newest visits' photos, each opening the photo full size. */
export function PortalGallery({ photos }: { photos: CustomerPortalData['gallery'] }) {
  return (
    <PortalSection id="gallery" title="Photo gallery" isEmpty={photos.length === 0} empty="No photos uploaded yet.">
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {photos.map((photo) => {
          const label = `${photo.label}, the visit on ${photo.date}`
          return (
            <li key={photo.id}>
              <a href={photo.full} className="group block">
                <img
                  src={photo.thumb}
                  alt={`${label} (opens full size)`}
                  loading="lazy"
                  decoding="async"
                  width={400}
                  height={300}
                  className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200 group-hover:ring-brand-500"
                />
                <span aria-hidden="true" className="mt-1 block text-xs text-slate-600">
                  {label}
                </span>
              </a>
            </li>
          )
        })}
      </ul>
    </PortalSection>
  )
}
