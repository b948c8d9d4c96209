import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { named } from '../../protocols/kit/response-schema.ts'
import { AUDIT_ACTIONS, type AuditAction, listAuditEvents } from '../../store/audit-log.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import { invalidCursor, PageCursor, PageLimit, PageMeta, parsePageLimit } from '../params.ts'
import { invalid } from '../route-helpers.ts'
import { errorResponses, Timestamp, toRfc3339 } from '../schemas.ts'

const described = (description: string, example?: string) =>
  Type.Optional(Type.String({ description, ...(example === undefined ? {} : { examples: [example] }) }))

const AuditDetailsSchema = Type.Object(
  {
    slug: described('organization.created: the organization slug', 'example-org'),
    name: described('api_key.created, api_key.rotated: the key name'),
    key_prefix: described('api_key.created, api_key.rotated: the prefix of the (new) key'),
    scopes: Type.Optional(
      Type.Array(Type.String(), { description: 'api_key.created, api_key.rotated: the scopes granted' }),
    ),
    new_key_id: described('api_key.rotated: the key that replaces the rotated one'),
    old_key_expires_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'api_key.rotated: when the rotated key stops working (RFC 3339)',
      }),
    ),
    from: described('organization.plan_changed: the plan before', 'free'),
    to: described('organization.plan_changed: the plan after', 'pro'),
    max_plan: described('organization.plan_changed: the highest plan the operator allows, after', 'pro'),
    fields: Type.Optional(
      Type.Array(Type.String(), { description: 'webhook.updated: the names of the fields the change set' }),
    ),
    reason: described(
      'webhook.disabled by Strata itself (actor null): why, naming the delivery whose retries were spent and its last error',
      'delivery msg_42 failed 8 times; last: connection refused (ECONNREFUSED)',
    ),
    delivery_id: described(
      'webhook.disabled by Strata itself: the delivery whose retries were spent',
      'msg_42',
    ),
  },
  {
    description: 'Facts of the event, the fields its action has; null when it has none',
  },
)
named('AuditDetails', AuditDetailsSchema)

const AuditEventSchema = Type.Object({
  id: Type.String(),
  at: Timestamp,
  action: Type.Unsafe<AuditAction>(Type.Union(AUDIT_ACTIONS.map((action) => Type.Literal(action)))),
  actor: Type.Union([Type.String(), Type.Null()], {
    description: 'The user who acted, `admin` for the operator, or null for an unauthenticated attempt',
  }),
  target: Type.Union([Type.String(), Type.Null()], {
    description: 'What was acted on: a key, user or organization id',
  }),
  client_ip: Type.Union([Type.String(), Type.Null()], {
    description: 'The client address (see TRUST_PROXY); null for the CLI',
  }),
  details: Type.Union([AuditDetailsSchema, Type.Null()]),
})
named('AuditEvent', AuditEventSchema)

/** A filter's time in epoch milliseconds, or null when not given. */
function timeOf(field: 'since' | 'until', value: string | undefined): number | null {
  if (value === undefined) return null
  const ms = Date.parse(value)
  // The format admits what Date cannot hold (a leap second, a year beyond its range).
  if (Number.isNaN(ms))
    throw invalid(field, `${field} must be an RFC 3339 timestamp such as 2026-01-31T00:00:00Z`)
  return ms
}

const CURSOR_VERSION = 'a1'

/** Opaque to clients: the write-order position after which the next page starts. */
function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_VERSION}:${seq}`).toString('base64url')
}

function decodeCursor(cursor: string): number {
  const match = /^a1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match?.[1]) throw invalidCursor()
  return Number(match[1])
}

export function registerAuditLogRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/org/audit-log',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: "List the organization's security events",
        description:
          'Newest first, filtered by `action`, `since` and `until` when given (ask every page with the same filter): organization created and plan changed; user created, login, failed login and logout; API key created, rotated and revoked; webhook subscription created, updated, enabled, disabled, its secret rotated, and deleted. Each event is written in the same transaction as the change it records.',
        tags: ['Audit log'],
        security: [{ bearer: [] }],
        querystring: Type.Object({
          limit: Type.Optional(PageLimit),
          cursor: Type.Optional(PageCursor),
          action: Type.Optional(
            Type.Unsafe<AuditAction>(
              Type.Union(
                AUDIT_ACTIONS.map((action) => Type.Literal(action)),
                { description: 'Only the events of this action' },
              ),
            ),
          ),
          since: Type.Optional(
            Type.String({
              format: 'date-time',
              description: 'Only the events at or after this time (RFC 3339)',
              examples: ['2026-01-01T00:00:00Z'],
            }),
          ),
          until: Type.Optional(
            Type.String({
              format: 'date-time',
              description: 'Only the events before this time (RFC 3339)',
              examples: ['2026-02-01T00:00:00Z'],
            }),
          ),
        }),
        response: {
          200: Type.Object({ data: Type.Array(AuditEventSchema), meta: PageMeta }),
          ...errorResponses('invalid_request', 'unauthorized'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const limit = parsePageLimit(request.query.limit)
      const beforeSeq = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor)
      const sinceMs = timeOf('since', request.query.since)
      const untilMs = timeOf('until', request.query.until)
      if (sinceMs !== null && untilMs !== null && untilMs <= sinceMs) {
        throw invalid('until', 'until must be later than since')
      }
      // One row more than the page tells whether another page follows. A cursor is a position in
      // the log: the next page is asked with the same filter.
      const rows = await listAuditEvents(ctx.database.db, caller.organizationId, {
        limit: limit + 1,
        beforeSeq,
        action: request.query.action ?? null,
        sinceMs,
        untilMs,
      })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        data: page.map((event) => ({
          id: event.id,
          at: toRfc3339(event.at),
          action: event.action,
          actor: event.actor,
          target: event.target,
          client_ip: event.client_ip,
          details: event.details,
        })),
        // Paging in `meta`, as every list of the API has it.
        meta: { limit, next_cursor: rows.length > limit && last ? encodeCursor(last.seq) : null },
      }
    },
  )
}
