import { Link, Outlet } from 'react-router'

/** The frame of the sign-in pages: just the brand and a card, nothing to distract. */
export default function AuthLayout() {
  return (
    <div className="flex min-h-screen flex-col items-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      {/* A landmark around the brand too, so every part of the page belongs to one (axe "region"). */}
      <header className="mb-8">
        <Link to="/" className="flex min-h-11 items-center gap-2 text-xl font-bold text-brand-800">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          Pool Bud
        </Link>
      </header>
      <main id="main" className="w-full max-w-md">
        <Outlet />
      </main>
    </div>
  )
}
