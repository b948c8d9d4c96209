import { buildWatchedContracts, type DecodedLedger, type WatchedContracts } from '../chain/decode-ledger.ts'
import { type NetworkConfig, watchedContracts } from '../chain/network.ts'
import { adaptOracleLedger, createOracleMemory, type OracleMemory } from '../protocols/oracle/adapt-ledger.ts'
import { adaptVaultLedger } from '../protocols/vaultprotocol/adapt-ledger.ts'
import type { Database } from '../store/db.ts'
import {
  getCheckpoint,
  getLedgerHash,
  type LedgerBatch,
  LedgerChainError,
  listLatestSnapshots,
} from '../store/ledger-data.ts'
import type { LedgersTable, PricesTable } from '../store/schema.ts'
import {
  createVaultBook,
  parsePositions,
  type SnapshotRow,
  VAULT_PROTOCOL,
  type VaultBook,
  type VaultBookState,
  type VaultPosition,
} from './vault-book.ts'

/** A hole in the ledger stream: the source skipped or reordered ledgers. Never written past. */
export class LedgerGapError extends Error {
  constructor(expected: number, got: number) {
    super(`ledger gap: expected ledger ${expected}, got ${got}`)
    this.name = 'LedgerGapError'
  }
}

/** Where ingestion stands in the store: the checkpoint, its hash and the protocol state at it. */
export interface IndexerResumePoint {
  checkpoint: number | null
  /** Hash of the checkpoint ledger (lowercase hex): the next ledger must name it as its predecessor. */
  checkpointHash: string | null
  vaults: VaultBookState
}

export async function loadResumePoint(database: Database): Promise<IndexerResumePoint> {
  const checkpoint = await getCheckpoint(database)
  const accounts = new Map<string, Map<string, VaultPosition>>()
  for (const row of await listLatestSnapshots(database, VAULT_PROTOCOL)) {
    const positions = parsePositions(row.positions)
    if (positions.length === 0) continue
    accounts.set(row.address, new Map(positions.map((p) => [p.denomination, p])))
  }
  const checkpointHash = checkpoint === null ? null : await getLedgerHash(database, checkpoint)
  return { checkpoint, checkpointHash, vaults: { accounts } }
}

/** The contracts a network's adapters read. */
export function buildNetworkWatchList(network: NetworkConfig): WatchedContracts {
  return buildWatchedContracts(watchedContracts(network).map((c) => c.address))
}

export interface LedgerPipeline {
  /** The next ledger this pipeline accepts. */
  nextLedger(): number | null
  /** Folds one decoded ledger into the pending batch; throws LedgerGapError out of order. */
  addLedger(ledger: DecodedLedger): void
  pendingLedgers(): number
  /** Contract-data changes and events seen since the last batch was taken. */
  pendingChanges(): number
  /** The pending rows as one batch; resets the pending rows. */
  takeBatch(updatedAt: number): LedgerBatch | null
}

/**
 * Adapters and in-memory protocol state between the decoder and the writer. Once a batch taken from
 * it fails to commit, the pipeline is ahead of the store: discard it and load a fresh resume point.
 */
export function createLedgerPipeline(network: NetworkConfig, resume: IndexerResumePoint): LedgerPipeline {
  const vaultContract = network.contracts.vaultprotocol.address
  const oracles = new Map<string, OracleMemory>(
    network.contracts.oracles.map((o) => [o.address, createOracleMemory()]),
  )
  const book: VaultBook = createVaultBook(resume.vaults)
  let committed = resume.checkpoint
  let last = resume.checkpoint
  let lastHash = resume.checkpointHash
  let batchPreviousHash: string | null = null
  let ledgers: LedgersTable[] = []
  let snapshots: SnapshotRow[] = []
  let prices: PricesTable[] = []
  let changeCount = 0

  function addLedger(ledger: DecodedLedger): void {
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
    for (const row of book.applyLedger(ledger.sequence, adaptVaultLedger(ledger, vaultContract))) {
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
    addLedger,
    pendingLedgers: () => ledgers.length,
    pendingChanges: () => changeCount,
    takeBatch,
  }
}
