// Where a webhook may be sent (docs/decisions/051-webhooks.md): https on public addresses only, checked when an
// endpoint is saved and again at every delivery after DNS — the connection goes to the very address that was
// checked (the request's own `lookup`), so a name that changes its answer between check and send gains nothing.
// WEBHOOKS_ALLOW_PRIVATE=1 (tests, local setups) allows plain http and private addresses.
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

export function webhooksAllowPrivate(source: NodeJS.ProcessEnv = process.env) {
  return source.WEBHOOKS_ALLOW_PRIVATE === '1'
}

const blocked = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6')
}

/** Whether `address` (an IP literal) is one a webhook may never reach. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const family = isIP(bare)
  if (family === 0) return true
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d, which URLs write ::ffff:7f00:1): never a public endpoint's address.
    if (/^(0{0,4}:){0,5}:?ffff:/i.test(bare) || /^::ffff$/i.test(bare)) return true
    return blocked.check(bare, 'ipv6')
  }
  return blocked.check(bare, 'ipv4')
}

export type AddressCheck = { ok: true; url: URL } | { ok: false; message: string }

export const HTTPS_ONLY = 'The endpoint URL must start with https://.'
export const PRIVATE_REFUSED = 'The endpoint URL must be on a public internet address, not a private or local one.'

/** The URL's own form: https (http only when private addresses are allowed), no credentials, a host. */
export function checkEndpointUrl(value: string, allowPrivate = webhooksAllowPrivate()): AddressCheck {
  if (!URL.canParse(value)) return { ok: false, message: 'Enter a full URL such as https://example.com/hooks.' }
  const url = new URL(value)
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) return { ok: false, message: HTTPS_ONLY }
  if (url.username || url.password) return { ok: false, message: 'Leave user names and passwords out of the URL.' }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate) {
    if (isIP(host) && isPrivateAddress(host)) return { ok: false, message: PRIVATE_REFUSED }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || !host.includes('.')) {
      return { ok: false, message: PRIVATE_REFUSED }
    }
  }
  return { ok: true, url }
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true })

/**
 * The URL checked as at save, then its name resolved: every address must be public (one private answer refuses
 * it all). Returns the address to connect to.
 */
export async function resolveEndpoint(
  value: string,
  {
    allowPrivate = webhooksAllowPrivate(),
    resolve = systemResolver,
  }: { allowPrivate?: boolean; resolve?: Resolver } = {},
): Promise<{ ok: true; url: URL; address: string; family: number } | { ok: false; message: string }> {
  const checked = checkEndpointUrl(value, allowPrivate)
  if (!checked.ok) return checked
  const host = checked.url.hostname.replace(/^\[|\]$/g, '')
  let answers: { address: string; family: number }[]
  try {
    answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host)
  } catch {
    return { ok: false, message: `The endpoint's host name ${host} could not be resolved.` }
  }
  const first = answers[0]
  if (!first) return { ok: false, message: `The endpoint's host name ${host} could not be resolved.` }
  if (!allowPrivate && answers.some((answer) => isPrivateAddress(answer.address))) {
    return { ok: false, message: PRIVATE_REFUSED }
  }
  return { ok: true, url: checked.url, address: first.address, family: first.family }
}
