import { createDecipheriv, hkdfSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret } from '../../src/push/webhook-secrets.ts'

const PEPPER = 'a-server-pepper-of-at-least-32-characters!'

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, different each time', () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32)
    expect(newWebhookSecret()).not.toBe(secret)
  })

  it('seal into one text value that opens to the secret, and never contains it', () => {
    const secret = newWebhookSecret()
    const sealed = sealWebhookSecret(secret, PEPPER)
    expect(sealed).toMatch(/^ws1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20))
    expect(openWebhookSecret(sealed, PEPPER)).toBe(secret)
    // A fresh IV each time: two seals of one secret differ, and both open.
    const again = sealWebhookSecret(secret, PEPPER)
    expect(again).not.toBe(sealed)
    expect(openWebhookSecret(again, PEPPER)).toBe(secret)
  })

  it('are AES-256-GCM under HKDF-SHA-256 of the pepper, as the sealed form says', () => {
    const secret = newWebhookSecret()
    const [, iv, tag, ciphertext] = sealWebhookSecret(secret, PEPPER).split('.') as [
      string,
      string,
      string,
      string,
    ]
    // Opened here with node:crypto directly, from the documented derivation.
    const key = Buffer.from(hkdfSync('sha256', PEPPER, '', 'strata webhook secret v1', 32))
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from('ws1'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    const text = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()])
    expect(text.toString('utf8')).toBe(secret)
  })

  it('refuse a tampered value, another pepper, and what is not a sealed value', () => {
    const sealed = sealWebhookSecret(newWebhookSecret(), PEPPER)
    const [version, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string]
    const flipped = Buffer.from(ciphertext, 'base64url')
    flipped[0] = (flipped[0] ?? 0) ^ 1
    expect(() =>
      openWebhookSecret([version, iv, tag, flipped.toString('base64url')].join('.'), PEPPER),
    ).toThrow()
    const badTag = Buffer.from(tag, 'base64url')
    badTag[3] = (badTag[3] ?? 0) ^ 0x80
    expect(() =>
      openWebhookSecret([version, iv, badTag.toString('base64url'), ciphertext].join('.'), PEPPER),
    ).toThrow()
    expect(() => openWebhookSecret(sealed, `${PEPPER}-other`)).toThrow()
    expect(() => openWebhookSecret(`ws2.${iv}.${tag}.${ciphertext}`, PEPPER)).toThrow(/sealed form/)
    expect(() => openWebhookSecret('whsec_plain', PEPPER)).toThrow(/sealed form/)
    expect(() => openWebhookSecret(`${sealed}.extra`, PEPPER)).toThrow(/sealed form/)
  })
})
