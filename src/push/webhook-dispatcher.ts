import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { sql } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Logger } from '../logger.ts'
import { insertAuditEvent } from '../store/audit-log.ts'
import type { Database } from '../store/db.ts'
import type { WebhookMessagesTable, WebhooksTable } from '../store/schema.ts'
import type { MessageSource } from './webhook-payloads.ts'
import { retryDelayMs, type SendOutcome, type WebhookDelivery } from './webhook-send.ts'

/**
 * Delivers the outbox (store/webhook-outbox.ts), in every `strata serve` process on the store.
 *
 * - **One deliverer per subscription.** A process claims a subscription with a lease
 *   (`lease_owner`, `lease_until`): an UPDATE that succeeds only while no live lease exists, with
 *   `FOR UPDATE SKIP LOCKED` on PostgreSQL so concurrent claimers pass each other by instead of
 *   waiting. A killed process's lease ends by itself after the lease (`leaseMsFor`), and another process (or
 *   the same one restarted) resumes from the first undelivered message.
 * - **In ledger order.** The holder sends the subscription's pending messages in `seq` order,
 *   one at a time; a message is marked delivered only after its receiver answered 2xx, so a crash
 *   in between sends it again (at least once, with the same `webhook-id`).
 * - **Retries.** A failed attempt holds the subscription's queue (later messages wait: order is
 *   kept) until `next_attempt_at`, after the retry schedule's wait; once the schedule is spent, the
 *   message is `failed`, the subscription is disabled and the audit log records why.
 * - **Woken, not polling.** `wake()` runs a pass now: the in-process indexer calls it after each
 *   commit, and on PostgreSQL a LISTEN on the outbox's channel calls it when any process commits
 *   messages. Otherwise a pass runs when the earliest retry is due, and at the latest every
 *   `idleMs` (for an indexer in another process on SQLite, which cannot notify).
 */

/**
 * How long a claim lasts without renewal, for a delivery timeout of `timeoutMs`: renewed before
 * each message, so four attempts' worth is far above one; a killed process's subscriptions wait
 * this long for another process.
 */
export function leaseMsFor(timeoutMs: number): number {
  return Math.max(4 * timeoutMs, 2000)
}
/** Subscriptions one process delivers to at once. */
const CONCURRENCY = 4
/** The longest error text kept with a message. */
const ERROR_MAX = 500

export interface DispatcherDeps {
  database: Database
  logger: Logger
  clock: Clock
  /** Renders a message's body from the store; null when its source is not stored. */
  render: (message: MessageSource) => Promise<string | null>
  /** The signing secrets in force for a subscription row (the current first). */
  secretsOf: (webhook: WebhooksTable, now: number) => string[]
  /** Sends one signed delivery (webhook-send.ts's `sendWebhook`, with the process's agents). */
  send: (delivery: WebhookDelivery) => Promise<SendOutcome>
  /** Waits between attempts, in milliseconds (STRATA_WEBHOOK_RETRY_SCHEDULE). */
  retryScheduleMs: readonly number[]
  /** The longest wait between two passes when nothing wakes the dispatcher. */
  idleMs: number
  /** How long a claim lasts without renewal (`leaseMsFor` the delivery timeout). */
  leaseMs: number
  /** false: no passes at all (`STRATA_WEBHOOK_DELIVERY=off`); `redeliver` still sends. */
  deliver: boolean
}

/** A message's delivery state, as the deliveries list shows it. */
export type MessageRow = WebhookMessagesTable & { seq: number }

export interface WebhookDispatcher {
  /** Runs a pass now (new messages were committed). */
  wake(): void
  /** Sends one message now, outside the queue's order (a redelivery asked for); its row afterwards. */
  redeliver(webhookId: string, seq: number): Promise<MessageRow | null>
  /** Stops claiming, waits for deliveries in flight, and gives up this process's leases. */
  close(): Promise<void>
}

const truncate = (text: string) => (text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX - 1)}…` : text)

export function createWebhookDispatcher(deps: DispatcherDeps): WebhookDispatcher {
  const { database, logger, clock } = deps
  const db = database.db
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  const postgres = database.kind === 'postgres'
  let closed = false
  let timer: NodeJS.Timeout | null = null
  /** When `timer` fires (epoch ms). */
  let timerAt = 0
  let running: Promise<void> | null = null
  let again = false
  const inFlight = new Set<Promise<void>>()

  /**
   * One subscription whose oldest pending message is due and that no live lease holds, now claimed.
   * On PostgreSQL the candidate is locked with SKIP LOCKED in a CTE (evaluated once: a subquery in
   * the UPDATE's WHERE may be evaluated again per row, and claim a second row unseen); on SQLite,
   * where writes are serial, a read, then the conditional UPDATE (a read first: an UPDATE would
   * take the write lock at every idle pass).
   */
  async function claim(): Promise<WebhooksTable | null> {
    const now = clock.now()
    const until = now + deps.leaseMs
    if (postgres) {
      const { rows } = await sql<WebhooksTable>`WITH c AS (
          SELECT w.id FROM webhooks w
          WHERE w.status = 'enabled' AND w.lease_until < ${now} AND w.next_attempt_at <= ${now}
            AND EXISTS (SELECT 1 FROM webhook_messages m
              WHERE m.webhook_id = w.id AND m.seq > w.processed_seq AND m.status = 'pending')
          ORDER BY w.next_attempt_at, w.id LIMIT 1 FOR UPDATE SKIP LOCKED)
        UPDATE webhooks SET lease_owner = ${owner}, lease_until = ${until}
        FROM c WHERE webhooks.id = c.id AND webhooks.lease_until < ${now}
        RETURNING webhooks.*`.execute(db)
      return rows[0] ?? null
    }
    const candidate = await db
      .selectFrom('webhooks as w')
      .select('w.id')
      .where('w.status', '=', 'enabled')
      .where('w.lease_until', '<', now)
      .where('w.next_attempt_at', '<=', now)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('webhook_messages as m')
            .select(sql.lit(1).as('one'))
            .whereRef('m.webhook_id', '=', 'w.id')
            .whereRef('m.seq', '>', 'w.processed_seq')
            .where('m.status', '=', 'pending'),
        ),
      )
      .orderBy('w.next_attempt_at')
      .orderBy('w.id')
      .limit(1)
      .executeTakeFirst()
    if (candidate === undefined) return null
    const row = await db
      .updateTable('webhooks')
      .set({ lease_owner: owner, lease_until: until })
      .where('id', '=', candidate.id)
      // Re-checked on the row as it is when updated: a claim another process won in between is no claim.
      .where('lease_until', '<', now)
      .where('status', '=', 'enabled')
      .returningAll()
      .executeTakeFirst()
    return row ?? null
  }

  /**
   * Records that every message up to `processedSeq` is done, renews this process's lease and
   * reads the subscription again (its URL or secret may have changed), in one statement; null when
   * the lease was lost (expired and taken) or the subscription was disabled.
   */
  async function renew(id: string, processedSeq: number): Promise<WebhooksTable | null> {
    const row = await db
      .updateTable('webhooks')
      .set({ lease_until: clock.now() + deps.leaseMs, processed_seq: processedSeq })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'enabled')
      .returningAll()
      .executeTakeFirst()
    return row ?? null
  }

  async function release(id: string, nextAttemptAt?: number): Promise<void> {
    await db
      .updateTable('webhooks')
      .set({
        lease_until: 0,
        lease_owner: null,
        ...(nextAttemptAt === undefined ? {} : { next_attempt_at: nextAttemptAt }),
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute()
  }

  /** The message's body: kept, or rendered now and kept. */
  async function payloadOf(message: MessageRow): Promise<string | null> {
    if (message.payload !== null) return message.payload
    const payload = await deps.render(message)
    if (payload !== null) {
      await db
        .updateTable('webhook_messages')
        .set({ payload })
        .where('seq', '=', message.seq)
        .where('payload', 'is', null)
        .execute()
    }
    return payload
  }

  async function attempt(webhook: WebhooksTable, message: MessageRow, payload: string): Promise<SendOutcome> {
    const now = clock.now()
    return deps.send({
      url: webhook.url,
      messageId: `msg_${message.seq}`,
      timestampS: Math.floor(now / 1000),
      payload,
      secrets: deps.secretsOf(webhook, now),
    })
  }

  /** Records an attempt's outcome on the message; a success marks it delivered. */
  async function record(message: MessageRow, outcome: SendOutcome, status?: MessageRow['status']) {
    const now = clock.now()
    await db
      .updateTable('webhook_messages')
      .set({
        attempts: sql`attempts + 1`,
        last_attempt_at: now,
        last_status: outcome.status,
        last_error: outcome.ok ? null : truncate(outcome.error),
        ...(outcome.ok ? { status: 'delivered' as const, delivered_at: now } : {}),
        ...(status === undefined ? {} : { status }),
      })
      .where('seq', '=', message.seq)
      .execute()
  }

  /** Gives up on a message whose retries are spent: it fails, and its subscription is disabled. */
  async function disable(webhook: WebhooksTable, message: MessageRow, reason: string): Promise<void> {
    const now = clock.now()
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_messages')
        .set({ status: 'failed' })
        .where('seq', '=', message.seq)
        .where('status', '=', 'pending')
        .execute()
      const result = await trx
        .updateTable('webhooks')
        .set({
          status: 'disabled',
          disabled_reason: reason,
          updated_at: now,
          lease_owner: null,
          lease_until: 0,
          // Given up: the queue resumes after it when the subscription is enabled again.
          processed_seq: message.seq,
        })
        .where('id', '=', webhook.id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return
      await insertAuditEvent(trx, {
        organizationId: webhook.organization_id,
        at: now,
        action: 'webhook.disabled',
        actor: null,
        target: webhook.id,
        clientIp: null,
        details: { reason, delivery_id: `msg_${message.seq}` },
      })
    })
    logger.warn({ webhook: webhook.id, reason }, 'webhook disabled after its retries were spent')
  }

  /** Sends a claimed subscription's pending messages in order, until none is left or one fails. */
  async function deliver(claimed: WebhooksTable): Promise<void> {
    let webhook = claimed
    for (;;) {
      if (closed) return release(webhook.id)
      const message = (await db
        .selectFrom('webhook_messages')
        .selectAll()
        .where('webhook_id', '=', webhook.id)
        .where('seq', '>', webhook.processed_seq)
        .where('status', '=', 'pending')
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst()) as MessageRow | undefined
      if (message === undefined) return release(webhook.id, 0)
      const payload = await payloadOf(message)
      if (payload === null) {
        // Its source left the store (re-indexed from a later ledger): it can never be sent.
        await record(
          message,
          { ok: false, status: null, error: "the event's ledger is no longer stored", durationMs: 0 },
          'failed',
        )
        continue
      }
      const outcome = await attempt(webhook, message, payload)
      if (outcome.ok) {
        await record(message, outcome)
        const renewed = await renew(webhook.id, message.seq)
        if (renewed === null) return
        webhook = renewed
        continue
      }
      await record(message, outcome)
      const wait = retryDelayMs(deps.retryScheduleMs, message.attempts + 1)
      if (wait === null) {
        const reason = `delivery msg_${message.seq} failed ${message.attempts + 1} times; last: ${truncate(outcome.error)}`
        return disable(webhook, message, reason)
      }
      await release(webhook.id, clock.now() + wait)
      schedule(wait)
      return
    }
  }

  /** Claims and delivers until nothing is due, CONCURRENCY subscriptions at a time. */
  async function pass(): Promise<void> {
    do {
      again = false
      while (!closed && inFlight.size < CONCURRENCY) {
        const webhook = await claim()
        if (webhook === null) break
        const work: Promise<void> = deliver(webhook)
          .catch((error) =>
            logger.error({ err: error, webhook: webhook.id }, 'webhook delivery failed; retrying'),
          )
          .finally(() => {
            inFlight.delete(work)
            // A slot freed: another subscription may be waiting for it.
            wake()
          })
        inFlight.add(work)
      }
    } while (again && !closed)
  }

  function run(): void {
    if (closed || !deps.deliver) return
    if (running !== null) {
      again = true
      return
    }
    running = pass()
      .catch((error) => logger.warn({ err: error }, 'webhook dispatch: the outbox cannot be read; retrying'))
      .finally(() => {
        running = null
        schedule(deps.idleMs)
      })
  }

  /** The next pass in `ms` at the latest. */
  /**
   * The next pass in `ms` at the latest: an earlier pass already set (a retry that falls due
   * before the idle wait) is kept, so the end of a pass never pushes a retry back.
   */
  function schedule(ms: number): void {
    if (closed || !deps.deliver) return
    const at = Date.now() + Math.max(0, ms)
    if (timer !== null && timerAt <= at) return
    if (timer !== null) clearTimeout(timer)
    timerAt = at
    timer = setTimeout(() => {
      timer = null
      run()
    }, at - Date.now())
    timer.unref()
  }

  function wake(): void {
    run()
  }

  async function redeliver(webhookId: string, seq: number): Promise<MessageRow | null> {
    const message = (await db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('seq', '=', seq)
      .executeTakeFirst()) as MessageRow | undefined
    const webhook = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst()
    if (message === undefined || webhook === undefined) return null
    const payload = await payloadOf(message)
    const outcome: SendOutcome =
      payload === null
        ? { ok: false, status: null, error: "the event's ledger is no longer stored", durationMs: 0 }
        : await attempt(webhook, message, payload)
    await record(message, outcome)
    // A delivered head of the queue: the next message need not wait for the retry that was due.
    if (outcome.ok && message.status === 'pending') {
      await db.updateTable('webhooks').set({ next_attempt_at: 0 }).where('id', '=', webhookId).execute()
      wake()
    }
    return ((await db.selectFrom('webhook_messages').selectAll().where('seq', '=', seq).executeTakeFirst()) ??
      null) as MessageRow | null
  }

  schedule(0)
  return {
    wake,
    redeliver,
    async close() {
      closed = true
      if (timer !== null) clearTimeout(timer)
      await running
      await Promise.allSettled([...inFlight])
    },
  }
}
