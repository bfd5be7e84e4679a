import { Form, Link } from 'react-router'
import { Disclosure } from './disclosure'

const ITEM = 'flex min-h-11 w-full items-center rounded-lg px-3 text-left text-sm hover:bg-slate-100'

/** Who is signed in, "My Account" and "Log out": the desktop header's menu, and the end of the phone menu. */
export function AccountLinks({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <>
      <p className="truncate px-3 pt-1 text-sm font-medium text-slate-900">{email || 'Account'}</p>
      <p className="px-3 pb-1 text-xs text-slate-600">{roleLabel}</p>
      <Link to="/app/account" className={ITEM}>
        My Account
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className={ITEM}>
          Log out
        </button>
      </Form>
    </>
  )
}

export function UserMenu({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <Disclosure
      className="ml-auto hidden lg:block"
      summary={
        <>
          <span className="max-w-64 truncate">{email || 'Account'}</span>
          <span aria-hidden="true">▾</span>
        </>
      }
    >
      <AccountLinks email={email} roleLabel={roleLabel} />
    </Disclosure>
  )
}
