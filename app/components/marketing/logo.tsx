import { Link } from 'react-router'
import { cn } from '~/components/ui/cn'

/** The wave mark from the favicon, inlined so the header needs no extra request. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false" className={cn('size-8 shrink-0', className)}>
      <rect width="64" height="64" rx="14" fill="#0e7490" />
      <path
        d="M10 38c6 0 6-5 11-5s5 5 11 5 6-5 11-5 5 5 11 5"
        fill="none"
        stroke="#fff"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <path
        d="M10 48c6 0 6-5 11-5s5 5 11 5 6-5 11-5 5 5 11 5"
        fill="none"
        stroke="#a5f3fc"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <circle cx="32" cy="20" r="7" fill="#fde68a" />
    </svg>
  )
}

/** "Pool Bud" linking home; the visible text is the link's accessible name. */
export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn('inline-flex min-h-11 items-center gap-2 rounded-lg text-lg font-bold text-brand-900', className)}
    >
      <LogoMark />
      Pool Bud
    </Link>
  )
}
