import { Type } from 'typebox'
import { newId } from '../../auth/ids.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { PLAN_WEBHOOK_LIMIT, webhookAddressLimitOf, webhookLimitOf } from '../../org/plans.ts'
import { newWebhookSecret, sealWebhookSecret } from '../../push/webhook-secrets.ts'
import { insertAuditEvent } from '../../store/audit-log.ts'
import { getOrganization } from '../../store/organizations.ts'
import {
  countWebhooks,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookMessages,
  listWebhooks,
  lockOrganizationWebhooks,
  PREVIOUS_SECRET_OVERLAP_MS,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookChanges,
} from '../../store/webhooks.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import { invalidCursor, PageCursor, PageLimit, PageMeta, parsePageLimit } from '../params.ts'
import { errorResponses, toRfc3339 } from '../schemas.ts'
import {
  CreateBody,
  checkSubscription,
  DISABLED_BY_MEMBER,
  deliveryAnswer,
  MessageStatusFilter,
  UpdateBody,
  WEBHOOK_BODY_LIMIT,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookIdParam,
  WebhookSecretRotated,
  webhookAnswer,
} from '../webhook-schemas.ts'

/** Opaque to clients: where the next page of a list starts. */
const encodeCursor = (text: string) => Buffer.from(text).toString('base64url')
const decodedCursor = (cursor: string, pattern: RegExp) => {
  const match = pattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match) throw invalidCursor()
  return match
}

const notFound = (id: string) => new AppError('not_found', `webhook ${id} not found`)

const WriteErrors = ['invalid_request', 'invalid_address', 'unauthorized', 'unsupported_media_type'] as const

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db
  const bodyLimit = Math.max(WEBHOOK_BODY_LIMIT, ctx.config.bodyLimitBytes)
  const allowLoopback = ctx.config.webhooksAllowLoopback

  /** The caller's organization's plan, inside `trx`; a token outliving its organization is 401. */
  const planOf = async (trx: typeof db, organizationId: string): Promise<string> => {
    const org = await getOrganization(trx, organizationId)
    if (!org) throw new AppError('unauthorized', 'the organization of this token no longer exists')
    return org.plan
  }

  app.post(
    '/v1/webhooks',
    {
      bodyLimit,
      config: { auth: 'bearer', idempotent: true, credentials: true },
      schema: {
        operationId: 'createWebhook',
        summary: 'Create a webhook subscription',
        description: `Subscribes an https endpoint to the events of the accounts and protocols it names. The signing secret (\`secret\`) appears only in this response and in a rotation's; it is stored sealed. An organization may hold at most ${PLAN_WEBHOOK_LIMIT.free} subscriptions on the free plan, ${PLAN_WEBHOOK_LIMIT.pro} on pro and ${PLAN_WEBHOOK_LIMIT.enterprise} on enterprise: one more is 409, naming the limit and the plan.`,
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        body: CreateBody,
        response: {
          201: WebhookCreated,
          ...errorResponses(...WriteErrors, 'conflict', 'payload_too_large'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const body = request.body
      const now = ctx.clock.now()
      const secret = newWebhookSecret()
      const row = await db.transaction().execute(async (trx) => {
        await lockOrganizationWebhooks(trx, caller.organizationId)
        const plan = await planOf(trx, caller.organizationId)
        const input = checkSubscription(
          {
            url: body.url,
            events: body.events,
            addresses: body.addresses ?? null,
            protocols: body.protocols ?? null,
            health_factor_threshold: body.health_factor_threshold ?? null,
          },
          { allowLoopback, addressLimit: webhookAddressLimitOf(plan), plan },
        )
        const limit = webhookLimitOf(plan)
        const held = await countWebhooks(trx, caller.organizationId)
        if (held >= limit) {
          throw new AppError(
            'conflict',
            `the ${plan} plan allows ${limit} webhook subscriptions and this organization has ${held}; delete one or change plan first`,
          )
        }
        const created = await createWebhook(trx, {
          id: newId('wh'),
          organizationId: caller.organizationId,
          url: input.url,
          description: body.description ?? null,
          events: input.events,
          addresses: input.addresses,
          protocols: input.protocols,
          healthFactorThreshold: input.health_factor_threshold,
          sealedSecret: sealWebhookSecret(secret, ctx.keyPepper),
          now,
        })
        await insertAuditEvent(trx, {
          organizationId: caller.organizationId,
          at: now,
          action: 'webhook.created',
          actor: caller.userId,
          target: created.id,
          clientIp: request.ip,
        })
        return created
      })
      return reply.code(201).send({ ...webhookAnswer(row), secret })
    },
  )

  app.get(
    '/v1/webhooks',
    {
      config: { auth: 'bearer' },
      schema: {
        operationId: 'listWebhooks',
        summary: 'List webhook subscriptions',
        description: "The caller's organization's subscriptions, newest first. Never the secret.",
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        querystring: Type.Object({ limit: Type.Optional(PageLimit), cursor: Type.Optional(PageCursor) }),
        response: {
          200: Type.Object({ data: Type.Array(Webhook), meta: PageMeta }),
          ...errorResponses('invalid_request', 'unauthorized'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const limit = parsePageLimit(request.query.limit)
      const after =
        request.query.cursor === undefined
          ? null
          : (([, createdAt, id]) => ({ createdAt: Number(createdAt), id: id as string }))(
              decodedCursor(request.query.cursor, /^w1:(\d{1,15}):(wh_[A-Za-z0-9_-]{1,40})$/),
            )
      // One row more than the page tells whether another page follows.
      const rows = await listWebhooks(db, caller.organizationId, { limit: limit + 1, after })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        data: page.map(webhookAnswer),
        meta: {
          limit,
          next_cursor: rows.length > limit && last ? encodeCursor(`w1:${last.created_at}:${last.id}`) : null,
        },
      }
    },
  )

  app.get(
    '/v1/webhooks/:id',
    {
      config: { auth: 'bearer' },
      schema: {
        operationId: 'getWebhook',
        summary: 'Get a webhook subscription',
        description: "One of the organization's subscriptions. Never the secret.",
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam }),
        response: { 200: Webhook, ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const row = await getWebhook(db, caller.organizationId, request.params.id)
      if (!row) throw notFound(request.params.id)
      return webhookAnswer(row)
    },
  )

  app.patch(
    '/v1/webhooks/:id',
    {
      bodyLimit,
      config: { auth: 'bearer' },
      schema: {
        operationId: 'updateWebhook',
        summary: 'Update a webhook subscription',
        description:
          'Changes any of the fields given, checked as at creation. `status` `disabled` stops deliveries; `enabled` resumes them at once, clearing `disabled_reason`. Removing `health_factor.below` from `events` clears the threshold.',
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam }),
        body: UpdateBody,
        response: {
          200: Webhook,
          ...errorResponses(...WriteErrors, 'not_found', 'payload_too_large'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const { id } = request.params
      const body = request.body
      const now = ctx.clock.now()
      const row = await db.transaction().execute(async (trx) => {
        // Two changes of one subscription take turns, so each audits what it changed.
        await lockOrganizationWebhooks(trx, caller.organizationId)
        const plan = await planOf(trx, caller.organizationId)
        const found = await getWebhook(trx, caller.organizationId, id)
        if (!found) throw notFound(id)
        const before = webhookAnswer(found)
        const events = body.events ?? before.events
        const keepsThreshold = events.includes('health_factor.below')
        const input = checkSubscription(
          {
            url: body.url ?? before.url,
            events,
            addresses: body.addresses === undefined ? before.addresses : body.addresses,
            protocols: body.protocols === undefined ? before.protocols : body.protocols,
            // The threshold goes with its event: dropping the event drops a stored threshold.
            health_factor_threshold:
              body.health_factor_threshold !== undefined
                ? body.health_factor_threshold
                : keepsThreshold
                  ? before.health_factor_threshold
                  : null,
          },
          {
            allowLoopback,
            addressLimit: webhookAddressLimitOf(plan),
            plan,
            // What was stored is not checked again (a plan lowered since blocks no other change).
            checkUrl: body.url !== undefined,
            checkAddresses: body.addresses !== undefined,
          },
        )
        const after = {
          ...input,
          description: body.description === undefined ? before.description : body.description,
        }
        const changes: WebhookChanges = {}
        const fields: string[] = []
        for (const field of [
          'url',
          'events',
          'addresses',
          'protocols',
          'health_factor_threshold',
          'description',
        ] as const) {
          if (JSON.stringify(after[field]) === JSON.stringify(before[field])) continue
          fields.push(field)
          Object.assign(changes, { [field]: after[field] })
        }
        const status = body.status ?? found.status
        if (status !== found.status) {
          changes.status = status
          changes.disabled_reason = status === 'enabled' ? null : DISABLED_BY_MEMBER
          // Enabled again: its pending messages are due at once.
          if (status === 'enabled') changes.next_attempt_at = 0
        }
        if (Object.keys(changes).length === 0) return found
        const updated = await updateWebhook(trx, caller.organizationId, id, changes, now)
        const audit = { organizationId: caller.organizationId, at: now, actor: caller.userId, target: id }
        if (fields.length > 0) {
          await insertAuditEvent(trx, {
            ...audit,
            action: 'webhook.updated',
            clientIp: request.ip,
            details: { fields },
          })
        }
        if (changes.status !== undefined) {
          await insertAuditEvent(trx, {
            ...audit,
            action: changes.status === 'enabled' ? 'webhook.enabled' : 'webhook.disabled',
            clientIp: request.ip,
          })
        }
        return updated ?? found
      })
      return webhookAnswer(row)
    },
  )

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      config: { auth: 'bearer', idempotent: true, credentials: true },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook subscription's signing secret",
        description: `Makes a new signing secret (shown in this response only). For ${PREVIOUS_SECRET_OVERLAP_MS / 3_600_000} hours (until \`previous_secret_expires_at\`) each delivery is signed with both the new and the previous secret, so the receiver can switch without refusing a delivery.`,
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam }),
        response: {
          200: WebhookSecretRotated,
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'conflict'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const { id } = request.params
      const now = ctx.clock.now()
      const secret = newWebhookSecret()
      const row = await db.transaction().execute(async (trx) => {
        const rotated = await rotateWebhookSecret(
          trx,
          caller.organizationId,
          id,
          sealWebhookSecret(secret, ctx.keyPepper),
          now,
        )
        if (!rotated) throw notFound(id)
        await insertAuditEvent(trx, {
          organizationId: caller.organizationId,
          at: now,
          action: 'webhook.secret_rotated',
          actor: caller.userId,
          target: id,
          clientIp: request.ip,
        })
        return rotated
      })
      return {
        ...webhookAnswer(row),
        secret,
        previous_secret_expires_at: toRfc3339(row.previous_secret_until ?? now + PREVIOUS_SECRET_OVERLAP_MS),
      }
    },
  )

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { auth: 'bearer' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook subscription',
        description:
          'The subscription and its undelivered and delivered messages are deleted; nothing more is sent.',
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam }),
        response: {
          204: Type.Null(),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      const caller = requireBearer(request)
      const { id } = request.params
      const now = ctx.clock.now()
      await db.transaction().execute(async (trx) => {
        if (!(await deleteWebhook(trx, caller.organizationId, id))) throw notFound(id)
        await insertAuditEvent(trx, {
          organizationId: caller.organizationId,
          at: now,
          action: 'webhook.deleted',
          actor: caller.userId,
          target: id,
          clientIp: request.ip,
        })
      })
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { auth: 'bearer' },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook subscription's deliveries",
        description:
          'Its messages, newest first, with the state of their delivery: `pending` (not yet delivered; retried on its schedule), `delivered` or `failed` (retries exhausted). `status` keeps those of one state.',
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam }),
        querystring: Type.Object({
          status: Type.Optional(MessageStatusFilter),
          limit: Type.Optional(PageLimit),
          cursor: Type.Optional(PageCursor),
        }),
        response: {
          200: Type.Object({ data: Type.Array(WebhookDelivery), meta: PageMeta }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const { id } = request.params
      const limit = parsePageLimit(request.query.limit)
      const beforeSeq =
        request.query.cursor === undefined
          ? null
          : Number(decodedCursor(request.query.cursor, /^d1:(\d{1,15})$/)[1])
      if (!(await getWebhook(db, caller.organizationId, id))) throw notFound(id)
      const rows = await listWebhookMessages(db, id, {
        limit: limit + 1,
        beforeSeq,
        status: request.query.status ?? null,
      })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        data: page.map(deliveryAnswer),
        meta: { limit, next_cursor: rows.length > limit && last ? encodeCursor(`d1:${last.seq}`) : null },
      }
    },
  )
}
