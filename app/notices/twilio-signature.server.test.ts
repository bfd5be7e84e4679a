import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isTwilioSignatureValid, twilioSignature } from './twilio-signature.server'

// Twilio's documented example (webhooks security page and every Twilio helper library's docs).
const DOCS = {
  token: '12345',
  url: 'https://mycompany.com/myapp.php?foo=1&bar=2',
  params: {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+12349013030',
    Digits: '1234',
    From: '+12349013030',
    To: '+18005551212',
  },
  signature: '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
}

// An inbound SMS as Twilio posted it, from twilio-ruby's request validator spec.
const SMS = {
  token: '2bd9e9638872de601313dc77410d3b23',
  url: 'http://twiliotests.heroku.com/validate/sms',
  params: {
    ToState: 'CA',
    FromState: 'CA',
    AccountSid: 'ACba8bc05eacf94afdae398e642c9cc32d',
    SmsMessageSid: 'SM2003cbd5e6a3701999aa3e5f20ff2787',
    Body: 'Orly',
    From: '+14159354345',
    FromCity: 'SAN FRANCISCO',
    SmsStatus: 'received',
    FromZip: '94107',
    FromCountry: 'US',
    To: '+14158141819',
    ToCity: 'SAN FRANCISCO',
    ToZip: '94105',
    ToCountry: 'US',
    ApiVersion: '2010-04-01',
    SmsSid: 'SM2003cbd5e6a3701999aa3e5f20ff2787',
  },
  signature: 'mxeiv65lEe0b8L6LdVw2jgJi8yw=',
}

/** The scheme written out again without the module: URL, then name+value of each parameter sorted by name. */
function independentSignature(token: string, url: string, params: Record<string, string>) {
  const names = Object.keys(params).sort()
  const data = url + names.map((name) => `${name}${params[name]}`).join('')
  return createHmac('sha1', token).update(data).digest('base64')
}

describe('Twilio request signatures', () => {
  it.each([
    ['Twilio’s documented example', DOCS],
    ['a real inbound SMS', SMS],
  ])('reproduces %s', (_, vector) => {
    expect(twilioSignature(vector.token, vector.url, Object.entries(vector.params))).toBe(vector.signature)
    expect(isTwilioSignatureValid(vector.token, vector.signature, vector.url, new URLSearchParams(vector.params))).toBe(
      true,
    )
  })

  it('agrees with an independent computation for any parameters, in any order they arrive', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,12}$/)
    fc.assert(
      fc.property(fc.dictionary(name, fc.string({ unit: 'grapheme' })), fc.string(), (params, token) => {
        fc.pre(token.length > 0)
        const url = 'https://pools.example.com/webhooks/sms'
        const expected = independentSignature(token, url, params)
        const reversed = Object.entries(params).reverse()
        expect(twilioSignature(token, url, reversed)).toBe(expected)
        expect(isTwilioSignatureValid(token, expected, url, reversed)).toBe(true)
      }),
    )
  })

  it('refuses a request when anything it covers was changed', () => {
    const params = Object.entries(SMS.params)
    const ok = (token: string, signature: string | null | undefined, url: string, form: [string, string][]) =>
      isTwilioSignatureValid(token, signature, url, form)
    expect(ok(SMS.token, SMS.signature, SMS.url, params)).toBe(true)
    // A forged STOP for the same number.
    const forged = params.map(([k, v]): [string, string] => [k, k === 'Body' ? 'STOP' : v])
    expect(ok(SMS.token, SMS.signature, SMS.url, forged)).toBe(false)
    // Someone else's number.
    const other = params.map(([k, v]): [string, string] => [k, k === 'From' ? '+14155550100' : v])
    expect(ok(SMS.token, SMS.signature, SMS.url, other)).toBe(false)
    // An extra parameter, a parameter removed.
    expect(ok(SMS.token, SMS.signature, SMS.url, [...params, ['Extra', '']])).toBe(false)
    expect(ok(SMS.token, SMS.signature, SMS.url, params.slice(1))).toBe(false)
    // Another URL (a Host header of the attacker's choosing), another token.
    expect(ok(SMS.token, SMS.signature, 'http://evil.example/validate/sms', params)).toBe(false)
    expect(ok('0'.repeat(32), SMS.signature, SMS.url, params)).toBe(false)
    // Missing, empty, truncated, lengthened, or another request's signature.
    expect(ok(SMS.token, undefined, SMS.url, params)).toBe(false)
    expect(ok(SMS.token, null, SMS.url, params)).toBe(false)
    expect(ok(SMS.token, '', SMS.url, params)).toBe(false)
    expect(ok(SMS.token, SMS.signature.slice(0, -1), SMS.url, params)).toBe(false)
    expect(ok(SMS.token, `${SMS.signature}A`, SMS.url, params)).toBe(false)
    expect(ok(SMS.token, DOCS.signature, SMS.url, params)).toBe(false)
    // No token configured never validates, even a signature made with the empty key.
    const emptyKeyed = createHmac('sha1', '').update(SMS.url).digest('base64')
    expect(ok('', emptyKeyed, SMS.url, [])).toBe(false)
  })

  it('sorts a repeated name by value, so the order in the body does not matter', () => {
    const token = 'secret'
    const url = 'https://pools.example.com/webhooks/sms'
    const expected = createHmac('sha1', token).update(`${url}MediaUrla.jpgMediaUrlb.jpg`).digest('base64')
    expect(
      twilioSignature(token, url, [
        ['MediaUrl', 'b.jpg'],
        ['MediaUrl', 'a.jpg'],
      ]),
    ).toBe(expected)
  })
})
