// "Forgot password" (security review F5): the request does the same work whatever the address, the outbox worker
// mails a working link to a real account only, and per-address and per-client limits hold.
import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CLIENT_IP_HEADER, getAuth } from '~/auth/better-auth.server'
import { emailOutbox, profiles } from '~/db/schema'
import { RESETS_PER_ADDRESS, RESETS_PER_CLIENT } from '~/models/password-reset.server'
import type { OutgoingMail } from '~/outbox/email-transport.server'
import { deliverDueEmails } from '~/outbox/worker.server'
import { currentDatabaseHandle, db, recordQueries } from '~/utils/db.server'
import { formRequest, routeArgs, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action } from './forgot-password'
import { action as resetAction } from './reset-password'

let clients = 0
/** A client address of its own for each caller, unless one is given. */
const post = (path: string, fields: Record<string, string>, clientIp = `203.0.113.${++clients}`) =>
  formRequest(path, fields, undefined, { [CLIENT_IP_HEADER]: clientIp })

type Reply = { submitted: boolean; result: { error?: Record<string, string[] | null> } }

/** The action's answer as the page gets it: status, whether it says "Check your email", and its messages. */
async function ask(email: string, clientIp?: string) {
  const answer = (await action(routeArgs(post('/forgot-password', { email }, clientIp)))) as unknown as
    | Reply
    | { data: Reply; init?: { status?: number } }
  // A success is the plain object; a refusal is `data(…, status)`.
  const reply = 'data' in answer ? answer.data : answer
  const errors = Object.values(reply.result.error ?? {})
    .flat()
    .filter(Boolean)
  return { status: 'data' in answer ? (answer.init?.status ?? 200) : 200, submitted: reply.submitted, errors }
}

/** Runs the outbox worker once and returns what it sent. */
async function runWorker() {
  const sent: OutgoingMail[] = []
  await deliverDueEmails({
    transport: {
      async send(mail) {
        sent.push(mail)
      },
    },
  })
  return sent
}

const KNOWN = 'tech2@bluelagoon.test'

beforeAll(async () => {
  await useDemoData()
})

beforeEach(async () => {
  // Each test reads only its own emails.
  await runWorker()
})

describe('forgot password', () => {
  it('runs exactly the same SQL statements for a known and an unknown address, and answers the same', async () => {
    const handle = currentDatabaseHandle()
    if (!handle) throw new Error('no database')

    const { value: known, recorded: knownQueries } = await recordQueries(handle, () => ask(KNOWN))
    const { value: unknown, recorded: unknownQueries } = await recordQueries(handle, () =>
      ask('nobody-at-all@example.test'),
    )

    expect(known).toEqual({ status: 200, submitted: true, errors: [] })
    expect(unknown).toEqual(known)
    // Two rate-limit counters and the one insert that queues the task.
    expect(knownQueries.map((q) => q.sql.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'insert into rate_limit_counters',
      'insert into rate_limit_counters',
      'insert into "email_outbox"',
    ])
    expect(unknownQueries.map((q) => q.sql)).toEqual(knownQueries.map((q) => q.sql))
    expect(unknownQueries.map((q) => q.params.length)).toEqual(knownQueries.map((q) => q.params.length))
    // None of them reads the accounts.
    for (const query of knownQueries) expect(query.sql).not.toMatch(/"user"|\baccount\b|profiles/)
  })

  it('the worker mails the known address a working reset link; the unknown one gets nothing', async () => {
    expect((await ask(KNOWN)).submitted).toBe(true)
    expect((await ask('nobody-else@example.test')).submitted).toBe(true)
    // Until the worker runs, both requests left the same thing behind: one queued task, nothing rendered.
    const queued = await db()
      .select({ to: emailOutbox.to, kind: emailOutbox.kind, html: emailOutbox.html, status: emailOutbox.status })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, 'pending'))
    expect(queued.sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      { to: 'nobody-else@example.test', kind: 'password-reset', html: '', status: 'pending' },
      { to: KNOWN, kind: 'password-reset', html: '', status: 'pending' },
    ])

    const sent = await runWorker()
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([[KNOWN, 'Reset your Pool Bud password']])
    // The unknown address's task is dropped quietly: nothing is left to retry.
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, 'nobody-else@example.test'))).toEqual([])

    // The link lands on better-auth's reset route, which sends the browser to our page with the token …
    const link = /https?:\/\/\S+\/api\/auth\/reset-password\/[A-Za-z0-9_-]+\?callbackURL=[^\s)\]]+/.exec(
      sent[0]?.text ?? '',
    )?.[0]
    if (!link) throw new Error(`no reset link in:\n${sent[0]?.text}`)
    const landing = await getAuth().handler(new Request(link))
    expect(landing.status).toBe(302)
    const target = new URL(landing.headers.get('location') ?? '', TEST_ORIGIN)
    expect(target.pathname).toBe('/reset-password')
    const token = target.searchParams.get('token')
    expect(token).toBeTruthy()

    // … where the new password is set, and works.
    const reset = (await resetAction(
      routeArgs(
        post('/reset-password', {
          token: token ?? '',
          password: 'brand-new-pass-22',
          confirmPassword: 'brand-new-pass-22',
        }),
      ),
    )) as { data: { done: boolean } }
    expect(reset.data.done).toBe(true)
    await expect(signInAs(KNOWN, 'brand-new-pass-22')).resolves.toContain('session_token')
  })

  it('a deactivated member gets no link', async () => {
    await db().update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.email, 'tech@sunsetpools.test'))
    expect((await ask('tech@sunsetpools.test')).submitted).toBe(true)
    expect(await runWorker()).toEqual([])
  })

  it(`refuses request no. ${RESETS_PER_ADDRESS.max + 1} for one address in an hour, from any client`, async () => {
    const address = 'owner@bluelagoon.test'
    for (let i = 0; i < RESETS_PER_ADDRESS.max; i++) {
      expect(await ask(address)).toEqual({ status: 200, submitted: true, errors: [] })
    }
    const refused = await ask(address)
    expect(refused.status).toBe(429)
    expect(refused.submitted).toBe(false)
    expect(refused.errors).toEqual([expect.stringMatching(/^Too many reset requests\. Try again in \d+ minutes?\.$/)])
    // Other addresses are unaffected; the refused request queued nothing.
    expect((await ask('office@bluelagoon.test')).submitted).toBe(true)
    const sent = await runWorker()
    expect(sent.filter((mail) => mail.to === address)).toHaveLength(RESETS_PER_ADDRESS.max)
  })

  it(`refuses request no. ${RESETS_PER_CLIENT.max + 1} from one client in an hour, whatever the address`, async () => {
    const client = '198.51.100.200'
    for (let i = 0; i < RESETS_PER_CLIENT.max; i++) {
      expect((await ask(`someone-${i}@example.test`, client)).status).toBe(200)
    }
    const refused = await ask('someone-else@example.test', client)
    expect(refused.status).toBe(429)
    expect(refused.errors).toEqual([expect.stringMatching(/^Too many reset requests/)])
    expect((await ask('someone-else@example.test', '198.51.100.201')).status).toBe(200)
  })

  it('better-auth’s own request-password-reset endpoint is closed', async () => {
    const response = await getAuth().handler(
      new Request(`${TEST_ORIGIN}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, [CLIENT_IP_HEADER]: '203.0.113.250' },
        body: JSON.stringify({ email: KNOWN, redirectTo: '/reset-password' }),
      }),
    )
    expect(response.status).toBe(404)
    expect(await runWorker()).toEqual([])
  })
})
