import type { Kysely } from 'kysely'
import { insertApiKey } from '../store/api-keys.ts'
import { getOrganizationBySlug, insertOrganization } from '../store/organizations.ts'
import type { Schema } from '../store/schema.ts'
import { generateApiKey, hashApiKey, keyPrefixOf } from './api-key.ts'
import { newId } from './ids.ts'

export const KNOWN_SCOPES = ['data:read'] as const
export const DEFAULT_SCOPES = ['data:read']

export interface CreateApiKeyInput {
  organizationName: string
  organizationSlug: string
  keyName: string
  scopes: string[]
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null
}

/** The key creation result of the spec; `key` is the only time the secret is ever shown. */
export interface CreatedApiKey {
  organization_id: string
  organization_slug: string
  organization_reused: boolean
  api_key_id: string
  key_prefix: string
  scopes: string[]
  key: string
  expires_at: number | null
}

/**
 * Creates a key, and its organization unless one with the slug exists (then that one is reused
 * as it is: its name is not changed). Only the key's HMAC is stored.
 */
export async function createApiKey(
  db: Kysely<Schema>,
  pepper: string,
  now: number,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  return db.transaction().execute(async (trx) => {
    const candidateId = newId('org')
    const created = await insertOrganization(trx, {
      id: candidateId,
      slug: input.organizationSlug,
      name: input.organizationName,
      plan: 'free',
      billing_email: null,
      created_at: now,
    })
    const org = created ? { id: candidateId } : await getOrganizationBySlug(trx, input.organizationSlug)
    if (!org) throw new Error(`organization ${input.organizationSlug} vanished during key creation`)
    const key = generateApiKey()
    const id = newId('key')
    const scopes = [...new Set(input.scopes)]
    await insertApiKey(trx, {
      id,
      organization_id: org.id,
      name: input.keyName,
      prefix: keyPrefixOf(key),
      key_hash: hashApiKey(pepper, key),
      scopes: JSON.stringify(scopes),
      created_at: now,
      last_used_at: null,
      expires_at: input.expiresAt,
      revoked_at: null,
    })
    return {
      organization_id: org.id,
      organization_slug: input.organizationSlug,
      organization_reused: !created,
      api_key_id: id,
      key_prefix: keyPrefixOf(key),
      scopes,
      key,
      expires_at: input.expiresAt,
    }
  })
}
