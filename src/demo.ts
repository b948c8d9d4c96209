import { createApiKey } from './auth/create-api-key.ts'
import { type Devnet, startDevnet } from './chain/devnet/index.ts'
import type { NetworkConfig } from './chain/network.ts'
import { createIndexer, type Indexer } from './indexer/index.ts'
import type { Logger } from './logger.ts'
import type { Database } from './store/db.ts'

/** The demo world: small enough to index in seconds, busy enough to show every case. */
export const DEMO_DEVNET = {
  seed: 'strata-demo',
  ledgers: 3000,
  accounts: 300,
  closeIntervalMs: 5000,
} as const

export interface RunningIndexer {
  indexer: Indexer
  stop(): Promise<void>
}

/**
 * Ledgers per write transaction, and per getLedgers page, when the indexer shares the process with
 * the API: on SQLite a batch is written on the API's event loop, so shorter batches and pages keep
 * requests from queueing behind them while the indexer catches up (bench:embedded).
 */
export const EMBEDDED_BATCH_SIZE = 100
export const EMBEDDED_PAGE_SIZE = 50

/**
 * Runs the indexer in this process until stopped: the embedded deployment. Transient failures are
 * retried inside `run`; a fatal one is logged and ends ingestion, the API keeps serving.
 */
export function runIndexerInBackground(options: {
  database: Database
  logger: Logger
  rpcUrl: string
  network: NetworkConfig
}): RunningIndexer {
  const indexer = createIndexer({ ...options, batchSize: EMBEDDED_BATCH_SIZE, pageSize: EMBEDDED_PAGE_SIZE })
  const controller = new AbortController()
  const running = indexer.run(controller.signal).catch((error: unknown) => {
    options.logger.error({ err: error }, 'indexer stopped')
  })
  return {
    indexer,
    async stop() {
      controller.abort()
      await running
    },
  }
}

export interface Demo {
  devnet: Devnet
  indexer: RunningIndexer
  close(): Promise<void>
}

/** Starts the simulated network and catches the indexer up to its head before the API opens. */
export async function startDemoNetwork(database: Database, logger: Logger): Promise<Demo> {
  // The demo's history ends now, so staleness figures read as they would on a live network.
  const genesisCloseTimeS = Math.floor(Date.now() / 1000) - DEMO_DEVNET.ledgers * 5
  const devnet = await startDevnet({ ...DEMO_DEVNET, genesisCloseTimeS })
  const catchUp = createIndexer({ database, logger, rpcUrl: devnet.url, network: devnet.network })
  await catchUp.syncTo(devnet.latestLedger())
  const indexer = runIndexerInBackground({ database, logger, rpcUrl: devnet.url, network: devnet.network })
  return {
    devnet,
    indexer,
    async close() {
      await indexer.stop()
      await devnet.close()
    },
  }
}

/** A ready key for the demo organization, created afresh at each start (keys are shown once). */
export async function createDemoKey(database: Database, pepper: string): Promise<string> {
  const created = await createApiKey(database.db, pepper, Date.now(), {
    organizationName: 'Demo',
    organizationSlug: 'demo',
    keyName: `demo ${new Date().toISOString()}`,
    scopes: ['data:read'],
    expiresAt: null,
  })
  return created.key
}
