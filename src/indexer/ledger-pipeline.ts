import { buildWatchedContracts, type DecodedLedger, type WatchedContracts } from '../chain/decode-ledger.ts'
import { type NetworkConfig, watchedContracts } from '../chain/network.ts'
import { adaptOracleLedger, createOracleMemory, type OracleMemory } from '../protocols/oracle/adapt-ledger.ts'
import { adaptVaultLedger, type VaultStateChange } from '../protocols/vaultprotocol/adapt-ledger.ts'
import type { Database } from '../store/db.ts'
import {
  getCheckpoint,
  getLedgerHash,
  type LedgerBatch,
  LedgerChainError,
  loadLatestPositions,
} from '../store/ledger-data.ts'
import type { LedgersTable, PricesTable } from '../store/schema.ts'
import {
  createVaultBook,
  parsePositions,
  type SnapshotRow,
  VAULT_PROTOCOL,
  type VaultBook,
} from './vault-book.ts'

/** Accounts whose current state stays cached between batches; the store holds the rest. */
export const DEFAULT_STATE_CACHE_ACCOUNTS = 50_000

/** A hole in the ledger stream: the source skipped or reordered ledgers. Never written past. */
export class LedgerGapError extends Error {
  constructor(expected: number, got: number) {
    super(`ledger gap: expected ledger ${expected}, got ${got}`)
    this.name = 'LedgerGapError'
  }
}

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

/** The contracts a network's adapters read; the oracles' instance storage holds their asset list and decimals. */
export function buildNetworkWatchList(network: NetworkConfig): WatchedContracts {
  return buildWatchedContracts(
    watchedContracts(network).map((c) => c.address),
    network.contracts.oracles.map((o) => o.address),
  )
}

export interface LedgerPipeline {
  /** The next ledger this pipeline accepts. */
  nextLedger(): number | null
  /**
   * Folds decoded ledgers, in order, into the pending batch, first loading from the store the
   * current state of accounts they touch that are not cached; throws LedgerGapError out of order.
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
  /** Accounts kept cached between batches (default DEFAULT_STATE_CACHE_ACCOUNTS). */
  stateCacheAccounts?: number
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
  const vaultContract = network.contracts.vaultprotocol.address
  const cacheBound = options.stateCacheAccounts ?? DEFAULT_STATE_CACHE_ACCOUNTS
  const oracles = new Map<string, OracleMemory>(
    network.contracts.oracles.map((o) => [o.address, createOracleMemory()]),
  )
  const book: VaultBook = createVaultBook()
  let committed = resume.checkpoint
  let last = resume.checkpoint
  let lastHash = resume.checkpointHash
  let batchPreviousHash: string | null = null
  let ledgers: LedgersTable[] = []
  let snapshots: SnapshotRow[] = []
  let prices: PricesTable[] = []
  let changeCount = 0

  async function addLedgers(decoded: readonly DecodedLedger[]): Promise<void> {
    const vaultChanges = decoded.map((ledger) => adaptVaultLedger(ledger, vaultContract))
    const missing = new Set<string>()
    for (const changes of vaultChanges) {
      for (const change of changes) if (!book.has(change.account)) missing.add(change.account)
    }
    if (missing.size > 0) {
      const addresses = [...missing]
      const stored = await loadLatestPositions(database, VAULT_PROTOCOL, addresses)
      for (const address of addresses) {
        const json = stored.get(address)
        book.load(address, json === undefined ? [] : parsePositions(json))
      }
    }
    decoded.forEach((ledger, i) => {
      addLedger(ledger, vaultChanges[i]!)
    })
  }

  function addLedger(ledger: DecodedLedger, vaultChanges: VaultStateChange[]): void {
    if (last !== null && ledger.sequence !== last + 1) throw new LedgerGapError(last + 1, ledger.sequence)
    // Within the pending batch the chain is checked here; against the store, by the writer.
    if (lastHash !== null && ledgers.length > 0 && ledger.previousHash !== lastHash) {
      throw new LedgerChainError(ledger.sequence, ledger.previousHash, lastHash)
    }
    if (ledgers.length === 0) batchPreviousHash = ledger.previousHash
    ledgers.push({ sequence: ledger.sequence, hash: ledger.hash, close_time: ledger.closeTime })
    for (const tx of ledger.transactions) {
      changeCount += tx.contractDataChanges.length + tx.events.length + tx.instanceChanges.length
    }
    for (const row of book.applyLedger(ledger.sequence, vaultChanges)) {
      snapshots.push(row)
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
      rates: [],
      prices,
      updatedAt,
    }
    committed = last
    ledgers = []
    snapshots = []
    prices = []
    changeCount = 0
    return batch
  }

  return {
    nextLedger: () => (last === null ? null : last + 1),
    addLedgers,
    committed: () => book.trim(cacheBound),
    pendingLedgers: () => ledgers.length,
    pendingChanges: () => changeCount,
    takeBatch,
  }
}
