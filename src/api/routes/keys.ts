import { Type } from 'typebox'
import { createApiKey, DEFAULT_SCOPES, KNOWN_SCOPES } from '../../auth/create-api-key.ts'
import { CONFIRM_LAST_KEY, createOwnApiKey, revokeOwnApiKey } from '../../auth/own-api-keys.ts'
import { MAX_ROTATION_OVERLAP_S, rotateApiKey } from '../../auth/rotate-api-key.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { PLAN_KEY_LIMIT } from '../../org/plans.ts'
import { named } from '../../protocols/kit/response-schema.ts'
import { listApiKeys } from '../../store/api-keys.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import {
  DisplayName,
  errorResponses,
  KeyCreationResult,
  NullableTimestamp,
  Slug,
  Timestamp,
  toRfc3339,
} from '../schemas.ts'

const Scopes = Type.Array(Type.Literal(KNOWN_SCOPES[0]), {
  maxItems: 16,
  description:
    '`data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing.',
})

/** `{id}` of a key route: the `id` of the key, as GET /v1/org/api-keys lists it. */
const KeyIdParam = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The key id, as GET /v1/org/api-keys lists it',
})

const ApiKeyRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  revoked: Type.Boolean(),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  expires_at: NullableTimestamp,
})
named('ApiKeyRecord', ApiKeyRecord)

const KeyCreationErrors = errorResponses(
  'invalid_request',
  'unauthorized',
  'conflict',
  'unsupported_media_type',
  'payload_too_large',
)

/** An optional `expires_at` as epoch milliseconds: null when absent, 400 unless it is a future time. */
function futureExpiry(expiresAt: string | null | undefined, now: number): number | null {
  if (expiresAt == null) return null
  const at = Date.parse(expiresAt)
  if (Number.isNaN(at) || at <= now) {
    throw new AppError('invalid_request', 'expires_at must be a future RFC 3339 time', {
      details: [{ field: 'expires_at', message: 'must be in the future' }],
    })
  }
  return at
}

export function registerKeyRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/org/api-keys',
    {
      config: { auth: 'admin', idempotent: true, credentials: true },
      schema: {
        summary: 'Create an organization and an API key',
        description:
          'Creates the organization (or reuses the one with this slug, unchanged) and a new key. The `key` value appears only in this response; only its HMAC is stored. A slug taken by self-service signup is 409 unless `reuse_signup_organization` is true.',
        tags: ['API keys'],
        security: [{ admin: [] }],
        body: Type.Object(
          {
            organization_name: DisplayName,
            organization_slug: Slug,
            key_name: DisplayName,
            scopes: Type.Optional(Scopes),
            expires_at: Type.Optional(NullableTimestamp),
            reuse_signup_organization: Type.Optional(
              Type.Boolean({
                description:
                  'Issue the key to the organization someone created by signup with this slug. Without it such a slug is 409: the operator confirms that this organization is the one meant.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: KeyCreationResult, ...KeyCreationErrors },
      },
    },
    async (request, reply) => {
      const body = request.body
      const now = ctx.clock.now()
      const created = await createApiKey(ctx.database.db, ctx.keyPepper, now, {
        organizationName: body.organization_name,
        organizationSlug: body.organization_slug,
        keyName: body.key_name,
        scopes: body.scopes ?? DEFAULT_SCOPES,
        expiresAt: futureExpiry(body.expires_at, now),
        reuseSignupOrganization: body.reuse_signup_organization === true,
        clientIp: request.ip,
      })
      return reply.code(201).send({ ...created, expires_at: toRfc3339(created.expires_at) })
    },
  )

  app.post(
    '/v1/org/api-keys/new',
    {
      config: { auth: 'bearer', idempotent: true, credentials: true },
      schema: {
        summary: 'Create an API key for your organization',
        description: `Creates a key of the caller's organization, named and scoped by the caller. The \`key\` value appears only in this response; only its HMAC is stored. An organization may hold at most ${PLAN_KEY_LIMIT.free} active (neither revoked nor expired) keys on the free plan, ${PLAN_KEY_LIMIT.pro} on pro and ${PLAN_KEY_LIMIT.enterprise} on enterprise: one more is 409, naming the limit and the plan.`,
        tags: ['API keys'],
        security: [{ bearer: [] }],
        body: Type.Object(
          {
            name: DisplayName,
            scopes: Type.Optional(Scopes),
            expires_at: Type.Optional(NullableTimestamp),
          },
          { additionalProperties: false },
        ),
        response: { 201: KeyCreationResult, ...KeyCreationErrors },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const body = request.body
      const now = ctx.clock.now()
      const created = await createOwnApiKey(ctx.database.db, ctx.keyPepper, now, {
        organizationId: caller.organizationId,
        userId: caller.userId,
        name: body.name,
        scopes: body.scopes ?? DEFAULT_SCOPES,
        expiresAt: futureExpiry(body.expires_at, now),
        clientIp: request.ip,
      })
      return reply.code(201).send({ ...created, expires_at: toRfc3339(created.expires_at) })
    },
  )

  app.get(
    '/v1/org/api-keys',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: 'List API keys',
        description:
          "Every key of the caller's organization, newest first. Never the secret: prefix and metadata only.",
        tags: ['API keys'],
        security: [{ bearer: [] }],
        response: { 200: Type.Array(ApiKeyRecord), ...errorResponses('unauthorized') },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const rows = await listApiKeys(ctx.database.db, caller.organizationId)
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        scopes: JSON.parse(row.scopes) as string[],
        revoked: row.revoked_at !== null,
        created_at: toRfc3339(row.created_at),
        last_used_at: toRfc3339(row.last_used_at),
        expires_at: toRfc3339(row.expires_at),
      }))
    },
  )

  app.delete(
    '/v1/org/api-keys/:id',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: 'Revoke an API key',
        description: `The key is refused on every later request. Revoking a revoked key answers 204 again. Revoking the organization's last active key is 409 unless \`confirm=${CONFIRM_LAST_KEY}\` says it is meant: without a key no data request authenticates until a new one is created.`,
        tags: ['API keys'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: KeyIdParam }),
        querystring: Type.Object(
          {
            confirm: Type.Optional(
              Type.Literal(CONFIRM_LAST_KEY, {
                description: `\`${CONFIRM_LAST_KEY}\`: revoke the key even if it is the organization's last active one. Without it that revocation is 409.`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          204: Type.Null(),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'conflict'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const found = await revokeOwnApiKey(ctx.database.db, ctx.clock.now(), {
        organizationId: caller.organizationId,
        keyId: request.params.id,
        userId: caller.userId,
        confirmLastKey: request.query.confirm === CONFIRM_LAST_KEY,
        clientIp: request.ip,
      })
      if (!found) throw new AppError('not_found', `API key ${request.params.id} not found`)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/v1/org/api-keys/:id/rotate',
    {
      config: { auth: 'bearer', idempotent: true, credentials: true },
      schema: {
        summary: 'Rotate an API key',
        description:
          'Creates a new key with the same name, scopes and expiry (shown once) and lets the old key live `old_key_expires_in_seconds` more (default 0: refused at once), never past its own expiry. A revoked, expired or already rotated key is 409.',
        tags: ['API keys'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: KeyIdParam }),
        body: Type.Object(
          {
            old_key_expires_in_seconds: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: MAX_ROTATION_OVERLAP_S,
                default: 0,
                description: 'How long the old key stays valid, in seconds (at most one week)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: KeyCreationResult,
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'not_found',
            'conflict',
            'unsupported_media_type',
          ),
        },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const created = await rotateApiKey(ctx.database.db, ctx.keyPepper, ctx.clock.now(), {
        organizationId: caller.organizationId,
        keyId: request.params.id,
        overlapS: request.body.old_key_expires_in_seconds ?? 0,
        actor: caller.userId,
        clientIp: request.ip,
      })
      return reply.code(201).send({ ...created, expires_at: toRfc3339(created.expires_at) })
    },
  )
}
