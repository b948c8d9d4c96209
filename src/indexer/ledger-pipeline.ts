import { buildWatchedContracts, type DecodedLedger, type WatchedContracts } from '../chain/decode-ledger.ts'
import { checkNextLedger } from '../chain/ledger-continuity.ts'
import type { NetworkConfig } from '../chain/network.ts'
import {
  type AccountGroupChange,
  ITEM_LEDGER_FIELD,
  type ProtocolActivity,
  type ProtocolAdapter,
  type ProtocolModule,
  type StoredItem,
} from '../protocols/kit/protocol-module.ts'
import { adaptOracleLedger, createOracleMemory, type OracleMemory } from '../protocols/oracle/adapt-ledger.ts'
import { PROTOCOLS } from '../protocols/registry.ts'
import { type ActivityRows, buildActivityRows, emptyActivityRows } from '../store/activities.ts'
import type { Database } from '../store/db.ts'
import {
  type ContractStateRow,
  getCheckpoint,
  getLedgerHash,
  type LedgerBatch,
  loadLatestPositions,
  loadLatestStates,
} from '../store/ledger-data.ts'
import type { LedgersTable, PricesTable, SnapshotsTable } from '../store/schema.ts'
import { type AccountBook, createAccountBook } from './account-book.ts'

/** Accounts whose current state stays cached between batches; the store holds the rest. */
export const DEFAULT_STATE_CACHE_ACCOUNTS = 50_000

/**
 * Where ingestion stands in the store: the checkpoint and its hash. Two reads whatever the history:
 * protocol state is loaded per account when a ledger touches it, so resuming costs the same at ten
 * ledgers or ten million.
 */
export interface IndexerResumePoint {
  checkpoint: number | null
  /** Hash of the checkpoint ledger (lowercase hex): the next ledger must name it as its predecessor. */
  checkpointHash: string | null
}

export async function loadResumePoint(database: Database): Promise<IndexerResumePoint> {
  const checkpoint = await getCheckpoint(database)
  const checkpointHash = checkpoint === null ? null : await getLedgerHash(database, checkpoint)
  return { checkpoint, checkpointHash }
}

/**
 * The contracts a network's protocol modules and oracles read, and those whose instance storage is
 * decoded: the oracles' (asset list, decimals) and whatever each module names.
 */
export function buildNetworkWatchList(network: NetworkConfig, modules = PROTOCOLS): WatchedContracts {
  const oracles = network.contracts.oracles.map((o) => o.address)
  const listed = [...modules.flatMap((m) => m.contracts(network).map((c) => c.address)), ...oracles]
  // Entries of a few holders in contracts nothing else watches (a vault's balance of its asset).
  const holders: Record<string, string[]> = {}
  for (const m of modules) {
    for (const [contract, list] of Object.entries(m.holderEntries?.(network) ?? {})) {
      if (listed.includes(contract)) continue
      holders[contract] = [...new Set([...(holders[contract] ?? []), ...list])]
    }
  }
  return buildWatchedContracts(
    [...new Set([...listed, ...Object.keys(holders)])],
    [...oracles, ...modules.flatMap((m) => m.instanceStorage(network))],
    holders,
    network.passphrase,
  )
}

/** Stored items of a snapshot, with the ledger each last changed at split off. */
function parseStoredItems(module: ProtocolModule, json: string) {
  return (JSON.parse(json) as StoredItem[]).map((stored) => {
    const { [ITEM_LEDGER_FIELD]: ledger, ...value } = stored
    return { key: module.itemKey(stored), value, ledger: Number(ledger) }
  })
}

function stateId(contract: string, key: string): string {
  return `${contract}\u0000${key}`
}

export interface LedgerPipeline {
  /** The next ledger this pipeline accepts. */
  nextLedger(): number | null
  /**
   * Folds decoded ledgers, in order, into the pending batch, first loading from the store the
   * current state of accounts they touch that are not cached; throws LedgerContinuityError for a
   * ledger that does not follow the last one.
   */
  addLedgers(ledgers: readonly DecodedLedger[]): Promise<void>
  pendingLedgers(): number
  /** Contract-data changes and events seen since the last batch was taken. */
  pendingChanges(): number
  /** The pending rows as one batch; resets the pending rows. */
  takeBatch(updatedAt: number): LedgerBatch | null
  /** The last batch taken is committed: the state cache may forget accounts beyond its bound. */
  committed(): void
}

export interface LedgerPipelineOptions {
  /** Accounts kept cached between batches, per protocol (default DEFAULT_STATE_CACHE_ACCOUNTS). */
  stateCacheAccounts?: number
  /** The protocol modules to run (default: every registered one). */
  modules?: readonly ProtocolModule[]
}

/**
 * Adapters and the protocol state cache between the decoder and the writer. Once a batch taken from
 * it fails to commit, the pipeline is ahead of the store: discard it and load a fresh resume point.
 */
export function createLedgerPipeline(
  database: Database,
  network: NetworkConfig,
  resume: IndexerResumePoint,
  options: LedgerPipelineOptions = {},
): LedgerPipeline {
  const cacheBound = options.stateCacheAccounts ?? DEFAULT_STATE_CACHE_ACCOUNTS
  const modules = options.modules ?? PROTOCOLS
  const protocols: Array<{ module: ProtocolModule; adapter: ProtocolAdapter; book: AccountBook }> = modules
    .filter((m) => m.contracts(network).length > 0)
    .map((module) => ({
      module,
      adapter: module.createAdapter(network),
      book: createAccountBook(module.name),
    }))
  const oracles = new Map<string, OracleMemory>(
    network.contracts.oracles.map((o) => [o.address, createOracleMemory()]),
  )
  // The last value of every contract-state entry seen: a handful per contract, never per account.
  const states = new Map<string, string>()
  let committed = resume.checkpoint
  let last = resume.checkpoint
  let lastHash = resume.checkpointHash
  let batchPreviousHash: string | null = null
  let ledgers: LedgersTable[] = []
  let snapshots: SnapshotsTable[] = []
  let stateRows: ContractStateRow[] = []
  let prices: PricesTable[] = []
  let activity: ActivityRows = emptyActivityRows()
  let changeCount = 0

  async function addLedgers(decoded: readonly DecodedLedger[]): Promise<void> {
    const facts = protocols.map(({ adapter }) => decoded.map((ledger) => adapter.adaptLedger(ledger)))
    await Promise.all(
      protocols.map(async ({ module, book }, p) => {
        const missing = new Set<string>()
        for (const perLedger of facts[p]!) {
          for (const change of perLedger.accounts) if (!book.has(change.account)) missing.add(change.account)
        }
        if (missing.size === 0) return
        const addresses = [...missing]
        const stored = await loadLatestPositions(database, module.name, addresses)
        for (const address of addresses) {
          const json = stored.get(address)
          book.load(address, json === undefined ? [] : parseStoredItems(module, json))
        }
      }),
    )
    const unseen = new Map<string, { contract: string; key: string }>()
    for (const perProtocol of facts) {
      for (const perLedger of perProtocol) {
        for (const s of perLedger.states) {
          const id = stateId(s.contract, s.key)
          if (!states.has(id)) unseen.set(id, { contract: s.contract, key: s.key })
        }
      }
    }
    if (unseen.size > 0) {
      const stored = await loadLatestStates(database, [...unseen.values()])
      for (const [id, { contract, key }] of unseen) {
        const value = stored.get(stateId(contract, key))
        if (value !== undefined) states.set(id, value)
      }
    }
    decoded.forEach((ledger, i) => {
      addLedger(
        ledger,
        facts.map((perProtocol) => perProtocol[i]!),
      )
    })
  }

  function addLedger(
    ledger: DecodedLedger,
    facts: Array<{
      accounts: AccountGroupChange[]
      states: { contract: string; key: string; value: unknown }[]
      activities?: ProtocolActivity[]
    }>,
  ): void {
    // Within the pending batch the hash chain is checked here; against the store, by the writer.
    checkNextLedger(
      last === null ? null : { sequence: last, ...(ledgers.length > 0 ? { hash: lastHash } : {}) },
      ledger,
    )
    if (ledgers.length === 0) batchPreviousHash = ledger.previousHash
    ledgers.push({ sequence: ledger.sequence, hash: ledger.hash, close_time: ledger.closeTime })
    for (const tx of ledger.transactions) {
      changeCount += tx.contractDataChanges.length + tx.events.length + tx.instanceChanges.length
    }
    protocols.forEach(({ book }, p) => {
      for (const row of book.applyLedger(ledger.sequence, facts[p]!.accounts)) snapshots.push(row)
    })
    // A contract-state entry is written when its value differs from the last one written (the last
    // write of a ledger stands: one row per entry and ledger).
    const written = new Map<string, ContractStateRow>()
    for (const perProtocol of facts) {
      for (const s of perProtocol.states) {
        const id = stateId(s.contract, s.key)
        const value = JSON.stringify(s.value)
        written.delete(id)
        written.set(id, { contract: s.contract, key: s.key, ledger: ledger.sequence, value })
      }
    }
    for (const [id, row] of written) {
      if (states.get(id) === row.value) continue
      states.set(id, row.value)
      stateRows.push(row)
    }
    for (const [oracle, memory] of oracles) {
      for (const update of adaptOracleLedger(ledger, oracle, memory)) {
        prices.push({
          oracle,
          asset: update.asset,
          ledger: ledger.sequence,
          price: update.price.toString(),
          decimals: update.decimals,
          timestamp_ms: update.timestampMs,
        })
      }
    }
    buildActivityRows(
      ledger,
      facts.flatMap((f) => f.activities ?? []),
      activity,
    )
    last = ledger.sequence
    lastHash = ledger.hash
  }

  function takeBatch(updatedAt: number): LedgerBatch | null {
    if (ledgers.length === 0 || last === null || batchPreviousHash === null) return null
    const batch: LedgerBatch = {
      previousLedger: committed,
      previousHash: batchPreviousHash,
      lastLedger: last,
      ledgers,
      snapshots,
      states: stateRows,
      prices,
      activity,
      updatedAt,
    }
    committed = last
    ledgers = []
    snapshots = []
    stateRows = []
    prices = []
    activity = emptyActivityRows()
    changeCount = 0
    return batch
  }

  return {
    nextLedger: () => (last === null ? null : last + 1),
    addLedgers,
    committed: () => {
      for (const { book } of protocols) book.trim(cacheBound)
    },
    pendingLedgers: () => ledgers.length,
    pendingChanges: () => changeCount,
    takeBatch,
  }
}
