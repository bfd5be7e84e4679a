import { desc } from 'drizzle-orm'
import { data } from 'react-router'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { mailboxMessages } from '~/db/schema'
import { db } from '~/utils/db.server'
import { mailboxListingEnabled } from '~/utils/dev-mailbox.server'
import type { Route } from './+types/dev-mailbox'

export async function loader({ request }: Route.LoaderArgs) {
  if (!mailboxListingEnabled(request.headers.get(CLIENT_IP_HEADER))) throw data(null, { status: 404 })
  const messages = await db().select().from(mailboxMessages).orderBy(desc(mailboxMessages.createdAt)).limit(50)
  return { messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) }
}

export function meta() {
  return [{ title: 'Mailbox · Pool Bud (development)' }]
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { messages } = loaderData
  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-bold">Mailbox</h1>
      <p className="text-sm text-slate-600">
        Emails Pool Bud sent while no SMTP server is configured (newest first). This page exists only in development,
        for a browser on this machine.
      </p>
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-500">
          No emails yet.
        </p>
      ) : (
        <ul className="space-y-4">
          {messages.map((message) => (
            <li key={message.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <p className="text-xs text-slate-500">
                {new Date(message.createdAt).toLocaleString('en-US')} · to {message.to}
              </p>
              <h2 className="font-semibold">{message.subject}</h2>
              <pre className="mt-2 whitespace-pre-wrap break-words text-sm text-slate-700">{linkify(message.text)}</pre>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}

/** Turns the links in a plain-text email into anchors (everything else stays text, so nothing is injected). */
function linkify(text: string) {
  return text.split(/(https?:\/\/[^\s)\]]+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
      <a key={i} href={part} className="text-brand-700 underline">
        {part}
      </a>
    ) : (
      part
    ),
  )
}
