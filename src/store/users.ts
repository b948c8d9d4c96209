import type { Kysely } from 'kysely'
import type { RefreshTokensTable, Schema, UsersTable } from './schema.ts'

export type User = UsersTable

/** Emails are compared case-insensitively: they are stored lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export async function getUserByEmail(db: Kysely<Schema>, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst()
}

export async function getUser(db: Kysely<Schema>, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Inserts the user; returns false when the email is taken (nothing written). */
export async function insertUser(db: Kysely<Schema>, user: User): Promise<boolean> {
  const result = await db
    .insertInto('users')
    .values({ ...user, email: normaliseEmail(user.email) })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
}

export async function insertRefreshToken(db: Kysely<Schema>, token: RefreshTokensTable): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute()
}

export async function getRefreshToken(
  db: Kysely<Schema>,
  jti: string,
): Promise<RefreshTokensTable | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('jti', '=', jti).executeTakeFirst()
}

/**
 * Revokes one refresh token of the user; a token already revoked keeps its first revocation time.
 * Returns whether this call revoked it.
 */
export async function revokeRefreshToken(
  db: Kysely<Schema>,
  jti: string,
  userId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('jti', '=', jti)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
