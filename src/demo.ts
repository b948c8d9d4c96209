import { readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { DemoAccount } from './api/routes/demo.ts'
import { createApiKey } from './auth/create-api-key.ts'
import type { NetworkConfig } from './chain/network.ts'
import { type Devnet, startDevnet } from './devnet/devnet.ts'
import type { HealthBoard } from './health.ts'
import { createIndexer, type Indexer, type IndexerOptions } from './indexer/index.ts'
import type { Logger } from './logger.ts'
import type { CommitSignal } from './push/commit-signal.ts'
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
 * Runs the indexer in this process until stopped: the embedded deployment. Transient failures, and
 * the loss of the PostgreSQL indexer lock, are retried inside `run` (the health board shows them); a
 * fatal one is logged and ends ingestion, the API keeps serving.
 */
export function runIndexerInBackground(
  options: {
    database: Database
    logger: Logger
    rpcUrl: string
    network: NetworkConfig
  } & Pick<IndexerOptions, 'onStart' | 'onProgress' | 'health'>,
): RunningIndexer {
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
export async function startDemoNetwork(
  database: Database,
  logger: Logger,
  signal?: AbortSignal,
  health?: HealthBoard,
  commits?: CommitSignal,
): Promise<Demo> {
  // The demo's history ends now, so staleness figures read as they would on a live network.
  const genesisCloseTimeS = Math.floor(Date.now() / 1000) - DEMO_DEVNET.ledgers * 5
  const devnet = await startDevnet({ ...DEMO_DEVNET, genesisCloseTimeS })
  try {
    const catchUp = createIndexer({ database, logger, rpcUrl: devnet.url, network: devnet.network })
    await catchUp.syncTo(devnet.latestLedger(), signal)
  } catch (error) {
    await devnet.close()
    throw error
  }
  const indexer = runIndexerInBackground({
    database,
    logger,
    rpcUrl: devnet.url,
    network: devnet.network,
    ...(health ? { health } : {}),
    ...(commits ? { onProgress: (progress) => commits.notify(progress.lastLedger) } : {}),
  })
  return {
    devnet,
    indexer,
    async close() {
      await indexer.stop()
      await devnet.close()
    },
  }
}

/**
 * The banner's runnable examples of the two questions the API answers about an account: what it
 * held at a ledger (the snapshot surface, each protocol valued at its own snapshot's ledger) and
 * what it is worth now (`/at/latest`: every protocol valued at the last indexed ledger, so the
 * totals add up). `pastLedger` is a ledger of the demo's history to ask about.
 */
export function demoExamples(baseUrl: string, key: string, holder: string, pastLedger: number): string[] {
  const curl = (path: string) => `  curl -H 'x-svc-token: ${key}' '${baseUrl}/v1/users/${holder}${path}'`
  return [
    `What it held at ledger ${pastLedger} (each protocol valued at its own snapshot's ledger):`,
    curl(`/positions/vaultprotocol?as_of_ledger=${pastLedger}`),
    curl(`/positions?as_of_ledger=${pastLedger}`),
    'What it is worth now (every protocol valued at the last indexed ledger; a ledger number instead of latest: worth then):',
    curl('/positions/vaultprotocol/at/latest'),
    curl('/positions/at/latest'),
  ]
}

/**
 * The banner's accounts: one per protocol and one holding several, as `GET /v1/demo/accounts`
 * chooses them from the indexed store, each with a curl line asking what it holds now.
 */
export function demoAccountLines(baseUrl: string, key: string, accounts: readonly DemoAccount[]): string[] {
  const curl = (path: string) => `    curl -H 'x-svc-token: ${key}' '${baseUrl}${path}'`
  const width = Math.max(0, ...accounts.map((a) => a.example_of.length)) + 1
  const lines = ['Accounts to ask about, one per protocol and one holding several (what each holds now):']
  for (const account of accounts) {
    lines.push(
      `  ${`${account.example_of}:`.padEnd(width)} ${account.address} (${account.protocols.join(', ')})`,
    )
    const path =
      account.example_of === 'several' ? '/positions/at/latest' : `/positions/${account.example_of}`
    lines.push(curl(`/v1/users/${account.address}${path}`))
  }
  lines.push('  The same list, with what each holds at the head as it moves:', curl('/v1/demo/accounts'))
  return lines
}

/**
 * The `DATABASE_URL` that runs the CLI on the demo's own database (`create-key` and the others),
 * from any directory: the file's absolute path, quoted for a POSIX shell when it needs to be.
 */
export function demoDatabaseUrl(path: string): string {
  const url = `sqlite:${resolve(path)}`
  return /^[\w./:@%+=-]+$/.test(url) ? url : `'${url.replaceAll("'", "'\\''")}'`
}

/** Where demos keep their databases, relative to the directory `npm start` runs in. */
export const DEMO_DIR = './.strata'
const DEMO_FILE = /^demo-(\d+)\.db(-wal|-shm|-journal)?$/

/** This process's demo database: one per process, so two demos in one checkout never share one. */
export function demoDatabasePath(pid = process.pid, dir = DEMO_DIR): string {
  return `${dir}/demo-${pid}.db`
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the databases of demos whose process is gone (killed before they could clean up); a
 * running demo's database is never touched. Returns the files removed.
 */
export function removeStaleDemoDatabases(dir = DEMO_DIR): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const pid = Number(DEMO_FILE.exec(name)?.[1] ?? Number.NaN)
    if (Number.isNaN(pid) || pid === process.pid || isAlive(pid)) continue
    rmSync(join(dir, name), { force: true })
    removed.push(name)
  }
  return removed
}

/** A demo database and its SQLite side files (WAL, shared memory). */
export function removeDemoDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true })
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
