import { desc, eq } from 'drizzle-orm'
import { Link } from 'react-router'
import { CLIENT_IP_HEADER } from '~/auth/better-auth.server'
import { notFound } from '~/auth/guards.server'
import { mailboxMessages } from '~/db/schema'
import { db } from '~/utils/db.server'
import { devMailboxTabs, mailboxListingEnabled } from '~/utils/dev-mailbox.server'
import type { Route } from './+types/dev-mailbox'

export async function loader({ request }: Route.LoaderArgs) {
  if (!mailboxListingEnabled(request.headers.get(CLIENT_IP_HEADER))) notFound()
  const tabs = devMailboxTabs()
  // Only what the mailbox holds here: with an SMTP server, emails are not in it (and their links stay private).
  const tab =
    tabs.texts && (new URL(request.url).searchParams.get('tab') === 'texts' || !tabs.emails) ? 'texts' : 'emails'
  const messages = await db()
    .select()
    .from(mailboxMessages)
    .where(eq(mailboxMessages.kind, tab === 'texts' ? 'text' : 'email'))
    .orderBy(desc(mailboxMessages.createdAt))
    .limit(50)
  // The text is shown, never the HTML; an email's inline images (a company's logo, a report's photos) are shown beside
  // it as the data URLs the mailbox stored them as.
  return {
    tab,
    tabs,
    messages: messages.map(({ html, ...m }) => ({
      ...m,
      createdAt: m.createdAt.toISOString(),
      images: inlineImagesOf(html),
    })),
  }
}

export function meta() {
  return [{ title: 'Mailbox · Pool Bud (development)' }]
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { messages, tab, tabs } = loaderData
  const texts = tab === 'texts'
  const tabClass = (current: boolean) =>
    `inline-flex min-h-11 items-center rounded-lg px-4 font-semibold ${current ? 'bg-brand-700 text-white' : 'text-brand-800 hover:bg-slate-100'}`
  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-bold">Mailbox</h1>
      <p className="text-sm text-slate-600">
        Emails and texts Pool Bud sent while no SMTP server or Twilio account is configured (newest first). This page
        exists only in development, for a browser on this machine.
      </p>
      <nav aria-label="Mailbox" className="flex gap-2">
        {tabs.emails ? (
          <Link to="/dev/mailbox" className={tabClass(!texts)} aria-current={texts ? undefined : 'page'}>
            Emails
          </Link>
        ) : null}
        {tabs.texts ? (
          <Link to="/dev/mailbox?tab=texts" className={tabClass(texts)} aria-current={texts ? 'page' : undefined}>
            Texts
          </Link>
        ) : null}
      </nav>
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-500">
          {texts ? 'No texts yet.' : 'No emails yet.'}
        </p>
      ) : (
        <ul className="space-y-4">
          {messages.map((message) => (
            <li key={message.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <p className="text-xs text-slate-500">
                {new Date(message.createdAt).toLocaleString('en-US')}
                {message.from ? ` · from ${message.from}` : ''} · to {message.to}
              </p>
              {message.images.length > 0 ? (
                <div className="mt-2 flex flex-wrap items-end gap-2">
                  {message.images.map((image, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the images of one stored email
                    <img key={index} src={image.src} alt={image.alt} className="max-h-16 max-w-48 object-contain" />
                  ))}
                </div>
              ) : null}
              {message.subject ? <h2 className="font-semibold">{message.subject}</h2> : null}
              <pre className="mt-2 whitespace-pre-wrap break-words text-sm text-slate-700">{linkify(message.text)}</pre>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}

const INLINE_IMAGE = /<img\b[^>]*>/g
const DATA_SRC = /\bsrc="(data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/=]+)"/
const ALT = /\balt="([^"]*)"/
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
}

/** The inline images of a stored email's HTML: PNG or JPEG data URLs only (nothing else of the HTML is used). */
function inlineImagesOf(html: string | null) {
  return [...(html ?? '').matchAll(INLINE_IMAGE)]
    .map(([tag]) => ({
      src: DATA_SRC.exec(tag)?.[1] ?? '',
      alt: (ALT.exec(tag)?.[1] ?? '').replace(/&(amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity),
    }))
    .filter((image) => image.src)
    .slice(0, 6)
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
