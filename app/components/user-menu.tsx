import { Form, Link } from 'react-router'

/** A disclosure menu (native <details>, so it works before JavaScript loads). */
export function UserMenu({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <details className="relative ml-auto">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100">
        <span className="max-w-40 truncate sm:max-w-64">{email || 'Account'}</span>
        <span aria-hidden="true">▾</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <p className="px-3 py-1 text-xs text-slate-500">{roleLabel}</p>
        <Link to="/app/account" className="flex min-h-11 items-center rounded-lg px-3 text-sm hover:bg-slate-100">
          My Account
        </Link>
        <Form method="post" action="/logout">
          <button
            type="submit"
            className="flex min-h-11 w-full items-center rounded-lg px-3 text-left text-sm hover:bg-slate-100"
          >
            Log out
          </button>
        </Form>
      </div>
    </details>
  )
}
