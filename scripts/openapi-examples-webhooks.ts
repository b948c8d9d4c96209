/**
 * The webhook subscription operations' part of the examples' management walk
 * (scripts/openapi-examples.ts): a subscription created, listed, read, updated, disabled and
 * enabled, its secret rotated, its deliveries paged, and a second one deleted. The deliveries are
 * written straight into the outbox, as the indexer's batch writes them, so the page shows each
 * state a message can be in.
 */
import type { Kysely } from 'kysely'
import type { Schema } from '../src/store/schema.ts'
import type { Ask, Json } from './openapi-examples.ts'

type Record_ = (id: string, asks: Ask[], after?: (body: Json) => void, refused?: Ask[]) => Promise<void>

export interface WebhookWalk {
  record: Record_
  db: Kysely<Schema>
  idempotency: (n: number) => Record<string, string>
  /** An account of the demo network, watched by the subscription. */
  address: string
  head: number
  nowMs: number
}

const nextCursor = (body: Json) => (body.meta as { next_cursor?: string | null } | undefined)?.next_cursor

export async function askWebhookOperations(walk: WebhookWalk): Promise<void> {
  const { record, idempotency, address } = walk
  const ids: string[] = []
  const subscription = {
    url: 'https://hooks.example.com/strata',
    events: ['position.changed', 'health_factor.below'],
    addresses: [address],
    protocols: ['lendingprotocol'],
    health_factor_threshold: '1.1',
    description: 'Risk desk',
  }
  await record(
    'createWebhook',
    [
      { headers: idempotency(5), body: subscription },
      {
        headers: idempotency(6),
        body: { url: 'https://hooks.example.com/activity', events: ['activity.created'] },
      },
    ],
    (body) => {
      ids.push(body.id as string)
    },
    [
      { headers: idempotency(51), body: { ...subscription, url: 'https://10.0.0.8/strata' } },
      // The free plan's two subscriptions are taken.
      {
        headers: idempotency(52),
        body: { url: 'https://hooks.example.com/third', events: ['position.changed'] },
      },
    ],
  )
  const [id, second] = ids as [string, string]
  // The examples' clock stands still: the first subscription is dated a minute earlier, so the
  // list's order (newest first) is the same at every run.
  await walk.db
    .updateTable('webhooks')
    .set({ created_at: walk.nowMs - 60_000, updated_at: walk.nowMs - 60_000 })
    .where('id', '=', id)
    .execute()
  let listCursor: string | undefined
  await record('listWebhooks', [{ query: { limit: '1' } }], (body) => {
    listCursor ??= nextCursor(body) ?? undefined
  })
  await record('listWebhooks', [
    { query: { limit: '1' } },
    ...(listCursor ? [{ variant: 'The next page', query: { limit: '1', cursor: listCursor } }] : []),
  ])
  await record('getWebhook', [{ path: { id } }], undefined, [{ path: { id: 'wh_unknown' } }])
  await record(
    'updateWebhook',
    [
      { path: { id }, body: { health_factor_threshold: '1.05', description: 'Risk desk, tighter' } },
      { variant: 'Disabled', path: { id }, body: { status: 'disabled' } },
      { variant: 'Enabled again', path: { id }, body: { status: 'enabled' } },
    ],
    undefined,
    [
      { path: { id: 'wh_unknown' }, body: { status: 'disabled' } },
      { path: { id }, body: { events: ['position.changed'], health_factor_threshold: '1.2' } },
    ],
  )
  await record('rotateWebhookSecret', [{ path: { id }, headers: idempotency(8) }], undefined, [
    { path: { id: 'wh_unknown' }, headers: idempotency(81) },
  ])

  // Three messages of the subscription, one in each state, oldest first, about the account's
  // real snapshots (so a redelivery renders a real body from the store).
  const { nowMs } = walk
  const snapshots = await walk.db
    .selectFrom('snapshots')
    .select(['protocol', 'ledger'])
    .where('address', '=', address)
    .orderBy('ledger', 'desc')
    .limit(3)
    .execute()
  const [newest, middle, oldest] = snapshots.map((s) => ({ protocol: s.protocol, ledger: Number(s.ledger) }))
  if (!newest || !middle || !oldest)
    throw new Error(`the walk's account ${address} has fewer than 3 snapshots`)
  const base = { webhook_id: id, address, ref: null, payload: null }
  await walk.db
    .insertInto('webhook_messages')
    .values([
      {
        ...base,
        ...oldest,
        type: 'position.changed',
        status: 'delivered',
        attempts: 1,
        created_at: nowMs - 200_000,
        last_attempt_at: nowMs - 199_000,
        last_status: 200,
        last_error: null,
        delivered_at: nowMs - 199_000,
      },
      {
        ...base,
        ...middle,
        type: 'position.changed',
        status: 'failed',
        attempts: 8,
        created_at: nowMs - 100_000,
        last_attempt_at: nowMs - 10_000,
        last_status: 503,
        last_error: 'upstream unavailable',
        delivered_at: null,
      },
      {
        ...base,
        ...newest,
        type: 'position.changed',
        status: 'pending',
        attempts: 1,
        created_at: nowMs - 5_000,
        last_attempt_at: nowMs - 4_000,
        last_status: null,
        last_error: 'timed out after 10000 ms',
        delivered_at: null,
      },
    ])
    .execute()
  let deliveryCursor: string | undefined
  const deliveries = { path: { id }, query: { limit: '2' } }
  await record('listWebhookDeliveries', [deliveries], (body) => {
    deliveryCursor ??= nextCursor(body) ?? undefined
  })
  await record(
    'listWebhookDeliveries',
    [
      deliveries,
      ...(deliveryCursor
        ? [{ variant: 'The next page', path: { id }, query: { limit: '2', cursor: deliveryCursor } }]
        : []),
      { variant: 'The failed ones', path: { id }, query: { status: 'failed' } },
    ],
    undefined,
    [{ path: { id: 'wh_unknown' } }],
  )
  const first = await walk.db
    .selectFrom('webhook_messages')
    .select('seq')
    .where('webhook_id', '=', id)
    .orderBy('seq')
    .executeTakeFirstOrThrow()
  await record('redeliverWebhookDelivery', [{ path: { id, delivery_id: `msg_${first.seq}` } }], undefined, [
    { path: { id, delivery_id: 'msg_999999' } },
    { path: { id: 'wh_unknown', delivery_id: `msg_${first.seq}` } },
  ])
  await record('deleteWebhook', [{ path: { id: second } }], undefined, [{ path: { id: 'wh_unknown' } }])
}
