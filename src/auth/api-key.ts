import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto'
import { crc32 } from 'node:zlib'

/**
 * API keys look like `strata_<43 base62 chars of 32 random bytes><6 base62 chars of CRC32>`,
 * GitHub style: the prefix makes a leaked key recognisable and the checksum lets scanners (and the
 * server, before any database read) reject a mistyped or invented key offline.
 */
export const API_KEY_PREFIX = 'strata_'
const BODY_LENGTH = 43
const CHECKSUM_LENGTH = 6
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH
/** How many leading characters of a key are shown in listings. */
export const KEY_PREFIX_LENGTH = 12

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`)

function encodeBase62(value: bigint, width: number): string {
  let out = ''
  let rest = value
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)] + out
    rest /= 62n
  }
  return out.padStart(width, '0')
}

function checksumOf(body: string): string {
  return encodeBase62(BigInt(crc32(`${API_KEY_PREFIX}${body}`)), CHECKSUM_LENGTH)
}

/** A new random API key (256 bits of entropy). */
export function generateApiKey(): string {
  const body = encodeBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH)
  return `${API_KEY_PREFIX}${body}${checksumOf(body)}`
}

/** True when the value has the key format and its checksum matches. */
export function isWellFormedApiKey(value: string): boolean {
  if (!KEY_PATTERN.test(value)) return false
  const body = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH)
  const checksum = value.slice(API_KEY_PREFIX.length + BODY_LENGTH)
  return checksumOf(body) === checksum
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH)
}

const pepperKeys = new Map<string, KeyObject>()

/** What is stored: HMAC-SHA-256 of the key under the server pepper, hex. Lookup is by this value. */
export function hashApiKey(pepper: string, key: string): string {
  // The pepper's KeyObject is made once: importing the secret on every request costs as much as the MAC.
  let secret = pepperKeys.get(pepper)
  if (!secret) {
    secret = createSecretKey(Buffer.from(pepper, 'utf8'))
    pepperKeys.set(pepper, secret)
  }
  return createHmac('sha256', secret).update(key).digest('hex')
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  const left = createHmac('sha256', 'compare').update(a).digest()
  const right = createHmac('sha256', 'compare').update(b).digest()
  return timingSafeEqual(left, right)
}
