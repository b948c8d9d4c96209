/**
 * Whether a text is a Stellar account (G…) or contract (C…) address, checked as StrKey defines it:
 * 56 base32 characters encoding a version byte, 32 bytes and a CRC16-XModem checksum. Answers the
 * problem in words, or null when the address is well formed.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const VERSIONS: Record<string, number> = { G: 6 << 3, C: 2 << 3 }

function base32Decode(text: string): Uint8Array | null {
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of text) {
    const value = ALPHABET.indexOf(char)
    if (value < 0) return null
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  return Uint8Array.from(bytes)
}

function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

export function addressProblem(input: string): string | null {
  const text = input.trim()
  if (text === '') return 'Enter an address: an account (G…) or a contract (C…).'
  const first = text[0] ?? ''
  if (!(first in VERSIONS)) return 'An address starts with G (an account) or C (a contract).'
  if (text.length !== 56) return `An address has 56 characters; this one has ${text.length}.`
  if (!/^[A-Z2-7]+$/.test(text)) return 'An address uses only capital letters A to Z and digits 2 to 7.'
  const bytes = base32Decode(text)
  if (bytes?.length !== 35 || bytes[0] !== VERSIONS[first]) {
    return 'This is not a valid address: its first characters do not encode an account or a contract.'
  }
  const expected = crc16Xmodem(bytes.subarray(0, 33))
  const stated = (bytes[33] ?? 0) | ((bytes[34] ?? 0) << 8)
  if (expected !== stated) return 'This address has a typing error: its checksum does not match.'
  return null
}
