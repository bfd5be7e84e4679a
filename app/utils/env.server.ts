import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://pool.example.com' })
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z.string().min(3).default('Pool Bud <no-reply@localhost>'),
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SEED_DEMO: z.enum(['0', '1']).optional(),
    /** Lists the built-in mailbox at /dev/mailbox under NODE_ENV=production too (still never with SMTP_URL). */
    DEV_MAILBOX: z.enum(['0', '1']).optional(),
    PLATFORM_ADMIN_EMAIL: z.email('must be an email address').optional(),
    /**
     * gzip in the app process (`on`), or not at all (`off`) when a reverse proxy in front compresses: then the app
     * does not spend a fifth of a small page's CPU on it (decision 065, docs/operations.md).
     */
    COMPRESSION: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    S3_BUCKET: z.string().optional(),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    // Texts and card payments (decision 032): a malformed value stops start-up here, naming the variable, instead of
    // every inbound text or webhook answering 500 later. Whether they come together is checked too (below, and in
    // twilio-config.server.ts and stripe-config.server.ts, which the running server reads).
    TWILIO_ACCOUNT_SID: z
      .string()
      .trim()
      .regex(/^AC[0-9a-f]{32}$/, 'must be an Account SID: AC followed by 32 lowercase hexadecimal digits')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().trim().min(1).optional(),
    TWILIO_FROM: z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 such as +18135550100')
      .optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a secret or restricted key (sk_live_…, sk_test_…, rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .regex(/^whsec_\w+$/, "must be the webhook endpoint's signing secret (whsec_…)")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required when DATABASE_URL is set' })
    }
    requireTogether(env, ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'], 'Texts through Twilio', ctx)
    requireTogether(env, ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], 'Card payments through Stripe', ctx)
  })

/** Settings that only work together: each missing one is named when some but not all are set. */
function requireTogether(
  env: Record<string, unknown>,
  names: readonly string[],
  what: string,
  ctx: { addIssue: (issue: { code: 'custom'; path: string[]; message: string }) => void },
) {
  const missing = names.filter((name) => env[name] === undefined)
  if (missing.length === 0 || missing.length === names.length) return
  for (const name of missing) {
    ctx.addIssue({ code: 'custom', path: [name], message: `${what} need ${names.join(', ')} together` })
  }
}

export type Env = z.infer<typeof EnvSchema> & { APP_URL: string; AUTH_SECRET: string }

/** Thrown when the environment is unusable; the message names every bad variable. */
export class EnvError extends Error {
  override name = 'EnvError'
}

/** Blank values count as unset, so `SMTP_URL=` in a shell behaves like no SMTP_URL. */
function withoutBlanks(source: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''))
}

/** Parses and validates the environment (docs/architecture.md "Stack"). */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(withoutBlanks(source))
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = result.data
  return {
    ...env,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    AUTH_SECRET: env.AUTH_SECRET ?? embeddedSecret(env.DATA_DIR),
  }
}

/** The embedded default keeps a generated secret in DATA_DIR so sessions survive restarts. */
function embeddedSecret(dataDir: string) {
  const file = path.join(dataDir, 'auth-secret')
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : ''
  // A missing, empty or truncated file gets a fresh secret (sessions signed with it are simply logged out).
  if (existing.length >= 32) return existing
  fs.mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  fs.writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

let cached: Env | undefined

/** The validated environment, parsed once per process. */
export function env(): Env {
  cached ??= parseEnv()
  return cached
}

/**
 * Makes the next `env()` parse `process.env` again. Only the test set-up calls it: test files share a process
 * (vitest.config.ts) and each starts from the environment it sets.
 */
export function rereadEnv() {
  cached = undefined
}
