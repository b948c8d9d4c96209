import { Type } from 'typebox'
import { DEFAULT_SCOPES, insertAuditedApiKey } from '../../auth/create-api-key.ts'
import { newId } from '../../auth/ids.ts'
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { RESERVED_SLUGS } from '../../org/slug.ts'
import { insertAuditEvent } from '../../store/audit-log.ts'
import { insertOrganization } from '../../store/organizations.ts'
import { getUserByEmail, insertUser, normaliseEmail } from '../../store/users.ts'
import type { App } from '../app-type.ts'
import { DisplayName, Email, errorResponses, KeyCreationResult, Slug } from '../schemas.ts'
import { requireWithinThrottle } from '../throttle.ts'
import { signTokenPair, storeTokenPair, TokenPair } from '../token-pair.ts'

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })

/** The name of the key signup creates. */
export const FIRST_KEY_NAME = 'default'

function slugConflict(slug: string, why: string): AppError {
  return new AppError('conflict', `the organization slug "${slug}" ${why}`, {
    details: [{ field: 'organization_slug', message: `organization_slug "${slug}" ${why}` }],
  })
}

/**
 * The answer to a signup whose email has a user. Signup says so, on purpose (docs/api.md,
 * "Which emails are registered"): the person signing up must learn to log in instead, and with no
 * email round-trip there is nothing else to answer. What bounds the disclosure is the signup
 * throttle, counted per client address before the email is looked up.
 */
function emailTaken(): AppError {
  return new AppError(
    'conflict',
    'a user with this email exists already; log in (POST /v1/auth/login) or sign up with another email',
    { details: [{ field: 'email', message: 'email belongs to an existing user' }] },
  )
}

export function registerSignupRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/auth/signup',
    {
      config: { auth: 'none', idempotent: true, credentials: true },
      // Counted before anything costly: each signup runs argon2, and a request with an
      // Idempotency-Key writes its claim to the store (its retries count too).
      preHandler: async (request) => {
        await requireWithinThrottle(
          ctx,
          [
            {
              subject: `signup-ip:${request.ip}`,
              limit: ctx.config.signupAttemptsPerWindow,
              windowS: ctx.config.signupWindowS,
            },
          ],
          'signups from this address',
        )
      },
      schema: {
        summary: 'Sign up organization',
        description:
          'Creates an organization, its first user and its first API key (`api_key`, shown once), and logs that user in. Throttled per client address, every attempt counted before anything is looked up. An email that has a user is 409 saying so (login does not tell, signup must): the signup throttle bounds how many emails an address can test.',
        tags: ['Account & auth'],
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
            api_key: KeyCreationResult,
          }),
          ...errorResponses(
            'invalid_request',
            'conflict',
            'rate_limited',
            'unsupported_media_type',
            'payload_too_large',
          ),
        },
      },
    },
    async (request, reply) => {
      const { organization_name, organization_slug: slug, email, password } = request.body
      if (RESERVED_SLUGS.has(slug)) throw slugConflict(slug, 'is reserved')
      if (await getUserByEmail(ctx.database.db, email)) throw emailTaken()
      const now = ctx.clock.now()
      const organizationId = newId('org')
      const userId = newId('usr')
      const passwordHash = await hashPassword(password)
      const pair = await signTokenPair(ctx, userId, organizationId, now)
      const key = await ctx.database.db.transaction().execute(async (trx) => {
        const created = await insertOrganization(trx, {
          id: organizationId,
          slug,
          name: organization_name,
          plan: 'free',
          billing_email: normaliseEmail(email),
          created_at: now,
          created_by: 'signup',
          max_plan: 'free',
        })
        if (!created) throw slugConflict(slug, 'is taken')
        const inserted = await insertUser(trx, {
          id: userId,
          organization_id: organizationId,
          email,
          password_hash: passwordHash,
          created_at: now,
        })
        if (!inserted) throw emailTaken()
        const event = { organizationId, at: now, actor: userId, clientIp: request.ip }
        await insertAuditEvent(trx, {
          ...event,
          action: 'organization.created',
          target: organizationId,
          details: { slug },
        })
        await insertAuditEvent(trx, { ...event, action: 'user.created', target: userId })
        const key = await insertAuditedApiKey(trx, ctx.keyPepper, now, {
          organizationId,
          name: FIRST_KEY_NAME,
          scopes: DEFAULT_SCOPES,
          expiresAt: null,
          actor: userId,
          clientIp: request.ip,
        })
        await storeTokenPair(trx, pair, now)
        return key
      })
      return reply.code(201).send({
        organization_id: organizationId,
        organization_slug: slug,
        user_id: userId,
        ...pair.body,
        api_key: {
          organization_id: organizationId,
          organization_slug: slug,
          organization_reused: false,
          api_key_id: key.id,
          key_prefix: key.prefix,
          scopes: key.scopes,
          key: key.key,
          expires_at: null,
        },
      })
    },
  )
}
