import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * A webhook subscription's signing secret: made here, shown to its organization once (at creation
 * and at each rotation), and stored only sealed (AES-256-GCM under a key derived by HKDF-SHA-256
 * from the server's key pepper), so a copy of the database alone signs nothing. The sender opens
 * it to sign each delivery.
 */

/** The prefix of a Standard Webhooks secret: `whsec_` then the base64 of the key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/** The sealed form's version: the first dot-separated part of every stored secret. */
const SEALED_VERSION = 'ws1'

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

/** The sealing key of each pepper, derived once: the pepper does not change while a server runs. */
const sealingKeys = new Map<string, Buffer>()

function sealingKeyOf(pepper: string): Buffer {
  let key = sealingKeys.get(pepper)
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', pepper, '', 'strata webhook secret v1', 32))
    sealingKeys.set(pepper, key)
  }
  return key
}

/** `secret` sealed under the pepper: `ws1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealWebhookSecret(secret: string, pepper: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealingKeyOf(pepper), iv)
  cipher.setAAD(Buffer.from(SEALED_VERSION))
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return [SEALED_VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/**
 * The secret a `sealWebhookSecret` value holds. Throws when the value is not in the sealed form,
 * was altered, or was sealed under another pepper (the GCM tag does not verify).
 */
export function openWebhookSecret(sealed: string, pepper: string): string {
  const [version, iv, tag, ciphertext, extra] = sealed.split('.')
  if (version !== SEALED_VERSION || !iv || !tag || ciphertext === undefined || extra !== undefined) {
    throw new Error(`a stored webhook secret is not in the ${SEALED_VERSION} sealed form`)
  }
  const decipher = createDecipheriv('aes-256-gcm', sealingKeyOf(pepper), Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(SEALED_VERSION))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  const text = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()])
  return text.toString('utf8')
}
