import type { Kysely } from 'kysely'
import { AppError } from '../errors.ts'
import { insertApiKey } from '../store/api-keys.ts'
import { type AuditDetails, insertAuditEvent } from '../store/audit-log.ts'
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
  /**
   * The operator means the organization someone created by signup with this slug. Without it,
   * such a slug is a 409: the operator may be issuing a key "for acme" to whoever signed up first.
   */
  reuseSignupOrganization?: boolean
  /** The address the operator called from (HTTP), for the audit log; null from the CLI. */
  clientIp?: string | null
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

/** A new key of an organization, as inserted: the secret is in `key`, only its HMAC is stored. */
export interface NewApiKey {
  id: string
  key: string
  prefix: string
  scopes: string[]
  expiresAt: number | null
}

/** Inserts a new key for an existing organization, inside the caller's transaction. */
export async function insertNewApiKey(
  trx: Kysely<Schema>,
  pepper: string,
  now: number,
  input: { organizationId: string; name: string; scopes: string[]; expiresAt: number | null },
): Promise<NewApiKey> {
  const key = generateApiKey()
  const id = newId('key')
  const scopes = [...new Set(input.scopes)]
  await insertApiKey(trx, {
    id,
    organization_id: input.organizationId,
    name: input.name,
    prefix: keyPrefixOf(key),
    key_hash: hashApiKey(pepper, key),
    scopes: JSON.stringify(scopes),
    created_at: now,
    last_used_at: null,
    expires_at: input.expiresAt,
    revoked_at: null,
    replaced_by: null,
  })
  return { id, key, prefix: keyPrefixOf(key), scopes, expiresAt: input.expiresAt }
}

/**
 * A new key and its `api_key.created` audit event, in the caller's transaction: every creation
 * (the operator's, signup's first key, a member's own) records it the same way.
 */
export async function insertAuditedApiKey(
  trx: Kysely<Schema>,
  pepper: string,
  now: number,
  input: {
    organizationId: string
    name: string
    scopes: string[]
    expiresAt: number | null
    actor: string
    clientIp: string | null
  },
): Promise<NewApiKey> {
  const key = await insertNewApiKey(trx, pepper, now, input)
  await insertAuditEvent(trx, {
    organizationId: input.organizationId,
    at: now,
    action: 'api_key.created',
    actor: input.actor,
    target: key.id,
    clientIp: input.clientIp,
    details: keyDetails(key, input.name),
  })
  return key
}

/** The answer to every key creation (admin, self-service, rotation): the secret, shown this once. */
export function createdApiKey(
  organization: { id: string; slug: string },
  key: NewApiKey,
  organizationReused: boolean,
): CreatedApiKey {
  return {
    organization_id: organization.id,
    organization_slug: organization.slug,
    organization_reused: organizationReused,
    api_key_id: key.id,
    key_prefix: key.prefix,
    scopes: key.scopes,
    key: key.key,
    expires_at: key.expiresAt,
  }
}

/** The audit details of a new key: what identifies it in a listing. */
export function keyDetails(key: NewApiKey, name: string): AuditDetails {
  return { name, key_prefix: key.prefix, scopes: [...key.scopes] }
}

/**
 * The operator's key creation (admin endpoint, `strata create-key`, the demo): creates the
 * organization, or reuses the one with the slug as it is (its name is not changed). A slug taken
 * by signup is reused only when the input says so. Both are audited with the actor `admin`.
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
      created_by: 'admin',
      max_plan: 'free',
    })
    const org = created
      ? { id: candidateId, created_by: 'admin' }
      : await getOrganizationBySlug(trx, input.organizationSlug)
    if (!org) throw new Error(`organization ${input.organizationSlug} vanished during key creation`)
    if (!created && org.created_by === 'signup' && input.reuseSignupOrganization !== true) {
      const slug = input.organizationSlug
      const optIn = 'set reuse_signup_organization (strata create-key: --reuse-signup-org) if you mean it'
      throw new AppError(
        'conflict',
        `organization "${slug}" was created by self-service signup, not by an operator; ${optIn}`,
        {
          details: [
            {
              field: 'organization_slug',
              message: `organization_slug "${slug}" belongs to an organization created by self-service signup; ${optIn}`,
            },
          ],
        },
      )
    }
    const clientIp = input.clientIp ?? null
    if (created) {
      await insertAuditEvent(trx, {
        organizationId: org.id,
        at: now,
        action: 'organization.created',
        actor: 'admin',
        target: org.id,
        clientIp,
        details: { slug: input.organizationSlug },
      })
    }
    const key = await insertAuditedApiKey(trx, pepper, now, {
      organizationId: org.id,
      name: input.keyName,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      actor: 'admin',
      clientIp,
    })
    return createdApiKey({ id: org.id, slug: input.organizationSlug }, key, !created)
  })
}
