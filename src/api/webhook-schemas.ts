import { type Static, Type } from 'typebox'
import { AppError } from '../errors.ts'
import { PLAN_WEBHOOK_ADDRESS_LIMIT } from '../org/plans.ts'
import { named } from '../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../protocols/registry.ts'
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../push/webhook-url.ts'
import {
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGE_STATUSES,
  type WebhookMessageRow,
  type WebhookRow,
} from '../store/webhooks.ts'
import { requireAddress } from './params.ts'
import { NullableTimestamp, Timestamp, toRfc3339 } from './schemas.ts'

/**
 * The shapes of the webhook subscription routes (src/api/routes/webhooks.ts): their bodies, their
 * answers, and the rules of a subscription a schema cannot state (`checkSubscription`).
 */

/** The body limit of the routes that take a subscription: 10,000 addresses exceed the default 64 KiB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024

const Event = Type.Union(
  WEBHOOK_EVENTS.map((event) => Type.Literal(event)),
  { description: 'An event type' },
)
const Events = Type.Array(Event, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: `The events to deliver: one or more of ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}`,
})
const Addresses = Type.Union(
  [
    Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
      minItems: 1,
      maxItems: PLAN_WEBHOOK_ADDRESS_LIMIT.enterprise,
      uniqueItems: true,
    }),
    Type.Null(),
  ],
  {
    description: `The accounts (G...) and contracts (C...) whose events are delivered, each once; null or omitted: every account. At most ${PLAN_WEBHOOK_ADDRESS_LIMIT.free} on the free plan, ${PLAN_WEBHOOK_ADDRESS_LIMIT.pro.toLocaleString('en')} on pro and ${PLAN_WEBHOOK_ADDRESS_LIMIT.enterprise.toLocaleString('en')} on enterprise.`,
  },
)
const Protocols = Type.Union(
  [
    Type.Array(Type.Union(PROTOCOLS.map((protocol) => Type.Literal(protocol.name))), {
      minItems: 1,
      maxItems: PROTOCOLS.length,
      uniqueItems: true,
    }),
    Type.Null(),
  ],
  { description: 'The protocols whose events are delivered; null or omitted: every protocol' },
)
const Threshold = Type.Union(
  [
    Type.String({
      pattern: '^(?:0|[1-9][0-9]{0,8})(?:\\.[0-9]{1,7})?$',
      description: 'A decimal number above 0 with at most 7 decimals, such as "1.1"',
    }),
    Type.Null(),
  ],
  {
    description:
      "`health_factor.below` is sent when a lending position's health factor falls below this value. Required with that event, and only with it.",
  },
)
const Description = Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
  description: 'A note of the organization: what the endpoint is (at most 200 characters)',
})
const Url = Type.String({
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description:
    'An absolute https URL on the public internet (no user name or password, no fragment): where the events are POSTed',
  examples: ['https://hooks.example.com/strata'],
})
const Status = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])
/** A message's state: `pending` (retried on its schedule), `delivered`, or `failed` (retries exhausted). */
export const MessageStatus = Type.Unsafe<(typeof WEBHOOK_MESSAGE_STATUSES)[number]>(
  Type.Union(WEBHOOK_MESSAGE_STATUSES.map((status) => Type.Literal(status))),
)
/** `status` of the deliveries' query: the messages in one state. */
export const MessageStatusFilter = Type.Unsafe<(typeof WEBHOOK_MESSAGE_STATUSES)[number]>(
  Type.Union(
    WEBHOOK_MESSAGE_STATUSES.map((status) => Type.Literal(status)),
    { description: 'Only the messages in this state: pending, delivered or failed' },
  ),
)

export const WebhookIdParam = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The webhook id, as GET /v1/webhooks lists it',
})

const webhookFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  addresses: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'The accounts watched; null: every account',
  }),
  protocols: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'The protocols watched; null: every protocol',
  }),
  health_factor_threshold: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the subscription is disabled; null while enabled',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
}
const SecretField = Type.String({
  description:
    'The signing secret (Standard Webhooks, `whsec_…`): shown in this response only; verify each delivery with it',
})

export const Webhook = named('Webhook', Type.Object(webhookFields))
export const WebhookCreated = named('WebhookCreated', Type.Object({ ...webhookFields, secret: SecretField }))
export const WebhookSecretRotated = named(
  'WebhookSecretRotated',
  Type.Object({
    ...webhookFields,
    secret: SecretField,
    previous_secret_expires_at: Type.String({
      format: 'date-time',
      description: 'Until then deliveries are also signed with the secret before this rotation (RFC 3339)',
    }),
  }),
)
export const WebhookDelivery = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String({
      description: 'The message id, sent as the `webhook-id` header: the same on every retry',
    }),
    type: Type.String({ description: 'The event type' }),
    ledger: Type.Integer(),
    account: Type.String({ description: 'The account (G...) or contract (C...) the event is about' }),
    protocol: Type.String(),
    status: MessageStatus,
    attempts: Type.Integer({ description: 'Delivery attempts made so far' }),
    created_at: Timestamp,
    last_attempt_at: NullableTimestamp,
    last_status: Type.Union([Type.Integer(), Type.Null()], {
      description: "The HTTP status of the last attempt's answer; null when none came",
    }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    delivered_at: NullableTimestamp,
  }),
)

export const CreateBody = Type.Object(
  {
    url: Url,
    events: Events,
    addresses: Type.Optional(Addresses),
    protocols: Type.Optional(Protocols),
    health_factor_threshold: Type.Optional(Threshold),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
)
export const UpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    addresses: Type.Optional(Addresses),
    protocols: Type.Optional(Protocols),
    health_factor_threshold: Type.Optional(Threshold),
    description: Type.Optional(Description),
    status: Type.Optional(Status),
  },
  { additionalProperties: false, minProperties: 1 },
)

const parseList = (stored: string | null): string[] | null =>
  stored === null ? null : (JSON.parse(stored) as string[])

export function webhookAnswer(row: WebhookRow): Static<typeof Webhook> {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    addresses: parseList(row.addresses),
    protocols: parseList(row.protocols),
    health_factor_threshold: row.health_factor_threshold,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_at: toRfc3339(row.created_at),
    updated_at: toRfc3339(row.updated_at),
  }
}

export function deliveryAnswer(row: WebhookMessageRow): Static<typeof WebhookDelivery> {
  return {
    id: `msg_${row.seq}`,
    type: row.type,
    ledger: row.ledger,
    account: row.address,
    protocol: row.protocol,
    status: row.status,
    attempts: row.attempts,
    created_at: toRfc3339(row.created_at),
    last_attempt_at: toRfc3339(row.last_attempt_at),
    last_status: row.last_status,
    last_error: row.last_error,
    delivered_at: toRfc3339(row.delivered_at),
  }
}

/** The `disabled_reason` of a subscription a member disabled (PATCH `status: disabled`). */
export const DISABLED_BY_MEMBER = 'disabled by a member of the organization'

/** What a subscription watches and where it sends, as it will be stored. */
export interface SubscriptionInput {
  url: string
  events: string[]
  addresses: string[] | null
  protocols: string[] | null
  health_factor_threshold: string | null
}

/** A 400 naming `field`. */
export function invalidField(
  field: string,
  message: string,
  code: 'invalid_request' | 'invalid_address' = 'invalid_request',
) {
  return new AppError(code, message, { details: [{ field, message }] })
}

/**
 * The rules the body's schema cannot state: the URL's (checkWebhookUrl), the plan's number of
 * addresses, each address a valid StrKey, and the threshold given with its event and only then.
 */
export function checkSubscription(
  input: SubscriptionInput,
  rules: {
    allowLoopback: boolean
    addressLimit: number
    plan: string
    /** false: the URL is the one stored, not checked again. */
    checkUrl?: boolean
    /** false: the addresses are those stored, not checked again. */
    checkAddresses?: boolean
  },
): SubscriptionInput {
  if (rules.checkUrl !== false) {
    const url = checkWebhookUrl(input.url, rules.allowLoopback)
    if (!url.ok) throw invalidField('url', url.reason)
  }
  // Addresses stored before are not checked again (a plan lowered since does not block a change
  // of another field, nor disabling); new ones are.
  const addresses = rules.checkAddresses === false ? null : input.addresses
  if (addresses !== null && addresses.length > rules.addressLimit) {
    throw invalidField(
      'addresses',
      `addresses must have at most ${rules.addressLimit} items on the ${rules.plan} plan (it has ${addresses.length})`,
    )
  }
  for (const [index, address] of (addresses ?? []).entries()) {
    try {
      requireAddress(address)
    } catch {
      const field = `addresses.${index}`
      throw invalidField(
        field,
        `${field} must be a Stellar account (G...) or contract (C...) address, not "${address.slice(0, 128)}"`,
        'invalid_address',
      )
    }
  }
  const threshold = input.health_factor_threshold
  const watchesHealth = input.events.includes('health_factor.below')
  if (watchesHealth && threshold === null) {
    throw invalidField(
      'health_factor_threshold',
      'health_factor_threshold is required with the health_factor.below event',
    )
  }
  if (!watchesHealth && threshold !== null) {
    throw invalidField(
      'health_factor_threshold',
      'health_factor_threshold must be left out (or null) without the health_factor.below event',
    )
  }
  if (threshold !== null && /^0(?:\.0*)?$/.test(threshold)) {
    throw invalidField('health_factor_threshold', 'health_factor_threshold must be above 0')
  }
  return input
}
