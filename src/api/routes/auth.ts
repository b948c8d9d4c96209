import { Type } from 'typebox'
import { PASSWORD_MAX_LENGTH, verifyPassword } from '../../auth/passwords.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { insertAuditEvent } from '../../store/audit-log.ts'
import {
  getRefreshToken,
  getUser,
  getUserByEmail,
  normaliseEmail,
  revokeRefreshToken,
} from '../../store/users.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import { errorResponses } from '../schemas.ts'
import { requireWithinThrottle } from '../throttle.ts'
import { ExpiresIn, signTokenPair, storeTokenPair, TokenPair } from '../token-pair.ts'

/**
 * What logout does not do, said where clients read: access tokens are verified by signature
 * alone (no store read on a management request), so one issued before the logout keeps working
 * until it expires. Its lifetime is ACCESS_TOKEN_TTL_S (15 minutes by default).
 */
export const ACCESS_TOKEN_AFTER_LOGOUT =
  'Access tokens are not revoked: one already issued stays valid until its `exp` (`expires_in` of login and refresh, 900 s by default), so a client discards it when it logs out.'

/** Login, refresh and logout. Signup is in signup.ts. */
export function registerAuthRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/auth/login',
    {
      config: { auth: 'none', credentials: true },
      schema: {
        summary: 'Log in',
        description: 'Exchanges an email and password for an access token and a refresh token.',
        tags: ['Account & auth'],
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 254 }),
            password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: TokenPair,
          ...errorResponses('invalid_request', 'unauthorized', 'rate_limited', 'unsupported_media_type'),
        },
      },
    },
    async (request) => {
      const { email, password } = request.body
      const window = ctx.config.loginWindowS
      await requireWithinThrottle(
        ctx,
        [
          {
            subject: `login:${normaliseEmail(email)}`,
            limit: ctx.config.loginAttemptsPerWindow,
            windowS: window,
          },
          {
            subject: `login-ip:${request.ip}`,
            limit: ctx.config.loginAttemptsPerWindow * 10,
            windowS: window,
          },
        ],
        'login attempts',
      )
      const user = await getUserByEmail(ctx.database.db, email)
      const valid = await verifyPassword(user?.password_hash ?? null, password)
      const now = ctx.clock.now()
      if (!user || !valid) {
        // An unknown email belongs to no organization: nothing to record (see docs/api.md).
        if (user) {
          await insertAuditEvent(ctx.database.db, {
            organizationId: user.organization_id,
            at: now,
            action: 'user.login_failed',
            actor: null,
            target: user.id,
            clientIp: request.ip,
          })
        }
        throw new AppError('unauthorized', 'the email or password is incorrect')
      }
      const pair = await signTokenPair(ctx, user.id, user.organization_id, now)
      await ctx.database.db.transaction().execute(async (trx) => {
        await storeTokenPair(trx, pair, now)
        await insertAuditEvent(trx, {
          organizationId: user.organization_id,
          at: now,
          action: 'user.login',
          actor: user.id,
          target: user.id,
          clientIp: request.ip,
        })
      })
      return pair.body
    },
  )

  app.post(
    '/v1/auth/refresh',
    {
      config: { auth: 'none', credentials: true },
      schema: {
        summary: 'Refresh an access token',
        description: 'Exchanges a valid refresh token for a new access token without logging in again.',
        tags: ['Account & auth'],
        body: Type.Object(
          { refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ access_token: Type.String(), expires_in: ExpiresIn }),
          ...errorResponses('invalid_request', 'unauthorized', 'unsupported_media_type'),
        },
      },
    },
    async (request) => {
      const now = ctx.clock.now()
      const claims = await ctx.tokens.verifyRefresh(request.body.refresh_token, now)
      if (!claims) throw new AppError('unauthorized', 'the refresh token is invalid or expired')
      const stored = await getRefreshToken(ctx.database.db, claims.jti)
      if (
        !stored ||
        stored.revoked_at !== null ||
        stored.expires_at <= now ||
        stored.user_id !== claims.userId
      ) {
        throw new AppError('unauthorized', 'the refresh token has been revoked')
      }
      const user = await getUser(ctx.database.db, claims.userId)
      if (!user) throw new AppError('unauthorized', 'the refresh token is invalid or expired')
      const access = await ctx.tokens.signAccess(
        { userId: user.id, organizationId: user.organization_id },
        now,
      )
      return { access_token: access.token, expires_in: access.expiresIn }
    },
  )

  app.post(
    '/v1/auth/logout',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: 'Log out',
        description: `Revokes the given refresh token of the calling user: it refreshes nothing from then on. Revoking it twice is not an error. ${ACCESS_TOKEN_AFTER_LOGOUT}`,
        tags: ['Account & auth'],
        security: [{ bearer: [] }],
        body: Type.Object(
          { refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) },
          { additionalProperties: false },
        ),
        response: {
          204: Type.Null(),
          ...errorResponses('invalid_request', 'unauthorized', 'unsupported_media_type'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const claims = await ctx.tokens.verifyRefresh(request.body.refresh_token, ctx.clock.now())
      if (!claims || claims.userId !== caller.userId) {
        throw new AppError('unauthorized', 'the refresh token is invalid or belongs to another user')
      }
      const now = ctx.clock.now()
      await ctx.database.db.transaction().execute(async (trx) => {
        // Revoking a revoked token changes nothing, so it records nothing.
        if (!(await revokeRefreshToken(trx, claims.jti, caller.userId, now))) return
        await insertAuditEvent(trx, {
          organizationId: caller.organizationId,
          at: now,
          action: 'user.logout',
          actor: caller.userId,
          target: caller.userId,
          clientIp: request.ip,
        })
      })
      return reply.code(204).send(null)
    },
  )
}
