import { HEALTH_FACTOR_BELOW, HealthFactorCrossingEvent } from '../push/health-crossings.ts'
import { ActivityCreatedEvent } from '../push/webhook-payloads.ts'
import { ACTIVITY_CREATED, POSITION_CHANGED } from '../store/webhook-outbox.ts'
import type { OperationExample } from './examples/load.ts'
import { isObject, type JsonObject, type SchemaNamer } from './openapi-components.ts'

/**
 * The OpenAPI 3.1 `webhooks` section: what Strata POSTs to a subscription's URL, one entry per
 * event, with the body's named schema, the Standard Webhooks headers and what the answer means
 * (docs/webhooks.md is the contract). The examples come from the recorded demo answers: the
 * stream's first event is a `position.changed` body, and an activity of the activities page
 * makes an `activity.created` body.
 */

const HEADERS: JsonObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id: the same on every retry and redelivery of this event (deduplicate on it)',
    schema: { type: 'string', examples: ['msg_42'] },
    example: 'msg_42',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the epoch (reject one far from now)',
    schema: { type: 'string', examples: ['1767232275'] },
    example: '1767232275',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body` (two for 24 h after a rotation): accept the delivery when one matches',
    schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
]

interface EventEntry {
  type: string
  operationId: string
  summary: string
  description: string
  schema: unknown
  example: unknown
}

/** The `activity.created` body made of the first activity the recorded activities page holds. */
function activityExample(examples: Record<string, OperationExample>): unknown {
  const page = examples.listActivities?.responses['200']
  const item = isObject(page) && Array.isArray(page.data) ? page.data[0] : undefined
  if (!isObject(item)) return undefined
  return { type: ACTIVITY_CREATED, address: item.account, protocol: item.protocol, ledger: item.ledger, item }
}

/**
 * A body's schema for the document: its members as the schema declares them, except those whose
 * shape a route already named (`item`: the history item the stream documents, the activity the
 * activities page documents), which refer to that component, so one shape keeps one name.
 */
function bodySchema(schema: unknown, item: unknown): JsonObject {
  const plain = JSON.parse(JSON.stringify(schema)) as JsonObject
  const properties = plain.properties as Record<string, JsonObject>
  return {
    ...plain,
    properties: {
      ...properties,
      item: { ...(item as JsonObject), description: properties.item?.description },
    },
  }
}

/**
 * A `health_factor.below` body made of the recorded `/at` lending answer: its first pool group's
 * health factor at the answer's ledger, against a threshold above it, as a subscription watching
 * that account would receive it the ledger its debt appeared (from no debt: `previous_health_factor`
 * null).
 */
function healthExample(examples: Record<string, OperationExample>): unknown {
  const answer = examples.getLendingPositionsAt?.responses['200']
  if (!isObject(answer) || !isObject(answer.data) || !isObject(answer.meta)) return undefined
  const group = Array.isArray(answer.data.groups) ? answer.data.groups[0] : undefined
  if (!isObject(group) || typeof group.health_factor !== 'string') return undefined
  return {
    type: HEALTH_FACTOR_BELOW,
    address: answer.data.address,
    protocol: 'lendingprotocol',
    ledger: answer.meta.valuation_ledger,
    closed_at: null,
    pool: group.contract_address,
    direction: 'below',
    threshold: '9.9000000',
    health_factor: group.health_factor,
    previous_health_factor: null,
  }
}

/** The entries, their schemas named through the document's namer. */
export function webhooksSection(namer: SchemaNamer, examples: Record<string, OperationExample>): JsonObject {
  const entries: EventEntry[] = [
    {
      type: POSITION_CHANGED,
      operationId: 'positionChangedWebhook',
      summary: 'Positions changed',
      description:
        "A watched account's positions in a protocol changed at a ledger: the new snapshot exactly as the protocol's `/history` answers it, with the ledger of the previous one.",
      // The stream's body, already a component.
      schema: { $ref: '#/components/schemas/PositionChangedEvent' },
      example: examples.getStreamPositions?.responses['200'],
    },
    {
      type: ACTIVITY_CREATED,
      operationId: 'activityCreatedWebhook',
      summary: 'An activity of a watched account',
      description:
        'A watched account acted in a protocol (a deposit, a borrow, a swap, …): the activity exactly as `GET /v1/users/{address}/activities` answers it. Sent before the `position.changed` events of its ledger.',
      schema: bodySchema(ActivityCreatedEvent, { $ref: '#/components/schemas/Activity' }),
      example: activityExample(examples),
    },
    {
      type: HEALTH_FACTOR_BELOW,
      operationId: 'healthFactorBelowWebhook',
      summary: 'A health factor crossed the threshold',
      description:
        "A Blend pool group of a watched account crossed the subscription's `health_factor_threshold`: `direction` `below` when it fell under it, `above` when it is back at or over it (or the debt is gone). The health factor is the one `/positions/lendingprotocol/at/{ledger}` answers at that ledger, so prices and rates move it as well as positions; a ledger where it cannot be computed is passed over.",
      schema: HealthFactorCrossingEvent,
      example: healthExample(examples),
    },
  ]
  const section: JsonObject = {}
  for (const entry of entries) {
    const schema = namer.name(
      entry.schema,
      `${entry.operationId[0]!.toUpperCase()}${entry.operationId.slice(1)}Body`,
    )
    // Keyed by the event type in kebab case (the type itself is the body's `type`).
    section[entry.type.replace(/[._]/g, '-')] = {
      post: {
        operationId: entry.operationId,
        summary: entry.summary,
        description: `${entry.description} Signed as Standard Webhooks says; retried with backoff until a 2xx; in ledger order per subscription. See docs/webhooks.md.`,
        tags: ['Webhooks'],
        // Strata is the caller: the receiver authenticates it by the signature, not by a credential.
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema,
              ...(entry.example === undefined ? {} : { example: entry.example }),
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx answer within the timeout acknowledges the delivery' },
          '400': {
            description:
              'Any other answer (or none in time, or a redirect) is a failed attempt: retried on the schedule, the subscription disabled when it is spent',
          },
        },
      },
    }
  }
  return section
}
