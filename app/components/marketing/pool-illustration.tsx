/**
 * The hero picture: a kidney pool seen from above with a reading card, drawn in SVG so the page needs no image host.
 * Purely decorative; the hero copy says everything it shows.
 */
export function PoolIllustration({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 300" aria-hidden="true" focusable="false" className={className}>
      <defs>
        <linearGradient id="pool-water" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#67e8f9" />
          <stop offset="1" stopColor="#0891b2" />
        </linearGradient>
      </defs>
      <rect x="8" y="8" width="384" height="284" rx="28" fill="#ecfeff" />
      <path
        d="M70 120c0-40 40-62 96-58 44 3 62 28 104 26 46-2 74 18 74 62 0 52-42 84-118 84-64 0-76-28-112-32-36-4-44-48-44-82z"
        fill="#e2e8f0"
      />
      <path
        d="M84 122c0-32 34-50 82-47 42 3 60 27 102 25 38-2 62 14 62 50 0 44-36 70-104 70-58 0-70-27-104-31-30-3-38-40-38-67z"
        fill="url(#pool-water)"
      />
      <g fill="none" stroke="#ecfeff" strokeWidth="4" strokeLinecap="round" opacity="0.7">
        <path d="M120 130c10-6 20-6 30 0s20 6 30 0" />
        <path d="M190 170c10-6 20-6 30 0s20 6 30 0" />
        <path d="M240 120c10-6 20-6 30 0s20 6 30 0" />
      </g>
      <circle cx="310" cy="70" r="22" fill="#fde68a" />
      <g>
        <rect x="36" y="196" width="150" height="78" rx="14" fill="#ffffff" stroke="#cbd5e1" />
        <rect x="52" y="212" width="60" height="8" rx="4" fill="#164e63" />
        <rect x="52" y="230" width="36" height="8" rx="4" fill="#94a3b8" />
        <rect x="96" y="230" width="24" height="8" rx="4" fill="#0e7490" />
        <rect x="52" y="248" width="52" height="8" rx="4" fill="#94a3b8" />
        <rect x="112" y="248" width="30" height="8" rx="4" fill="#0e7490" />
        <circle cx="164" cy="216" r="10" fill="#16a34a" />
        <path d="M159 216l4 4 6-7" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      </g>
    </svg>
  )
}
