import { type Kysely, type Selectable, SqliteIntrospector } from 'kysely'
import type { Schema, WebhookMessagesTable, WebhooksTable } from './schema.ts'

/**
 * An organization's webhook subscriptions (`webhooks`) and the page of one subscription's
 * messages (`webhook_messages`), as the management API reads and writes them. Every function
 * takes the organization: a subscription of another organization is not found.
 */

export type WebhookRow = Selectable<WebhooksTable>
export type WebhookMessageRow = Selectable<WebhookMessagesTable>
export type WebhookMessageStatus = WebhookMessagesTable['status']

/** The events a subscription may ask for. */
export const WEBHOOK_EVENTS = ['position.changed', 'activity.created', 'health_factor.below'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** The statuses of a message (`webhook_messages.status`). */
export const WEBHOOK_MESSAGE_STATUSES = ['pending', 'delivered', 'failed'] as const

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000

export interface NewWebhook {
  id: string
  organizationId: string
  url: string
  description: string | null
  events: readonly string[]
  /** null: every account. */
  addresses: readonly string[] | null
  /** null: every protocol. */
  protocols: readonly string[] | null
  healthFactorThreshold: string | null
  /** Sealed (src/push/webhook-secrets.ts). */
  sealedSecret: string
  now: number
}

const listOrNull = (list: readonly string[] | null): string | null =>
  list === null ? null : JSON.stringify(list)

/**
 * Holds the organization's row until the transaction ends, so that two creations cannot both
 * take its last place. SQLite has one writer at a time already.
 */
export async function lockOrganizationWebhooks(trx: Kysely<Schema>, organizationId: string): Promise<void> {
  if (trx.introspection instanceof SqliteIntrospector) return
  await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute()
}

export async function countWebhooks(db: Kysely<Schema>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function createWebhook(db: Kysely<Schema>, input: NewWebhook): Promise<WebhookRow> {
  const row: WebhookRow = {
    id: input.id,
    organization_id: input.organizationId,
    url: input.url,
    description: input.description,
    events: JSON.stringify(input.events),
    addresses: listOrNull(input.addresses),
    protocols: listOrNull(input.protocols),
    health_factor_threshold: input.healthFactorThreshold,
    secret: input.sealedSecret,
    previous_secret: null,
    previous_secret_until: null,
    status: 'enabled',
    disabled_reason: null,
    created_at: input.now,
    updated_at: input.now,
    lease_owner: null,
    lease_until: 0,
    next_attempt_at: 0,
    processed_seq: 0,
  }
  await db.insertInto('webhooks').values(row).execute()
  return row
}

/** Where a page of subscriptions starts: after this one, in the list's order. */
export interface WebhookPosition {
  createdAt: number
  id: string
}

/** One page of the organization's subscriptions, newest first (ties by id): those after `after`. */
export function listWebhooks(
  db: Kysely<Schema>,
  organizationId: string,
  options: { limit: number; after: WebhookPosition | null },
): Promise<WebhookRow[]> {
  let query = db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId)
  const { after } = options
  if (after !== null) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    )
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute()
}

export function getWebhook(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The columns a member may change (`updated_at` is set by `updateWebhook`). */
export interface WebhookChanges {
  url?: string
  description?: string | null
  events?: readonly string[]
  addresses?: readonly string[] | null
  protocols?: readonly string[] | null
  health_factor_threshold?: string | null
  status?: WebhookRow['status']
  disabled_reason?: string | null
  next_attempt_at?: number
}

/** Applies `changes` to the organization's subscription; the row afterwards, or undefined when none. */
export async function updateWebhook(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
  changes: WebhookChanges,
  now: number,
): Promise<WebhookRow | undefined> {
  const { events, addresses, protocols, ...plain } = changes
  await db
    .updateTable('webhooks')
    .set({
      ...plain,
      ...(events === undefined ? {} : { events: JSON.stringify(events) }),
      ...(addresses === undefined ? {} : { addresses: listOrNull(addresses) }),
      ...(protocols === undefined ? {} : { protocols: listOrNull(protocols) }),
      updated_at: now,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute()
  return getWebhook(db, organizationId, id)
}

/**
 * Replaces the signing secret with `sealedSecret`; the secret it replaces keeps signing until
 * `now + PREVIOUS_SECRET_OVERLAP_MS` (`previous_secret`, `previous_secret_until`). The row
 * afterwards, or undefined when the organization has no such subscription.
 */
export async function rotateWebhookSecret(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
  sealedSecret: string,
  now: number,
): Promise<WebhookRow | undefined> {
  await db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_until: now + PREVIOUS_SECRET_OVERLAP_MS,
      secret: sealedSecret,
      updated_at: now,
    }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute()
  return getWebhook(db, organizationId, id)
}

/**
 * Deletes the organization's subscription and its messages; false when it has no such
 * subscription. The messages are deleted explicitly (not only by the foreign key's cascade), so
 * the outcome does not depend on a connection's `foreign_keys` setting. Call it in a transaction.
 */
export async function deleteWebhook(
  db: Kysely<Schema>,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const found = await getWebhook(db, organizationId, id)
  if (!found) return false
  await db.deleteFrom('webhook_messages').where('webhook_id', '=', id).execute()
  const deleted = await db
    .deleteFrom('webhooks')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}

/**
 * One page of a subscription's messages, newest first (by `seq`): those before `beforeSeq` when
 * given, of `status` when given. The caller checks first that the subscription is the
 * organization's.
 */
export async function listWebhookMessages(
  db: Kysely<Schema>,
  webhookId: string,
  options: { limit: number; beforeSeq: number | null; status: WebhookMessageStatus | null },
): Promise<WebhookMessageRow[]> {
  let query = db.selectFrom('webhook_messages').selectAll().where('webhook_id', '=', webhookId)
  if (options.beforeSeq !== null) query = query.where('seq', '<', options.beforeSeq)
  if (options.status !== null) query = query.where('status', '=', options.status)
  const rows = await query.orderBy('seq', 'desc').limit(options.limit).execute()
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }))
}
