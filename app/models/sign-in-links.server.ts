// One-time links sent by email: invitation and setup links (better-auth magic links) and password-reset links
// (security review F6). Issuing a new link voids the person's older links of the same kind; using one, or setting
// a password, voids every outstanding link of that person. All of them live in better-auth's `verification`
// table: its database hooks (auth.server.ts) call in here for the links better-auth issues and consumes, and
// invitations create theirs here, in the transaction that creates the invitee (fault drill #3).
import { createHash, randomUUID } from 'node:crypto'
import { generateRandomString } from 'better-auth/crypto'
import { and, eq, like, ne, or, type SQL, sql } from 'drizzle-orm'
import { user, verification } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'

/** Invitation links work for 7 days (docs/product.md "Roles"), and once. */
export const INVITE_LINK_SECONDS = 7 * 24 * 60 * 60

/** better-auth's magic-link endpoint (its base path is AUTH_BASE_PATH in auth.server.ts). */
const MAGIC_LINK_VERIFY_PATH = '/api/auth/magic-link/verify'

/** Where an expired, used or voided invitation link lands (the login page explains). */
const INVALID_INVITE_PATH = '/login?invite=invalid'

type LinkKind = 'magic-link' | 'reset-password'
const KINDS: readonly LinkKind[] = ['magic-link', 'reset-password']

/** Whose links: a magic link names the address, a reset link the user id. */
type Person = { email: string; userId: string | null }

type LinkRow = { id: string; identifier: string; value: string; expiresAt: Date }

function kindOf(identifier: string): LinkKind | null {
  return KINDS.find((kind) => identifier.startsWith(`${kind}:`)) ?? null
}

/** The rows of `person`'s links of one kind, in the formats better-auth 1.7 writes them. */
function linksOf(kind: LinkKind, person: Person): SQL | undefined {
  if (kind === 'reset-password') {
    return person.userId
      ? and(like(verification.identifier, 'reset-password:%'), eq(verification.value, person.userId))
      : undefined
  }
  // The value of a magic link is JSON; the CASE keeps the cast away from every other kind of row.
  return and(
    like(verification.identifier, 'magic-link:%'),
    sql`case when ${verification.identifier} like 'magic-link:%' then lower(${verification.value}::jsonb->>'email') end = ${person.email.toLowerCase()}`,
  )
}

/** Deletes `person`'s outstanding links of `kinds` (all by default), except the row `keepId`. */
async function voidLinks(
  person: Person,
  {
    kinds = KINDS,
    keepId,
    executor = db(),
  }: { kinds?: readonly LinkKind[]; keepId?: string; executor?: Database } = {},
) {
  const matches = kinds.map((kind) => linksOf(kind, person)).filter((match) => match !== undefined)
  // No condition must never become "no WHERE": that would delete every link of everyone.
  if (matches.length === 0) return
  await executor.delete(verification).where(and(or(...matches), keepId ? ne(verification.id, keepId) : undefined))
}

async function personById(userId: string, executor: Database = db()): Promise<Person | null> {
  const [row] = await executor.select({ email: user.email }).from(user).where(eq(user.id, userId))
  return row ? { email: row.email, userId } : null
}

async function personOf(row: LinkRow): Promise<Person | null> {
  if (kindOf(row.identifier) === 'reset-password') return personById(row.value)
  const email = emailIn(row.value)
  if (email === null) return null
  const [account] = await db()
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email.toLowerCase()}`)
  return { email, userId: account?.id ?? null }
}

/** The address a link's JSON value names, or null when it is not JSON or names none (no person to void for). */
function emailIn(value: string): string | null {
  try {
    const email = (JSON.parse(value) as { email?: unknown } | null)?.email
    return typeof email === 'string' ? email : null
  } catch {
    return null
  }
}

/** better-auth issued a link (a reset): the person's older links of that kind stop working. */
export async function onLinkIssued(row: LinkRow) {
  const kind = kindOf(row.identifier)
  const person = kind ? await personOf(row) : null
  if (kind && person) await voidLinks(person, { kinds: [kind], keepId: row.id })
}

/**
 * better-auth deleted a link. Before its expiry that is a use (a sign-in or a reset; expired rows are only swept
 * up): every other outstanding link of the person stops working.
 */
export async function onLinkDeleted(row: LinkRow) {
  if (!kindOf(row.identifier) || row.expiresAt.getTime() <= Date.now()) return
  const person = await personOf(row)
  if (person) await voidLinks(person)
}

/** A password was set (the first one, a change, or a reset): no outstanding link of that person works any more. */
export async function onPasswordSet(userId: string) {
  const person = await personById(userId)
  if (person) await voidLinks(person)
}

/** Voids every outstanding link of `userId` inside the caller's transaction (an account is being taken over). */
export async function voidAllLinksOf(executor: Database, userId: string) {
  const person = await personById(userId, executor)
  if (person) await voidLinks(person, { executor })
}

/** How better-auth's magic-link plugin stores a token with `storeToken: 'hashed'` (SHA-256, base64url, unpadded). */
function hashedToken(token: string) {
  return createHash('sha256').update(token).digest('base64url')
}

/**
 * Creates a one-time sign-in link for `email` that lands on `callbackURL`, in the caller's transaction: the row is
 * exactly what the installed magic-link plugin verifies (`storeToken: 'hashed'`), so the link exists if and only if
 * the invitee and their email do. The person's older invitation and setup links stop working.
 */
export async function createInviteLink(
  executor: Database,
  { email, callbackURL }: { email: string; callbackURL: string },
) {
  const token = generateRandomString(32, 'a-z', 'A-Z')
  await voidLinks({ email, userId: null }, { kinds: ['magic-link'], executor })
  await executor.insert(verification).values({
    id: randomUUID(),
    identifier: `magic-link:${hashedToken(token)}`,
    value: JSON.stringify({ type: 'magic-link', email }),
    expiresAt: new Date(Date.now() + INVITE_LINK_SECONDS * 1000),
  })
  const url = new URL(MAGIC_LINK_VERIFY_PATH, env().APP_URL)
  url.searchParams.set('token', token)
  url.searchParams.set('callbackURL', callbackURL)
  url.searchParams.set('errorCallbackURL', INVALID_INVITE_PATH)
  return url.toString()
}
