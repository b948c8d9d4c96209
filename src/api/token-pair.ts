import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { AppContext } from '../context.ts'
import type { Schema } from '../store/schema.ts'
import { insertRefreshToken } from '../store/users.ts'

export const ExpiresIn = Type.Integer({ description: 'Access token lifetime in seconds' })
export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: ExpiresIn,
})

/** A signed access and refresh token; the refresh token's id is stored by `storeTokenPair`. */
export interface SignedPair {
  body: { access_token: string; refresh_token: string; expires_in: number }
  jti: string
  expiresAt: number
  userId: string
}

/** Signs a token pair (no I/O), so the caller can store it inside its own transaction. */
export async function signTokenPair(
  ctx: AppContext,
  userId: string,
  organizationId: string,
  now: number,
): Promise<SignedPair> {
  const claims = { userId, organizationId }
  const access = await ctx.tokens.signAccess(claims, now)
  const refresh = await ctx.tokens.signRefresh(claims, now)
  return {
    body: { access_token: access.token, refresh_token: refresh.token, expires_in: access.expiresIn },
    jti: refresh.jti,
    expiresAt: refresh.expiresAt,
    userId,
  }
}

/** Records the refresh token's id, which refresh and logout check. */
export async function storeTokenPair(trx: Kysely<Schema>, pair: SignedPair, now: number): Promise<void> {
  await insertRefreshToken(trx, {
    jti: pair.jti,
    user_id: pair.userId,
    expires_at: pair.expiresAt,
    revoked_at: null,
    created_at: now,
  })
}
