import { sql } from 'kysely'
import { PASS_THROUGH, type SurfaceSerializers } from '../positions/answer-cache.ts'
import { standaloneCompiler, surfaceSerializers } from '../positions/serializers.ts'
import { answerSurface } from '../positions/surface-answer.ts'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import type { LendingGroup } from '../protocols/lendingprotocol/groups.ts'
import type { LendingPosition } from '../protocols/lendingprotocol/positions.ts'
import { findProtocol } from '../protocols/registry.ts'
import type { Database } from '../store/db.ts'
import type { PositionsReader } from '../store/positions-read.ts'

/**
 * The lending answers `health_factor.below` is judged on (src/push/health-crossings.ts): an
 * account's `/at/{ledger}` answer, the very one the API gives (`answerSurface` with `atPin`), its
 * pool groups' health factors judged, and the ledgers at which that answer can change.
 *
 * - **Only where something changed.** An account is answered at a range's start (the base the
 *   range is compared with), then at each ledger where one of the inputs of its last answer has a
 *   new row: its snapshot, or any contract entry or price the rendering read (recorded as it
 *   reads). Between two such ledgers the answer reads the same rows, so its health factors are the
 *   same. An answer without a borrow position changes only with a new snapshot.
 * - **Unknown is not a value.** A group whose health factor is null while it has borrow positions
 *   and a `usd_unavailable_reason` (a missing or stale price, a missing rate or factor) is unknown.
 *   A group with no debt (null without a reason, or no group at all) has a null health factor.
 */

export const LENDING = 'lendingprotocol'

export const UNKNOWN = Symbol('unknown')
export type Judged = string | null | typeof UNKNOWN

/** An account's answer at one ledger: each pool group's health factor (a pool absent: no debt). */
export interface Point {
  ledger: number
  closeTime: number | null
  pools: Map<string, Judged>
}

/** The inputs a rendering read: contract entries and prices, by key. */
export interface Inputs {
  states: Map<string, readonly [string, string]>
  prices: Map<string, readonly [string, string]>
}

/** A reader that records the contract entries and prices read through it. */
function recordingReader(reader: PositionsReader, inputs: Inputs): PositionsReader {
  return {
    ...reader,
    stateAt(contract, key, ledger) {
      inputs.states.set(`${contract}\u0000${key}`, [contract, key])
      return reader.stateAt(contract, key, ledger)
    },
    priceAt(oracle, asset, ledger) {
      inputs.prices.set(`${oracle}\u0000${asset}`, [oracle, asset])
      return reader.priceAt(oracle, asset, ledger)
    },
  }
}

export interface LendingAnswerData {
  positions: Array<Pick<LendingPosition, 'contract_address' | 'position_type'>>
  groups: Array<Pick<LendingGroup, 'contract_address' | 'health_factor' | 'usd_unavailable_reason'>>
}

/** The pool groups' health factors of one lending answer, judged (see above). */
export function judgeGroups(data: LendingAnswerData): Map<string, Judged> {
  const borrowing = new Set(
    data.positions.filter((p) => p.position_type === 'borrow').map((p) => p.contract_address),
  )
  const pools = new Map<string, Judged>()
  for (const group of data.groups) {
    const unknown =
      group.health_factor === null &&
      group.usd_unavailable_reason !== null &&
      borrowing.has(group.contract_address)
    pools.set(group.contract_address, unknown ? UNKNOWN : group.health_factor)
  }
  return pools
}

/** One account's judged answer at a ledger, and what its rendering read. */
export interface Judgement {
  pools: Map<string, Judged>
  inputs: Inputs
  /** Whether the answer has a borrow position (without one, only a new snapshot can change it). */
  borrows: boolean
}

/**
 * The evaluator's renderer: one account's `/at/{ledger}` lending answer, judged. It keeps each
 * account's judgement at the end of the last range judged (nothing changed between its last input
 * change and the range's end), which is the next range's base: an account whose inputs did not
 * change costs one statement per range. What it keeps is a function of the immutable history, the
 * network description and the price age, so it is dropped when either of those changes.
 */
export function createAnswerer(module: ProtocolModule = lendingModule()) {
  let serializers: SurfaceSerializers | undefined
  let context = ''
  let kept = new Map<string, { ledger: number; judgement: Judgement }>()
  return {
    async judge(deps: PositionsDeps, address: string, ledger: number): Promise<Judgement> {
      serializers ??= surfaceSerializers(standaloneCompiler())
      const inputs: Inputs = { states: new Map(), prices: new Map() }
      const reader = recordingReader(deps.reader, inputs)
      const answer = await answerSurface(
        module,
        { ...deps, reader },
        { address, pin: ledger, atPin: true },
        PASS_THROUGH,
        serializers,
      )
      const data = JSON.parse(answer.surface.data) as LendingAnswerData
      const borrows = data.positions.some((p) => p.position_type === 'borrow')
      return { pools: judgeGroups(data), inputs, borrows }
    },
    /** Starts a range at `from`: what is kept for another ledger or another context is dropped. */
    begin(deps: PositionsDeps, from: number): void {
      const now = `${deps.maxPriceAgeS}:${JSON.stringify(deps.network)}`
      const next = new Map<string, { ledger: number; judgement: Judgement }>()
      if (now === context) for (const [address, k] of kept) if (k.ledger === from) next.set(address, k)
      context = now
      kept = next
    },
    kept: (address: string, ledger: number) => {
      const k = kept.get(address)
      return k?.ledger === ledger ? k.judgement : undefined
    },
    keep(address: string, ledger: number, judgement: Judgement): void {
      kept.set(address, { ledger, judgement })
    },
  }
}

export type Answerer = ReturnType<typeof createAnswerer>

/**
 * The first ledger in (after, to] at which one of an answer's inputs has a new row: the account's
 * snapshot, and (when it borrows) the contract entries and prices its rendering read. One
 * statement of primary-key seeks.
 */
async function nextChange(
  db: Database['db'],
  address: string,
  inputs: Inputs | null,
  after: number,
  to: number,
): Promise<number | null> {
  const parts = [
    sql`SELECT MIN(ledger) AS l FROM snapshots
        WHERE protocol = ${LENDING} AND address = ${address} AND ledger > ${after} AND ledger <= ${to}`,
  ]
  for (const [contract, key] of inputs?.states.values() ?? []) {
    parts.push(sql`SELECT MIN(ledger) AS l FROM contract_state
        WHERE contract = ${contract} AND key = ${key} AND ledger > ${after} AND ledger <= ${to}`)
  }
  for (const [oracle, asset] of inputs?.prices.values() ?? []) {
    parts.push(sql`SELECT MIN(ledger) AS l FROM prices
        WHERE oracle = ${oracle} AND asset = ${asset} AND ledger > ${after} AND ledger <= ${to}`)
  }
  const { rows } = await sql<{ l: number | string | null }>`SELECT MIN(l) AS l FROM (${sql.join(
    parts,
    sql` UNION ALL `,
  )}) AS changes`.execute(db)
  const found = rows[0]?.l ?? null
  return found === null ? null : Number(found)
}

/** One account's answers over (from, to]: at `from`, then at each ledger where an input changed. */
export async function accountPoints(
  db: Database['db'],
  deps: PositionsDeps,
  answerer: Answerer,
  address: string,
  from: number,
  to: number,
): Promise<Point[]> {
  let judgement = answerer.kept(address, from) ?? (await answerer.judge(deps, address, from))
  // The base: only compared with, never sent (its close time is not needed).
  const points: Point[] = [{ ledger: from, closeTime: null, pools: judgement.pools }]
  let after = from
  for (;;) {
    const next = await nextChange(db, address, judgement.borrows ? judgement.inputs : null, after, to)
    if (next === null) break
    judgement = await answerer.judge(deps, address, next)
    points.push({ ledger: next, closeTime: await deps.reader.closeTime(next), pools: judgement.pools })
    after = next
  }
  answerer.keep(address, to, judgement)
  return points
}

function lendingModule(): ProtocolModule {
  const module = findProtocol(LENDING)
  if (module === undefined) throw new Error('the lending module is not registered')
  return module
}
