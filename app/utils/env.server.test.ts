import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from './env.server'

const SECRET = 'a-production-secret-0123456789abcdef'

let dataDir: string

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-env-'))
})

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true })
})

/** The error parseEnv throws for `source` (fails the test when it does not throw). */
function parseError(source: NodeJS.ProcessEnv) {
  try {
    parseEnv(source)
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError)
    return error as EnvError
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`)
}

describe('parseEnv defaults', () => {
  it('serves on port 3000 at http://localhost:3000, keeps data in ./data and sends from Pool Bud', () => {
    const config = parseEnv({ AUTH_SECRET: SECRET })
    expect(config.PORT).toBe(3000)
    expect(config.APP_URL).toBe('http://localhost:3000')
    expect(config.DATA_DIR).toBe('./data')
    expect(config.MAIL_FROM).toBe('Pool Bud <no-reply@localhost>')
    expect(config.DATABASE_URL).toBeUndefined()
    expect(config.SMTP_URL).toBeUndefined()
    expect(config.AUTH_SECRET).toBe(SECRET)
  })

  it('derives APP_URL from PORT when only PORT is set', () => {
    const config = parseEnv({ AUTH_SECRET: SECRET, PORT: '8080' })
    expect(config.PORT).toBe(8080)
    expect(config.APP_URL).toBe('http://localhost:8080')
  })

  it('uses APP_URL as given, without a trailing slash, so email links have no double slash', () => {
    const config = parseEnv({ AUTH_SECRET: SECRET, APP_URL: 'https://pool.example.com/' })
    expect(config.APP_URL).toBe('https://pool.example.com')
  })

  it('keeps the values that are set', () => {
    const config = parseEnv({
      AUTH_SECRET: SECRET,
      DATABASE_URL: 'postgres://app:pw@db.internal:5432/poolbud',
      SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
      MAIL_FROM: 'Blue Lagoon <office@bluelagoon.test>',
      DATA_DIR: dataDir,
    })
    expect(config.DATABASE_URL).toBe('postgres://app:pw@db.internal:5432/poolbud')
    expect(config.SMTP_URL).toBe('smtps://mailer:pw@smtp.example.com:465')
    expect(config.MAIL_FROM).toBe('Blue Lagoon <office@bluelagoon.test>')
    expect(config.DATA_DIR).toBe(dataDir)
  })
})

describe('COMPRESSION (decision 065)', () => {
  it('is on unless set to off (a reverse proxy in front compresses)', () => {
    expect(parseEnv({ AUTH_SECRET: SECRET }).COMPRESSION).toBe('on')
    expect(parseEnv({ AUTH_SECRET: SECRET, COMPRESSION: 'off' }).COMPRESSION).toBe('off')
    expect(parseEnv({ AUTH_SECRET: SECRET, COMPRESSION: 'on' }).COMPRESSION).toBe('on')
  })
})

describe('parseEnv refuses a malformed environment, naming the variable', () => {
  it.each([
    ['DATABASE_URL', 'mysql://root@localhost/pool'],
    ['DATABASE_URL', 'not a url'],
    ['SMTP_URL', 'http://smtp.example.com'],
    ['SMTP_URL', 'smtp.example.com:587'],
    ['PORT', 'eighty'],
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['APP_URL', 'ftp://pool.example.com'],
    ['COMPRESSION', 'yes'],
    ['COMPRESSION', 'gzip'],
  ])('%s=%s', (name, value) => {
    const error = parseError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, [name]: value })
    expect(error.name).toBe('EnvError')
    expect(error.message).toContain(name)
  })

  it('names every bad variable at once', () => {
    const error = parseError({ AUTH_SECRET: SECRET, DATABASE_URL: 'nope', SMTP_URL: 'nope', PORT: 'nope' })
    expect(error.message).toContain('DATABASE_URL')
    expect(error.message).toContain('SMTP_URL')
    expect(error.message).toContain('PORT')
  })

  it('does not echo a malformed URL (and the password in it) into the error', () => {
    const error = parseError({ AUTH_SECRET: SECRET, DATABASE_URL: 'mysql://root:hunter2-secret@db/pool' })
    expect(error.message).toContain('DATABASE_URL')
    expect(error.message).not.toContain('hunter2-secret')
  })

  it('requires AUTH_SECRET with DATABASE_URL', () => {
    const error = parseError({ DATABASE_URL: 'postgres://app@db.internal/poolbud', DATA_DIR: dataDir })
    expect(error.message).toContain('AUTH_SECRET')
    // No secret was generated in its place.
    expect(fs.existsSync(path.join(dataDir, 'auth-secret'))).toBe(false)
  })

  it('refuses a short AUTH_SECRET', () => {
    const error = parseError({ AUTH_SECRET: 'short', DATA_DIR: dataDir })
    expect(error.message).toContain('AUTH_SECRET')
  })
})

describe('texts and card payments: a malformed setting stops start-up, naming the variable (decision 032)', () => {
  const TWILIO = {
    TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
    TWILIO_AUTH_TOKEN: 'f'.repeat(32),
    TWILIO_FROM: '+18135550100',
  }
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }

  it('accepts well-formed Twilio and Stripe settings', () => {
    const env = parseEnv({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, ...TWILIO, ...STRIPE })
    expect(env).toMatchObject({ ...TWILIO, ...STRIPE })
    expect(
      parseEnv({
        AUTH_SECRET: SECRET,
        DATA_DIR: dataDir,
        STRIPE_SECRET_KEY: 'rk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_y',
      }),
    ).toBeTruthy()
  })

  it.each([
    ['TWILIO_ACCOUNT_SID', 'SK0123456789abcdef0123456789abcdef'],
    ['TWILIO_ACCOUNT_SID', 'AC123'],
    ['TWILIO_ACCOUNT_SID', `AC${'0123456789ABCDEF'.repeat(2)}`],
    ['TWILIO_ACCOUNT_SID', `AC${'0123456789abcdef'.repeat(2)}0`],
    ['TWILIO_FROM', '(813) 555-0100'],
    ['TWILIO_FROM', '8135550100'],
    ['TWILIO_FROM', '+0135550100'],
    ['STRIPE_SECRET_KEY', 'pk_live_abc123'],
    ['STRIPE_SECRET_KEY', 'abc123'],
    ['STRIPE_WEBHOOK_SECRET', 'abc123'],
    ['STRIPE_WEBHOOK_SECRET', 'sk_live_abc123'],
  ])('%s=%s', (name, value) => {
    const error = parseError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, ...TWILIO, ...STRIPE, [name]: value })
    expect(error.message).toContain(name)
    // The other settings are fine: only the bad one is named.
    for (const other of [...Object.keys(TWILIO), ...Object.keys(STRIPE)].filter((n) => n !== name)) {
      expect(error.message).not.toContain(`${other}:`)
    }
  })

  it('names the missing partner of a half-set pair', () => {
    expect(parseError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, STRIPE_SECRET_KEY: 'sk_test_abc' }).message).toContain(
      'STRIPE_WEBHOOK_SECRET',
    )
    const twilio = parseError({ AUTH_SECRET: SECRET, DATA_DIR: dataDir, TWILIO_ACCOUNT_SID: TWILIO.TWILIO_ACCOUNT_SID })
    expect(twilio.message).toContain('TWILIO_AUTH_TOKEN')
    expect(twilio.message).toContain('TWILIO_FROM')
  })
})

describe('the embedded default (no DATABASE_URL)', () => {
  it('generates a secret once into DATA_DIR/auth-secret and reuses it on the next start', () => {
    const first = parseEnv({ DATA_DIR: dataDir })
    const file = path.join(dataDir, 'auth-secret')
    expect(fs.existsSync(file)).toBe(true)
    expect(first.AUTH_SECRET.length).toBeGreaterThanOrEqual(32)
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.AUTH_SECRET)
    // Only the app's user may read it.
    expect(fs.statSync(file).mode & 0o077).toBe(0)

    const second = parseEnv({ DATA_DIR: dataDir })
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET)
  })

  it('creates DATA_DIR when it does not exist yet', () => {
    const nested = path.join(dataDir, 'fresh', 'data')
    const config = parseEnv({ DATA_DIR: nested })
    expect(fs.readFileSync(path.join(nested, 'auth-secret'), 'utf8').trim()).toBe(config.AUTH_SECRET)
  })

  it('gives each installation its own secret', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-env-'))
    try {
      expect(parseEnv({ DATA_DIR: other }).AUTH_SECRET).not.toBe(parseEnv({ DATA_DIR: dataDir }).AUTH_SECRET)
    } finally {
      fs.rmSync(other, { recursive: true, force: true })
    }
  })

  it('prefers an explicit AUTH_SECRET and then writes nothing', () => {
    expect(parseEnv({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).AUTH_SECRET).toBe(SECRET)
    expect(fs.existsSync(path.join(dataDir, 'auth-secret'))).toBe(false)
  })
})

describe('blank values count as unset', () => {
  it('uses the defaults for blank PORT, APP_URL, MAIL_FROM and SMTP_URL', () => {
    const config = parseEnv({
      AUTH_SECRET: SECRET,
      PORT: '',
      APP_URL: '',
      MAIL_FROM: '',
      SMTP_URL: '',
      DATABASE_URL: '',
      SEED_DEMO: '',
    })
    expect(config.PORT).toBe(3000)
    expect(config.APP_URL).toBe('http://localhost:3000')
    expect(config.MAIL_FROM).toBe('Pool Bud <no-reply@localhost>')
    expect(config.SMTP_URL).toBeUndefined()
    expect(config.DATABASE_URL).toBeUndefined()
    expect(config.SEED_DEMO).toBeUndefined()
  })

  it('treats a blank AUTH_SECRET as missing: generated when embedded, refused with DATABASE_URL', () => {
    const embedded = parseEnv({ DATA_DIR: dataDir, AUTH_SECRET: '' })
    expect(embedded.AUTH_SECRET.length).toBeGreaterThanOrEqual(32)

    const error = parseError({ DATABASE_URL: 'postgres://app@db.internal/poolbud', AUTH_SECRET: '', DATA_DIR: dataDir })
    expect(error.message).toContain('AUTH_SECRET')
  })
})
