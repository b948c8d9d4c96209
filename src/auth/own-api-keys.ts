import type { Kysely } from 'kysely'
import { AppError } from '../errors.ts'
import { keyLimitOf } from '../org/plans.ts'
import { countActiveApiKeys, getApiKey, lockOrganizationKeys, revokeApiKey } from '../store/api-keys.ts'
import { insertAuditEvent } from '../store/audit-log.ts'
import { getOrganization } from '../store/organizations.ts'
import type { Schema } from '../store/schema.ts'
import { type CreatedApiKey, createdApiKey, insertAuditedApiKey } from './create-api-key.ts'

/** The value of `confirm` that lets a member revoke the organization's last active key. */
export const CONFIRM_LAST_KEY = 'last_key'

export interface CreateOwnApiKeyInput {
  organizationId: string
  /** The member creating it, the audit event's actor. */
  userId: string
  name: string
  scopes: string[]
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null
  clientIp: string | null
}

/**
 * A member's key for their own organization, within the plan's limit of active keys
 * (`PLAN_KEY_LIMIT`): over it, 409 `conflict` naming the limit and the plan. One transaction
 * counts, inserts and records `api_key.created` with the member as actor; the organization's row
 * is held meanwhile, so two creations cannot both take the last place.
 */
export async function createOwnApiKey(
  db: Kysely<Schema>,
  pepper: string,
  now: number,
  input: CreateOwnApiKeyInput,
): Promise<CreatedApiKey> {
  return db.transaction().execute(async (trx) => {
    await lockOrganizationKeys(trx, input.organizationId)
    const org = await getOrganization(trx, input.organizationId)
    if (!org) throw new AppError('unauthorized', 'the organization of this token no longer exists')
    const limit = keyLimitOf(org.plan)
    const active = await countActiveApiKeys(trx, org.id, now)
    if (active >= limit) {
      throw new AppError(
        'conflict',
        `the ${org.plan} plan allows ${limit} active API keys and this organization has ${active}; revoke one or change plan first`,
      )
    }
    const key = await insertAuditedApiKey(trx, pepper, now, {
      organizationId: org.id,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      actor: input.userId,
      clientIp: input.clientIp,
    })
    return createdApiKey(org, key, true)
  })
}

export interface RevokeOwnApiKeyInput {
  organizationId: string
  keyId: string
  userId: string
  /** The request said `confirm=last_key`: revoking the last active key is meant. */
  confirmLastKey: boolean
  clientIp: string | null
}

/**
 * Revokes a key of the member's organization and records `api_key.revoked`. Revoking the
 * organization's last active key (a key rotated out, in its overlap, does not count: it ends by
 * itself) (no data request would authenticate until a member or the
 * operator creates another) is 409 `conflict` unless confirmed. A revoked key revoked again changes
 * and records nothing. Returns false when the organization has no such key.
 */
export async function revokeOwnApiKey(
  db: Kysely<Schema>,
  now: number,
  input: RevokeOwnApiKeyInput,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockOrganizationKeys(trx, input.organizationId)
    const key = await getApiKey(trx, input.organizationId, input.keyId)
    if (!key) return false
    // A key rotated out ends by itself, so revoking it loses nothing, and it is no reason to let
    // its replacement go unconfirmed: what is counted are the keys that last.
    const lasting =
      key.revoked_at === null && key.replaced_by === null && (key.expires_at === null || key.expires_at > now)
    if (
      lasting &&
      !input.confirmLastKey &&
      (await countActiveApiKeys(trx, input.organizationId, now, { notReplaced: true })) <= 1
    ) {
      throw new AppError(
        'conflict',
        `API key ${key.id} is the organization's last active key: without it no data request authenticates until a new key is created; repeat with confirm=${CONFIRM_LAST_KEY} if you mean it`,
        {
          details: [
            {
              field: 'confirm',
              message: `confirm must be ${CONFIRM_LAST_KEY} to revoke the last active key`,
            },
          ],
        },
      )
    }
    const outcome = await revokeApiKey(trx, input.organizationId, key.id, now)
    // Revoking a revoked key changes nothing, so it records nothing.
    if (outcome?.revoked) {
      await insertAuditEvent(trx, {
        organizationId: input.organizationId,
        at: now,
        action: 'api_key.revoked',
        actor: input.userId,
        target: key.id,
        clientIp: input.clientIp,
      })
    }
    return outcome !== null
  })
}
