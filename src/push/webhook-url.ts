import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook may be sent. A subscription's URL is checked when it is saved (`checkWebhookUrl`),
 * and every address its host resolves to is checked again at each delivery (`isPublicAddress`,
 * used by webhook-send.ts), so a name that later resolves to an internal address (DNS rebinding)
 * reaches nothing inside the network Strata runs in (SSRF). `allowLoopback`
 * (`STRATA_WEBHOOKS_ALLOW_LOOPBACK=1`) lifts both rules, for a receiver on the same host.
 */

/**
 * Ranges that are not the public internet (IANA special-purpose registries, IPv4 and IPv6).
 * IPv4-mapped (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`) addresses are judged by the IPv4 address
 * they carry (`embeddedIpv4`), not listed here: a BlockList also matches IPv4 addresses against
 * IPv6 rules through their mapped form, and would refuse every IPv4 address.
 */
const NOT_PUBLIC = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6')
}

/**
 * Global unicast (`2000::/3`), the only IPv6 space IANA allocates for the internet: the rest
 * (IPv4-compatible `::a.b.c.d`, SIIT's `::ffff:0:a.b.c.d`, unassigned space) is refused whole.
 */
const GLOBAL_UNICAST = new BlockList()
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6')

/** The IPv4 address an IPv4-mapped or NAT64 IPv6 address carries, or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase()
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]!
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (!hex) return null
  const high = Number.parseInt(hex[1]!, 16)
  const low = Number.parseInt(hex[2]!, 16)
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/** Whether `address` (an IP literal) is on the public internet. Anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4')
  if (family !== 6) return false
  const inner = embeddedIpv4(address)
  if (inner !== null) return isPublicAddress(inner)
  return GLOBAL_UNICAST.check(address, 'ipv6') && !NOT_PUBLIC.check(address, 'ipv6')
}

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string }

/**
 * Whether `text` may be a subscription's URL: absolute, `https:` (or `http:` with
 * `allowLoopback`), no user name or password, no fragment, and, when its host is an IP literal or
 * `localhost`, a public address (unless `allowLoopback`). A host name is resolved at delivery.
 */
export function checkWebhookUrl(text: string, allowLoopback: boolean): WebhookUrlCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: 'url must be an absolute URL' }
  }
  const schemes = allowLoopback ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol))
    return {
      ok: false,
      reason: allowLoopback ? 'url must use https or http' : 'url must use https',
    }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'url must not carry a user name or password' }
  if (url.hash !== '') return { ok: false, reason: 'url must not have a fragment' }
  if (!allowLoopback) {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const name = host.toLowerCase().replace(/\.$/, '')
    if (name === 'localhost' || name.endsWith('.localhost'))
      return { ok: false, reason: 'url must not point at this host' }
    if (isIP(host) !== 0 && !isPublicAddress(host))
      return {
        ok: false,
        reason: 'url must point at a public address, not a private, loopback or reserved one',
      }
  }
  return { ok: true, url }
}
