import { describe, expect, it } from 'vitest'
import { checkWebhookUrl, isPublicAddress } from '../../src/push/webhook-url.ts'

// Expected values written by hand from IANA's IPv4 and IPv6 Special-Purpose Address Registries
// and its IPv6 Address Space registry (global unicast is 2000::/3), checking both edges of ranges.

const PUBLIC_V4 = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255', // just below 10/8
  '11.0.0.0', // just above 10/8
  '100.63.255.255', // just below 100.64/10
  '100.128.0.0', // just above 100.64/10
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above 172.16/12
  '192.0.1.0', // between 192.0.0/24 and 192.0.2/24
  '192.88.98.255',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255', // just below 198.18/15
  '198.20.0.0', // just above 198.18/15
  '223.255.255.255', // the last unicast address
]

const NOT_PUBLIC_V4 = [
  '0.0.0.0',
  '0.255.255.255',
  '10.0.0.0',
  '10.255.255.255',
  '100.64.0.0',
  '100.127.255.255',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.0.1',
  '169.254.169.254', // cloud metadata
  '172.16.0.0',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '198.18.0.0',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.255',
  '224.0.0.1',
  '239.255.255.255',
  '240.0.0.1',
  '255.255.255.255',
]

const PUBLIC_V6 = [
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2001:200::1', // just above 2001::/23
  '2003::1', // just above 2002::/16
  '3fff:1000::1', // just above 3fff::/20
  '2a00:1450:4001::200e',
]

const NOT_PUBLIC_V6 = [
  '::', // unspecified
  '::1', // loopback
  '::7f00:1', // IPv4-compatible (deprecated), outside 2000::/3
  '1::', // unassigned, outside 2000::/3
  '100::1', // discard
  '2001::1', // Teredo
  '2001:1ff:ffff::1', // still in 2001::/23
  '2001:db8::1', // documentation
  '2002:c000:204::1', // 6to4
  '3fff::1', // documentation
  '5f00::1', // SRv6 SIDs
  '64:ff9b:1::1', // local-use NAT64
  'fc00::1', // unique local
  'fd12:3456:789a::1',
  'fe80::1', // link-local
  'febf:ffff::1',
  'fec0::1', // site-local
  'ff02::1', // multicast
]

/** IPv4-mapped and NAT64 addresses: judged by the IPv4 address they carry, in either spelling. */
const EMBEDDED: [string, boolean][] = [
  ['::ffff:8.8.8.8', true],
  ['::ffff:808:808', true],
  ['::FFFF:8.8.8.8', true],
  ['::ffff:127.0.0.1', false],
  ['::ffff:7f00:1', false],
  ['::ffff:a00:1', false], // 10.0.0.1
  ['::ffff:c0a8:101', false], // 192.168.1.1
  ['::ffff:0:0', false], // 0.0.0.0
  ['::ffff:0:7f00:1', false], // SIIT's IPv4-translated form: outside 2000::/3
  ['64:ff9b::8.8.8.8', true],
  ['64:ff9b::808:808', true],
  ['64:ff9b::a9fe:a9fe', false], // 169.254.169.254
  ['64:ff9b::7f00:1', false],
  ['64:ff9b::10.1.2.3', false],
]

describe('isPublicAddress', () => {
  it.each(PUBLIC_V4)('%s is public', (address) => expect(isPublicAddress(address)).toBe(true))
  it.each(NOT_PUBLIC_V4)('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false))
  it.each(PUBLIC_V6)('%s is public', (address) => expect(isPublicAddress(address)).toBe(true))
  it.each(NOT_PUBLIC_V6)('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false))
  it.each(EMBEDDED)('%s is public: %s', (address, expected) =>
    expect(isPublicAddress(address)).toBe(expected),
  )

  it('is false for anything that is not an IP literal', () => {
    for (const text of [
      '',
      'example.com',
      'localhost',
      '[::1]',
      '8.8.8',
      '8.8.8.8.8',
      '256.1.1.1',
      ' 8.8.8.8',
    ])
      expect(isPublicAddress(text)).toBe(false)
  })
})

const refused = (reason: string) => ({ ok: false, reason })
const PRIVATE = 'url must point at a public address, not a private, loopback or reserved one'

describe('checkWebhookUrl', () => {
  it('accepts an https URL with a public host, and keeps it parsed', () => {
    const check = checkWebhookUrl('https://hooks.example.com:8443/strata?key=1', false)
    expect(check.ok).toBe(true)
    expect(check.ok && check.url.href).toBe('https://hooks.example.com:8443/strata?key=1')
    expect(checkWebhookUrl('https://8.8.8.8/', false).ok).toBe(true)
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/', false).ok).toBe(true)
    expect(checkWebhookUrl('https://localhost.example.com/', false).ok).toBe(true)
  })

  it('takes https only, and http too with allowLoopback', () => {
    expect(checkWebhookUrl('http://hooks.example.com/', false)).toEqual(refused('url must use https'))
    expect(checkWebhookUrl('http://hooks.example.com/', true).ok).toBe(true)
    expect(checkWebhookUrl('ftp://hooks.example.com/', true)).toEqual(refused('url must use https or http'))
    expect(checkWebhookUrl('ws://hooks.example.com/', false)).toEqual(refused('url must use https'))
    expect(checkWebhookUrl('javascript:alert(1)', false)).toEqual(refused('url must use https'))
  })

  it('wants an absolute URL', () => {
    for (const text of ['', 'hooks.example.com/strata', '/strata', 'https://', 'https://exa mple.com/'])
      expect(checkWebhookUrl(text, true)).toEqual(refused('url must be an absolute URL'))
  })

  it('refuses credentials and fragments, even with allowLoopback', () => {
    const credentials = refused('url must not carry a user name or password')
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', false)).toEqual(credentials)
    expect(checkWebhookUrl('https://user@hooks.example.com/', true)).toEqual(credentials)
    expect(checkWebhookUrl('https://:pw@hooks.example.com/', false)).toEqual(credentials)
    const fragment = refused('url must not have a fragment')
    expect(checkWebhookUrl('https://hooks.example.com/strata#top', false)).toEqual(fragment)
    expect(checkWebhookUrl('http://127.0.0.1:9000/#x', true)).toEqual(fragment)
  })

  it('takes at most 2048 characters', () => {
    const prefix = 'https://hooks.example.com/'
    const longest = prefix + 'a'.repeat(2048 - prefix.length)
    expect(longest).toHaveLength(2048)
    expect(checkWebhookUrl(longest, false).ok).toBe(true)
    expect(checkWebhookUrl(`${longest}a`, false)).toEqual(refused('url must be at most 2048 characters'))
  })

  it('refuses this host by name without allowLoopback', () => {
    const self = refused('url must not point at this host')
    for (const text of [
      'https://localhost/',
      'https://LOCALHOST:8443/',
      'https://localhost./',
      'https://api.localhost/',
    ])
      expect(checkWebhookUrl(text, false)).toEqual(self)
    expect(checkWebhookUrl('https://localhost/', true).ok).toBe(true)
  })

  it('refuses a non-public IP literal in any spelling without allowLoopback', () => {
    for (const text of [
      'https://127.0.0.1/',
      'https://2130706433/', // 127.0.0.1 as one number
      'https://0x7f.1/', // 127.0.0.1 in hex shorthand
      'https://10.0.0.1:8443/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[fd00::1]/',
      'https://[::7f00:1]/',
      'https://0.0.0.0/',
    ])
      expect(checkWebhookUrl(text, false), text).toEqual(refused(PRIVATE))
    expect(checkWebhookUrl('https://127.0.0.1/', true).ok).toBe(true)
    expect(checkWebhookUrl('http://[::1]:9000/', true).ok).toBe(true)
  })
})
