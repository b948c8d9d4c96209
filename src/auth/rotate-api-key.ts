import type { Kysely } from 'kysely'
import { AppError } from '../errors.ts'
import { getApiKey, markApiKeyReplaced } from '../store/api-keys.ts'
import { insertAuditEvent } from '../store/audit-log.ts'
import { getOrganization } from '../store/organizations.ts'
import type { Schema } from '../store/schema.ts'
import { type CreatedApiKey, createdApiKey, insertNewApiKey, keyDetails } from './create-api-key.ts'

/** The longest the old key may stay valid after a rotation: one week, as Stripe's roll allows. */
export const MAX_ROTATION_OVERLAP_S = 604_800

export interface RotateApiKeyInput {
  organizationId: string
  keyId: string
  /** How long the old key stays valid, 0 (refused at once) to MAX_ROTATION_OVERLAP_S. */
  overlapS: number
  actor: string
  clientIp: string | null
}

/**
 * Rolls a key: a new key with the same name, scopes and expiry, and the old one valid for
 * `overlapS` more seconds (never past its own expiry), then refused. One transaction writes the
 * new key, the old key's new expiry and the audit event.
 */
export async function rotateApiKey(
  db: Kysely<Schema>,
  pepper: string,
  now: number,
  input: RotateApiKeyInput,
): Promise<CreatedApiKey> {
  return db.transaction().execute(async (trx) => {
    const old = await getApiKey(trx, input.organizationId, input.keyId)
    if (!old) throw new AppError('not_found', `API key ${input.keyId} not found`)
    if (old.revoked_at !== null) {
      throw new AppError('conflict', `API key ${old.id} is revoked; a revoked key cannot be rotated`)
    }
    if (old.replaced_by !== null) {
      throw new AppError(
        'conflict',
        `API key ${old.id} was rotated already and replaced by ${old.replaced_by}; rotate that key instead`,
      )
    }
    if (old.expires_at !== null && old.expires_at <= now) {
      throw new AppError('conflict', `API key ${old.id} has expired; an expired key cannot be rotated`)
    }
    const org = await getOrganization(trx, input.organizationId)
    if (!org) throw new AppError('unauthorized', 'the organization of this token no longer exists')
    const scopes = JSON.parse(old.scopes) as string[]
    // The new key keeps the old one's expiry: an expiry is the operator's decision, and a roll
    // must not turn a key meant to end into one that never does.
    const key = await insertNewApiKey(trx, pepper, now, {
      organizationId: org.id,
      name: old.name,
      scopes,
      expiresAt: old.expires_at,
    })
    const windowEnd = now + input.overlapS * 1000
    const oldExpiresAt = old.expires_at === null ? windowEnd : Math.min(old.expires_at, windowEnd)
    if (!(await markApiKeyReplaced(trx, old.id, key.id, oldExpiresAt))) {
      throw new AppError('conflict', `API key ${old.id} was revoked or rotated by another request`)
    }
    await insertAuditEvent(trx, {
      organizationId: org.id,
      at: now,
      action: 'api_key.rotated',
      actor: input.actor,
      target: old.id,
      clientIp: input.clientIp,
      details: {
        ...keyDetails(key, old.name),
        new_key_id: key.id,
        old_key_expires_at: new Date(oldExpiresAt).toISOString(),
      },
    })
    return createdApiKey(org, key, true)
  })
}
