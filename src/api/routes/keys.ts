import { Type } from 'typebox'
import { createApiKey, DEFAULT_SCOPES, KNOWN_SCOPES } from '../../auth/create-api-key.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { listApiKeys, revokeApiKey } from '../../store/api-keys.ts'
import type { App } from '../app.ts'
import { requireBearer } from '../caller.ts'
import { DisplayName, errorResponses, NullableTimestamp, Slug, Timestamp, toRfc3339 } from '../schemas.ts'

const Scopes = Type.Array(Type.Literal(KNOWN_SCOPES[0]), {
  maxItems: 16,
  description:
    '`data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing.',
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

export function registerKeyRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/org/api-keys',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Create an organization and an API key',
        description:
          'Creates the organization (or reuses the one with this slug, unchanged) and a new key. The `key` value appears only in this response; only its HMAC is stored.',
        tags: ['api keys'],
        security: [{ admin: [] }],
        body: Type.Object(
          {
            organization_name: DisplayName,
            organization_slug: Slug,
            key_name: DisplayName,
            scopes: Type.Optional(Scopes),
            expires_at: Type.Optional(NullableTimestamp),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            organization_id: Type.String(),
            organization_slug: Type.String(),
            organization_reused: Type.Boolean(),
            api_key_id: Type.String(),
            key_prefix: Type.String(),
            scopes: Type.Array(Type.String()),
            key: Type.String(),
            expires_at: NullableTimestamp,
          }),
          ...errorResponses('invalid_request', 'unauthorized', 'unsupported_media_type', 'payload_too_large'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body
      const now = ctx.clock.now()
      let expiresAt: number | null = null
      if (body.expires_at != null) {
        expiresAt = Date.parse(body.expires_at)
        if (Number.isNaN(expiresAt) || expiresAt <= now) {
          throw new AppError('invalid_request', 'expires_at must be a future RFC 3339 time', {
            details: [{ field: 'expires_at', message: 'must be in the future' }],
          })
        }
      }
      const created = await createApiKey(ctx.database.db, ctx.keyPepper, now, {
        organizationName: body.organization_name,
        organizationSlug: body.organization_slug,
        keyName: body.key_name,
        scopes: body.scopes ?? DEFAULT_SCOPES,
        expiresAt,
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
        tags: ['api keys'],
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
        description: 'The key is refused on every later request. Revoking a revoked key answers 204 again.',
        tags: ['api keys'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 204: Type.Null(), ...errorResponses('unauthorized', 'not_found') },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const found = await revokeApiKey(
        ctx.database.db,
        caller.organizationId,
        request.params.id,
        ctx.clock.now(),
      )
      if (!found) throw new AppError('not_found', `API key ${request.params.id} not found`)
      return reply.code(204).send(null)
    },
  )
}
