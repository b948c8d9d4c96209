import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Schema } from './schema.ts'

/**
 * A server secret kept in the database when the operator did not configure one, so that every
 * instance sharing the database agrees on it and restarts keep tokens and keys valid.
 */
/** The configured secret, or else the one kept in the database under `name`. */
export function resolveSecret(
  db: Kysely<Schema>,
  configured: string | null,
  name: 'jwt_secret' | 'key_pepper',
): Promise<string> {
  return configured === null ? loadOrCreateSecret(db, name) : Promise.resolve(configured)
}

export async function loadOrCreateSecret(db: Kysely<Schema>, name: string): Promise<string> {
  const candidate = randomBytes(48).toString('base64url')
  await db
    .insertInto('server_secrets')
    .values({ name, value: candidate })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
  return row.value
}
