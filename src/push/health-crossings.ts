import { sql } from 'kysely'
import { Type } from 'typebox'
import type { Awaitable } from '../awaitable.ts'
import type { Clock } from '../clock.ts'
import type { Logger } from '../logger.ts'
import { closedAt } from '../positions/answer.ts'
import type { PositionsDeps } from '../protocols/kit/protocol-module.ts'
import { named } from '../protocols/kit/response-schema.ts'
import type { Database } from '../store/db.ts'
import { getCheckpoint } from '../store/ledger-data.ts'
import type { PositionsReader } from '../store/positions-read.ts'
import type { WebhooksTable } from '../store/schema.ts'
import { WEBHOOK_CHANNEL } from '../store/webhook-outbox.ts'
import {
  type Answerer,
  accountPoints,
  createAnswerer,
  type Judged,
  LENDING,
  type Point,
  UNKNOWN,
} from './health-answers.ts'

/**
 * The `health_factor.below` event: a Blend pool group of a watched account crossing its
 * subscription's threshold, each way a message (`direction` `below`; `above` when it is back at or
 * over it, or has no debt left). A health factor moves with prices and rates as well as positions,
 * so it is judged after the indexer's commit (not in its transaction, store/webhook-outbox.ts), by
 * this evaluator, which runs in every `strata serve` process and acts once per ledger across them.
 *
 * - **A cursor.** The `indexer_state` row `webhooks_health` holds the last ledger judged. A pass
 *   takes the next range (cursor, min(checkpoint, cursor + RANGE)], judges it from the store (the
 *   history at or below the checkpoint never changes), then in ONE transaction advances the cursor
 *   with a conditional update (`WHERE last_ledger = <the cursor read>`, the row locked first on
 *   PostgreSQL) and inserts the range's messages with their bodies (`payload`) already written.
 *   A crash before the commit judges the range again; a process that loses the update writes
 *   nothing. No event is lost or written twice. At first start (no cursor) judging starts at the
 *   checkpoint: history is not replayed. Without any enabled subscription to the event the cursor
 *   only follows the checkpoint, so a subscription made later is judged from its creation on.
 * - **The same answer as the API.** Each health factor is the one the `/at/{ledger}` lending answer
 *   gives at that ledger, judged only where one of that answer's inputs changed
 *   (src/push/health-answers.ts): the module's own rendering, never a second formula.
 * - **Unknown is not a crossing.** A health factor unknown at a ledger (a price or rate missing) is
 *   passed over: the last known value stands until a value is known again. A group with no debt
 *   (a null health factor) counts as at or above any threshold.
 *
 * A subscription with `addresses` null is judged over every account that has a lending snapshot,
 * and costs accordingly; one with explicit addresses is judged over those accounts only.
 */

export const HEALTH_FACTOR_BELOW = 'health_factor.below'
/** The evaluator's cursor in `indexer_state`. */
export const HEALTH_CURSOR = 'webhooks_health'
/** The most ledgers judged in one transaction. */
export const RANGE = 100
/** Messages per INSERT statement (well under either store's parameter limit). */
const INSERT_CHUNK = 400
/** A health factor and a threshold both have 7 decimals. */
const DECIMALS = 7

const HealthFactor = Type.Union([Type.String({ pattern: '^[0-9]+\\.[0-9]{7}$' }), Type.Null()])

/** The `health_factor.below` payload, as the OpenAPI document names and describes it. */
export const HealthFactorCrossingEvent = named(
  'HealthFactorCrossingEvent',
  Type.Object({
    type: Type.Literal(HEALTH_FACTOR_BELOW, {
      description: 'The kind of event',
      examples: [HEALTH_FACTOR_BELOW],
    }),
    address: Type.String({
      description: 'The watched account whose pool group crossed the threshold (G... or C...)',
      examples: ['GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD'],
    }),
    protocol: Type.Literal(LENDING, { description: 'The protocol of the pool group', examples: [LENDING] }),
    ledger: Type.Integer({ description: 'The ledger at which the health factor crossed', examples: [3055] }),
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "The ledger's close time (null when the store lacks it)",
      examples: ['2025-01-01T04:14:35.000Z'],
    }),
    pool: Type.String({
      description: "The pool's contract (C...): the group's `contract_address` in the lending answer",
      examples: ['CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'],
    }),
    direction: Type.Union([Type.Literal('below'), Type.Literal('above')], {
      description:
        '`below`: the health factor went under the threshold; `above`: it is back at or over it, or the debt is gone',
      examples: ['below'],
    }),
    threshold: Type.String({ description: "The subscription's threshold", examples: ['1.1000000'] }),
    health_factor: { ...HealthFactor, description: 'The health factor at `ledger` (null: no debt)' },
    previous_health_factor: {
      ...HealthFactor,
      description: 'The health factor judged before (null: no debt)',
    },
  }),
)

/** What the evaluator reads and where it reports. */
export interface HealthCrossingsDeps {
  database: Database
  reader: PositionsReader
  /** The dependencies of a data answer (network description, price age, time). */
  deps: () => Awaitable<PositionsDeps>
  logger: Logger
  clock: Clock
  /** The longest wait between two passes when nothing wakes the evaluator. */
  idleMs: number
  /** Called after a committed range wrote messages (wakes the dispatcher). */
  onMessages?: (count: number) => void
}

/** A subscription to the event, as judged. */
interface Watcher {
  id: string
  updatedAt: number
  /** null: every account with a lending snapshot. */
  addresses: readonly string[] | null
  threshold: bigint
  thresholdText: string
}

/** A message to write, with its body. */
export interface CrossingMessage {
  webhookId: string
  ledger: number
  address: string
  pool: string
  direction: 'below' | 'above'
  payload: string
}

/** What one pass did: the range judged and the messages it wrote (null: nothing to judge, or lost). */
export interface JudgedRange {
  from: number
  to: number
  written: number
}

/** A threshold ("1.1") as an integer with 7 decimals; null when it is not such a number. */
export function parseFixed7(text: string): bigint | null {
  const match = /^([0-9]+)(?:\.([0-9]{1,7}))?$/.exec(text)
  if (match === null) return null
  return BigInt(match[1]!) * 10n ** BigInt(DECIMALS) + BigInt((match[2] ?? '').padEnd(DECIMALS, '0'))
}

const fixed7Text = (value: bigint) => {
  const scale = 10n ** BigInt(DECIMALS)
  return `${value / scale}.${(value % scale).toString().padStart(DECIMALS, '0')}`
}

type SubscriptionRow = Pick<
  WebhooksTable,
  'id' | 'events' | 'addresses' | 'protocols' | 'health_factor_threshold'
> & {
  updated_at: number | string
}

/** The enabled subscriptions to the event that can be judged (lending among their protocols). */
async function readWatchers(db: Database['db'], logger: Logger): Promise<Watcher[]> {
  const rows = (await db
    .selectFrom('webhooks')
    .select(['id', 'updated_at', 'events', 'addresses', 'protocols', 'health_factor_threshold'])
    .where('status', '=', 'enabled')
    .where('events', 'like', `%"${HEALTH_FACTOR_BELOW}"%`)
    .orderBy('id')
    .execute()) as SubscriptionRow[]
  const out: Watcher[] = []
  for (const row of rows) {
    if (!(JSON.parse(row.events) as string[]).includes(HEALTH_FACTOR_BELOW)) continue
    if (row.protocols !== null && !(JSON.parse(row.protocols) as string[]).includes(LENDING)) continue
    const threshold = row.health_factor_threshold === null ? null : parseFixed7(row.health_factor_threshold)
    if (threshold === null) {
      logger.warn({ webhook: row.id }, 'health_factor.below without a valid threshold: not judged')
      continue
    }
    out.push({
      id: row.id,
      updatedAt: Number(row.updated_at),
      addresses: row.addresses === null ? null : (JSON.parse(row.addresses) as string[]),
      threshold,
      thresholdText: fixed7Text(threshold),
    })
  }
  return out
}

const signature = (watchers: readonly Watcher[]) => watchers.map((w) => `${w.id}@${w.updatedAt}`).join(',')

/** Every account with a lending snapshot at or before `to` (for subscriptions to every account). */
async function lendingAccounts(db: Database['db'], to: number): Promise<string[]> {
  const rows = await db
    .selectFrom('snapshots')
    .select('address')
    .distinct()
    .where('protocol', '=', LENDING)
    .where('ledger', '<=', to)
    .orderBy('address')
    .execute()
  return rows.map((r) => r.address)
}

/** The crossings of one subscription's threshold along one account's answers (the first is the base). */
export function crossingsOf(
  watcher: Pick<Watcher, 'id' | 'threshold' | 'thresholdText'>,
  address: string,
  points: readonly Point[],
): CrossingMessage[] {
  const out: CrossingMessage[] = []
  const below = (value: string | null) => value !== null && (parseFixed7(value) ?? 0n) < watcher.threshold
  const last = new Map<string, Judged>(points[0]?.pools ?? [])
  for (const point of points.slice(1)) {
    const pools = [...new Set([...last.keys(), ...point.pools.keys()])].sort()
    for (const pool of pools) {
      const now = point.pools.get(pool) ?? null
      if (now === UNKNOWN) continue
      const before = last.get(pool) ?? null
      last.set(pool, now)
      if (before === UNKNOWN || below(before) === below(now)) continue
      const direction = below(now) ? 'below' : 'above'
      const payload = {
        type: HEALTH_FACTOR_BELOW,
        address,
        protocol: LENDING,
        ledger: point.ledger,
        closed_at: closedAt(point.closeTime),
        pool,
        direction,
        threshold: watcher.thresholdText,
        health_factor: now,
        previous_health_factor: before,
      }
      out.push({
        webhookId: watcher.id,
        ledger: point.ledger,
        address,
        pool,
        direction,
        payload: JSON.stringify(payload),
      })
    }
  }
  return out
}

/** Every subscription's crossings over (from, to], in ledger, account, pool, subscription order. */
async function judgeRange(
  database: Database,
  deps: PositionsDeps,
  answerer: Answerer,
  watchers: readonly Watcher[],
  from: number,
  to: number,
): Promise<CrossingMessage[]> {
  const everyone = watchers.some((w) => w.addresses === null)
  const accounts = new Set<string>(everyone ? await lendingAccounts(database.db, to) : [])
  for (const w of watchers) for (const a of w.addresses ?? []) accounts.add(a)
  const watched = watchers.map((w) => (w.addresses === null ? null : new Set(w.addresses)))
  answerer.begin(deps, from)
  const messages: CrossingMessage[] = []
  for (const address of [...accounts].sort()) {
    const points = await accountPoints(database.db, deps, answerer, address, from, to)
    if (points.length < 2) continue
    for (const [i, w] of watchers.entries()) {
      if (watched[i] !== null && !watched[i]!.has(address)) continue
      messages.push(...crossingsOf(w, address, points))
    }
  }
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
  return messages.sort(
    (a, b) =>
      a.ledger - b.ledger ||
      cmp(a.address, b.address) ||
      cmp(a.pool, b.pool) ||
      cmp(a.webhookId, b.webhookId),
  )
}

/** A range not committed: `moved`, another process judged it; `changed`, its subscriptions changed. */
class Abandoned extends Error {
  outcome: 'moved' | 'changed'
  constructor(outcome: 'moved' | 'changed') {
    super(outcome)
    this.outcome = outcome
  }
}

/**
 * Advances the cursor from `from` to `to` and writes `messages`, in one transaction, unless the
 * cursor is no longer at `from` or the subscriptions judged (`judgedFor`, their signature) changed.
 */
async function commitRange(
  deps: HealthCrossingsDeps,
  from: number,
  to: number,
  messages: readonly CrossingMessage[],
  judgedFor: string | null,
): Promise<'committed' | 'moved' | 'changed'> {
  const { database, clock, logger } = deps
  const now = clock.now()
  try {
    await database.db.transaction().execute(async (trx) => {
      if (database.kind === 'postgres') {
        const { rows } = await sql<{ last_ledger: number | string }>`SELECT last_ledger FROM indexer_state
          WHERE name = ${HEALTH_CURSOR} FOR UPDATE`.execute(trx)
        if (rows.length !== 1 || Number(rows[0]!.last_ledger) !== from) throw new Abandoned('moved')
      }
      const moved = await trx
        .updateTable('indexer_state')
        .set({ last_ledger: to, updated_at: now })
        .where('name', '=', HEALTH_CURSOR)
        .where('last_ledger', '=', from)
        .executeTakeFirst()
      if (Number(moved.numUpdatedRows) !== 1) throw new Abandoned('moved')
      if (judgedFor !== null && signature(await readWatchers(trx, logger)) !== judgedFor)
        throw new Abandoned('changed')
      for (let i = 0; i < messages.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('webhook_messages')
          .values(
            messages.slice(i, i + INSERT_CHUNK).map((m) => ({
              webhook_id: m.webhookId,
              type: HEALTH_FACTOR_BELOW,
              ledger: m.ledger,
              address: m.address,
              protocol: LENDING,
              ref: `${m.pool}:${m.direction}`,
              payload: m.payload,
              status: 'pending' as const,
              attempts: 0,
              created_at: now,
            })),
          )
          .execute()
      }
      // Delivered at the commit, to every process's dispatcher (never for a rolled-back range).
      if (messages.length > 0 && database.kind === 'postgres')
        await sql`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`.execute(trx)
    })
    return 'committed'
  } catch (error) {
    if (error instanceof Abandoned) return error.outcome
    throw error
  }
}

/**
 * Judges the next range and commits it (see the module's comment). Returns the range and how many
 * messages it wrote; null when there was nothing to judge or another process judged it first.
 */
export async function judgeNextRange(
  deps: HealthCrossingsDeps,
  answerer: Answerer = createAnswerer(),
): Promise<JudgedRange | null> {
  const { database, logger } = deps
  for (let attempt = 0; attempt < 3; attempt++) {
    const watchers = await readWatchers(database.db, logger)
    const cursor = await getCheckpoint(database, HEALTH_CURSOR)
    // Nobody watches and nothing was ever judged: nothing to read or write.
    if (cursor === null && watchers.length === 0) return null
    const checkpoint = await getCheckpoint(database)
    if (checkpoint === null) return null
    if (cursor === null) {
      // First start: judged from the checkpoint on, history is not replayed.
      await database.db
        .insertInto('indexer_state')
        .values({
          name: HEALTH_CURSOR,
          last_ledger: checkpoint,
          first_ledger: checkpoint,
          updated_at: deps.clock.now(),
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute()
      return null
    }
    if (cursor === checkpoint) return null
    // Nothing to judge (no subscription), or a store indexed again below the cursor: follow the checkpoint.
    if (watchers.length === 0 || cursor > checkpoint) {
      const outcome = await commitRange(deps, cursor, checkpoint, [], null)
      return outcome === 'committed' ? { from: cursor, to: checkpoint, written: 0 } : null
    }
    const to = Math.min(checkpoint, cursor + RANGE)
    const positionsDeps = await deps.deps()
    // Without the network description every answer is empty: nothing can be judged yet.
    if (positionsDeps.network === null) return null
    const messages = await judgeRange(database, positionsDeps, answerer, watchers, cursor, to)
    const outcome = await commitRange(deps, cursor, to, messages, signature(watchers))
    if (outcome === 'moved') return null
    if (outcome === 'committed') return { from: cursor, to, written: messages.length }
  }
  return null
}

export interface HealthCrossings {
  /** Runs a pass now (a commit, or a notification). */
  wake(): void
  /** Stops, after the range being judged. */
  close(): Promise<void>
}

/**
 * The evaluator of one process: a pass judges ranges until the cursor reaches the checkpoint. Woken
 * like the dispatcher (the in-process indexer's commits, PostgreSQL's NOTIFY) and otherwise every
 * `idleMs`.
 */
export function createHealthCrossings(deps: HealthCrossingsDeps): HealthCrossings {
  const answerer = createAnswerer()
  let closed = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let again = false

  async function pass(): Promise<void> {
    do {
      again = false
      for (;;) {
        if (closed) return
        const judged = await judgeNextRange(deps, answerer)
        if (judged === null) break
        if (judged.written > 0) deps.onMessages?.(judged.written)
      }
    } while (again && !closed)
  }

  function run(): void {
    if (closed) return
    if (running !== null) {
      again = true
      return
    }
    running = pass()
      .catch((error) => deps.logger.warn({ err: error }, 'health_factor.below: judging failed; retrying'))
      .finally(() => {
        running = null
        schedule(deps.idleMs)
      })
  }

  function schedule(ms: number): void {
    if (closed) return
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(run, Math.max(0, ms))
    timer.unref()
  }

  schedule(0)
  return {
    wake: run,
    async close() {
      closed = true
      if (timer !== null) clearTimeout(timer)
      await running
    },
  }
}
