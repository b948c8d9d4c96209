import { type Kysely, SqliteIntrospector } from 'kysely'
import type { Database } from './db.ts'
import type { ApiKeysTable, Schema } from './schema.ts'

export type ApiKeyRow = ApiKeysTable

/** What authenticating a data request needs: the key and its organization's plan. */
export interface ApiKeyWithPlan {
  id: string
  organization_id: string
  scopes: string
  expires_at: number | null
  revoked_at: number | null
  /** Set once the key was rotated: it then expires at the end of its overlap window. */
  replaced_by: string | null
  plan: string
}

export async function insertApiKey(db: Kysely<Schema>, key: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(key).execute()
}

// The generation is read whether or not the key exists: an unknown key is refused from memory
// while the generation it was not found at is the current one (src/api/auth/key-cache.ts).
const KEY_BY_HASH_SQL = `SELECT k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, k.replaced_by, o.plan,
                                g.generation
                           FROM auth_generation g
                                LEFT JOIN api_keys k ON k.key_hash = $1
                                LEFT JOIN organizations o ON o.id = k.organization_id
                          WHERE g.id = 1`

/** A key record (null: no key has that hash) and the authentication generation read in the same statement. */
export interface ApiKeyLookup {
  key: ApiKeyWithPlan | null
  /** `auth_generation` as of the read (decimal text: PostgreSQL returns bigint as text). */
  generation: string
}

/**
 * The key behind a hash, with its organization's plan and the authentication generation, read in
 * one statement on the unique index: the record is exactly as it was at that generation, and a
 * key that is not found was not there at it. It reads committed data only, like the generation
 * each request compares it with (src/store/request-state.ts): a key written by a transaction still
 * open in this process is neither seen nor remembered.
 */
export function createApiKeyLookup(database: Database): (keyHash: string) => Promise<ApiKeyLookup> {
  const byHash = database.committed.prepare(KEY_BY_HASH_SQL, 'api_keys_byHash')
  type Row = { [K in keyof ApiKeyWithPlan]: ApiKeyWithPlan[K] | null } & { generation: number | string }
  return async (keyHash) => {
    const row = await byHash.one<Row>([keyHash])
    // The generation's row always exists (migration 009); without it nothing can be trusted.
    if (!row) throw new Error('auth_generation has no row 1')
    const { generation, ...key } = row
    if (key.id === null || key.plan === null) return { key: null, generation: String(generation) }
    return { key: key as ApiKeyWithPlan, generation: String(generation) }
  }
}

export async function listApiKeys(db: Kysely<Schema>, organizationId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

export async function getApiKey(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
}

/**
 * Revokes a key of the organization. Returns null when no such key belongs to it, otherwise
 * whether this call revoked it: revoking a revoked key succeeds and keeps the first revocation time.
 */
export async function revokeApiKey(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
  now: number,
): Promise<{ revoked: boolean } | null> {
  const key = await getApiKey(db, organizationId, id)
  if (!key) return null
  if (key.revoked_at !== null) return { revoked: false }
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return { revoked: Number(result.numUpdatedRows) === 1 }
}

/**
 * Marks a key as replaced and moves its expiry to the end of its overlap window. Returns false when
 * another request revoked or rotated it first (nothing written).
 */
export async function markApiKeyReplaced(
  db: Kysely<Schema>,
  id: string,
  replacedBy: string,
  expiresAt: number,
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ replaced_by: replacedBy, expires_at: expiresAt })
    .where('id', '=', id)
    .where('replaced_by', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Writes buffered last-use times; a time never moves backwards. */
export async function updateKeysLastUsed(db: Kysely<Schema>, uses: Map<string, number>): Promise<void> {
  if (uses.size === 0) return
  await db.transaction().execute(async (trx) => {
    for (const [id, at] of uses) {
      await trx
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute()
    }
  })
}

/**
 * Holds the organization's row until the caller's transaction ends, so that two requests counting
 * its active keys (a creation under the plan's limit, a revocation of the last key) take turns.
 * On SQLite the store's one connection runs one transaction at a time already.
 */
export async function lockOrganizationKeys(trx: Kysely<Schema>, organizationId: string): Promise<void> {
  if (trx.introspection instanceof SqliteIntrospector) return
  await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute()
}

/**
 * The organization's keys that authenticate at `now`: not revoked, not expired. A rotated key in
 * its overlap counts, unless `notReplaced`: it then ends by itself, and only its replacement lasts.
 */
export async function countActiveApiKeys(
  db: Kysely<Schema>,
  organizationId: string,
  now: number,
  options: { notReplaced?: boolean } = {},
): Promise<number> {
  let query = db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
  if (options.notReplaced) query = query.where('replaced_by', 'is', null)
  const row = await query.executeTakeFirstOrThrow()
  return Number(row.count)
}
