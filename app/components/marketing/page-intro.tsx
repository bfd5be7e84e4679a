import type { ReactNode } from 'react'

/** The opening band of a marketing page: the page's one h1 and the sentence that says what it covers. */
export function PageIntro({ eyebrow, title, children }: { eyebrow: string; title: string; children: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto max-w-3xl px-4 py-14 text-center sm:px-6 sm:py-20">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
        <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 text-balance sm:text-5xl">{title}</h1>
        <div className="mt-4 text-lg text-slate-600 text-pretty">{children}</div>
      </div>
    </section>
  )
}
