import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Form, Link } from 'react-router'
import { clearOfflineCopies } from '~/field/offline-app.client'
import { clearQueue, countWaiting } from '~/field/queue'
import { Disclosure } from './disclosure'
import { Button } from './ui/button'

/** Named in app.css: every staff page carries the menu twice (the wide header and the phone's menu). */
const ITEM = 'menu-item'

/** Who is signed in, "My Account" and "Log out": the desktop header's menu, and the end of the phone menu. */
export function AccountLinks({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <>
      <p className="truncate px-3 pt-1 text-sm font-medium text-slate-900">{email || 'Account'}</p>
      <p className="px-3 pb-1 text-xs text-slate-600">{roleLabel}</p>
      <Link to="/app/account" className={ITEM}>
        My Account
      </Link>
      <LogOut />
    </>
  )
}

/**
 * "Log out" (a plain form before JavaScript loads). A phone may be shared: once the server has ended the session,
 * the changes queued on it and the pages its worker kept are emptied, so the next person finds none of this
 * person's customers. Changes not sent yet would be lost with them, so that is asked first.
 */
function LogOut() {
  const [waiting, setWaiting] = useState(0)
  const [problem, setProblem] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const cancelRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (waiting > 0) cancelRef.current?.focus()
  }, [waiting])

  async function logOut() {
    setPending(true)
    setProblem(null)
    let response: Response
    try {
      // The server's answer is a redirect to "/" that also clears the session cookie; it is not followed here.
      response = await fetch('/logout', { method: 'POST', credentials: 'same-origin', redirect: 'manual' })
    } catch {
      setPending(false)
      setProblem('You are offline. Connect to log out.')
      return
    }
    if (response.type !== 'opaqueredirect' && !response.ok) {
      setPending(false)
      setProblem('Logging out failed. Try again.')
      return
    }
    await Promise.allSettled([clearQueue(), clearOfflineCopies()])
    window.location.assign('/')
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const count = await countWaiting()
    if (count > 0) setWaiting(count)
    else await logOut()
  }

  if (waiting > 0) {
    return (
      <div className="space-y-2 rounded-lg bg-amber-50 p-3 ring-1 ring-amber-700/40">
        <p role="alert" className="text-sm text-amber-950">
          {`${waiting === 1 ? '1 change on this phone has' : `${waiting} changes on this phone have`} not been sent yet. Sign out anyway? ${waiting === 1 ? 'It' : 'They'} will be lost.`}
        </p>
        {problem ? <p className="text-sm font-semibold text-red-800">{problem}</p> : null}
        <div className="flex flex-wrap gap-2">
          <Button ref={cancelRef} type="button" variant="secondary" onClick={() => setWaiting(0)}>
            Cancel
          </Button>
          <Button type="button" variant="danger" pending={pending} pendingLabel="Signing out…" onClick={logOut}>
            Sign out anyway
          </Button>
        </div>
      </div>
    )
  }
  return (
    <Form method="post" action="/logout" onSubmit={onSubmit}>
      <button type="submit" className={ITEM} disabled={pending} aria-busy={pending || undefined}>
        {pending ? 'Logging out…' : 'Log out'}
      </button>
      {problem ? (
        <p role="alert" className="px-3 pb-1 text-sm font-semibold text-red-800">
          {problem}
        </p>
      ) : null}
    </Form>
  )
}

export function UserMenu({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <Disclosure
      className="ml-auto hidden lg:block"
      summary={
        <>
          <span className="max-w-48 truncate">{email || 'Account'}</span>
          <span aria-hidden="true">▾</span>
        </>
      }
    >
      <AccountLinks email={email} roleLabel={roleLabel} />
    </Disclosure>
  )
}
