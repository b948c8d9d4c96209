import { Type } from 'typebox'
import { newId } from '../../auth/ids.ts'
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../../auth/passwords.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { insertOrganization } from '../../store/organizations.ts'
import {
  getRefreshToken,
  getUser,
  getUserByEmail,
  insertRefreshToken,
  insertUser,
  normaliseEmail,
  revokeRefreshToken,
} from '../../store/users.ts'
import type { App } from '../app.ts'
import { requireBearer } from '../caller.ts'
import { DisplayName, Email, errorResponses, Slug } from '../schemas.ts'

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
const ExpiresIn = Type.Integer({ description: 'Access token lifetime in seconds' })
const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: ExpiresIn,
})

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  const issuePair = async (userId: string, organizationId: string) => {
    const now = ctx.clock.now()
    const claims = { userId, organizationId }
    const access = await ctx.tokens.signAccess(claims, now)
    const refresh = await ctx.tokens.signRefresh(claims, now)
    await insertRefreshToken(ctx.database.db, {
      jti: refresh.jti,
      user_id: userId,
      expires_at: refresh.expiresAt,
      revoked_at: null,
      created_at: now,
    })
    return { access_token: access.token, refresh_token: refresh.token, expires_in: access.expiresIn }
  }

  app.post(
    '/v1/auth/signup',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Sign up organization',
        description: 'Creates an organization and its first user, and logs that user in.',
        tags: ['auth'],
        body: Type.Object(
          { organization_name: DisplayName, organization_slug: Slug, email: Email, password: Password },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            organization_id: Type.String(),
            organization_slug: Type.String(),
            user_id: Type.String(),
            ...TokenPair.properties,
          }),
          ...errorResponses('invalid_request', 'conflict', 'unsupported_media_type', 'payload_too_large'),
        },
      },
    },
    async (request, reply) => {
      const { organization_name, organization_slug, email, password } = request.body
      if (await getUserByEmail(ctx.database.db, email)) {
        throw new AppError('conflict', 'a user with this email exists already')
      }
      const now = ctx.clock.now()
      const organizationId = newId('org')
      const userId = newId('usr')
      const passwordHash = await hashPassword(password)
      await ctx.database.db.transaction().execute(async (trx) => {
        const created = await insertOrganization(trx, {
          id: organizationId,
          slug: organization_slug,
          name: organization_name,
          plan: 'free',
          billing_email: normaliseEmail(email),
          created_at: now,
        })
        if (!created)
          throw new AppError('conflict', `an organization with slug "${organization_slug}" exists already`)
        const inserted = await insertUser(trx, {
          id: userId,
          organization_id: organizationId,
          email,
          password_hash: passwordHash,
          created_at: now,
        })
        if (!inserted) throw new AppError('conflict', 'a user with this email exists already')
      })
      const pair = await issuePair(userId, organizationId)
      return reply
        .code(201)
        .send({ organization_id: organizationId, organization_slug, user_id: userId, ...pair })
    },
  )

  app.post(
    '/v1/auth/login',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Log in',
        description: 'Exchanges an email and password for an access token and a refresh token.',
        tags: ['auth'],
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
      const perEmail = await ctx.rateLimiter.consume(
        `login:${normaliseEmail(email)}`,
        ctx.config.loginAttemptsPerWindow,
        window,
      )
      const perClient = await ctx.rateLimiter.consume(
        `login-ip:${request.ip}`,
        ctx.config.loginAttemptsPerWindow * 10,
        window,
      )
      for (const decision of [perEmail, perClient]) {
        if (!decision.allowed) {
          throw new AppError('rate_limited', 'too many login attempts; try again later', {
            headers: { 'retry-after': String(decision.resetS) },
          })
        }
      }
      const user = await getUserByEmail(ctx.database.db, email)
      const valid = await verifyPassword(user?.password_hash ?? null, password)
      if (!user || !valid) throw new AppError('unauthorized', 'the email or password is incorrect')
      return issuePair(user.id, user.organization_id)
    },
  )

  app.post(
    '/v1/auth/refresh',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Refresh an access token',
        description: 'Exchanges a valid refresh token for a new access token without logging in again.',
        tags: ['auth'],
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
        description:
          'Revokes the given refresh token of the calling user. Revoking it twice is not an error.',
        tags: ['auth'],
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
      await revokeRefreshToken(ctx.database.db, claims.jti, caller.userId, ctx.clock.now())
      return reply.code(204).send(null)
    },
  )
}
