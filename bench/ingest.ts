// Ingestion benchmark: a devnet of BENCH_LEDGERS ledgers (default 100,000) served by a child process,
// ingested over JSON-RPC into a fresh SQLite store (and PostgreSQL with BENCH_POSTGRES_URL), beside the
// decode-only rate of the same ledgers in the same run. Prints one JSON report.
//
//   npm run bench:ingest
//   BENCH_LEDGERS=20000 BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:ingest
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import pino from 'pino'
import { decodeLedgerCloseMetaBase64 } from '../src/chain/decode-ledger.ts'
import type { NetworkConfig } from '../src/chain/network.ts'
import { createRpcClient } from '../src/chain/rpc-client.ts'
import type { DatabaseConfig } from '../src/config.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { buildNetworkWatchList } from '../src/indexer/ledger-pipeline.ts'
import { createDatabase, quoteIdent } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

const LEDGERS = Number(process.env.BENCH_LEDGERS ?? 100_000)
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1000)
const ACTIVITY = Number(process.env.BENCH_ACTIVITY ?? 0.01)
const SEED = 'bench'

async function serveDevnet(): Promise<void> {
  const { startDevnet } = await import('../src/chain/devnet/index.ts')
  const devnet = await startDevnet({ seed: SEED, ledgers: LEDGERS, accounts: ACCOUNTS, activity: ACTIVITY })
  process.stdout.write(`${JSON.stringify({ url: devnet.url, latest: devnet.latestLedger() })}\n`)
}

/** The devnet runs in its own process so generating and serving ledgers does not share the indexer's core. */
async function startDevnetProcess(): Promise<{ child: ChildProcess; url: string; latest: number }> {
  const child = spawn(process.execPath, [import.meta.filename, '--serve-devnet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  })
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolve(out.split('\n')[0]!)
    })
    child.once('exit', (code) => reject(new Error(`devnet exited with ${code}`)))
  })
  const { url, latest } = JSON.parse(line) as { url: string; latest: number }
  return { child, url, latest }
}

/** Decode-only: every ledger fetched first (untimed), then decoded (timed), page by page. */
async function measureDecode(url: string, network: NetworkConfig, first: number, last: number) {
  const client = createRpcClient({ url })
  const watched = buildNetworkWatchList(network)
  let decodeMs = 0
  let changes = 0
  for (let start = first; start <= last; start += 200) {
    const page = await client.getLedgers({ startLedger: start, limit: Math.min(200, last - start + 1) })
    const t = performance.now()
    for (const ledger of page.ledgers) {
      const decoded = decodeLedgerCloseMetaBase64(ledger.metadataXdr, watched)
      for (const tx of decoded.transactions) changes += tx.contractDataChanges.length + tx.events.length
    }
    decodeMs += performance.now() - t
  }
  return {
    ledgersPerSecond: ((last - first + 1) * 1000) / decodeMs,
    changesPerSecond: (changes * 1000) / decodeMs,
    changes,
  }
}

async function measureIngest(
  config: DatabaseConfig,
  schema: string | undefined,
  url: string,
  network: NetworkConfig,
  last: number,
) {
  const database = createDatabase(config, schema ? { schema } : {})
  await migrateToLatest(database)
  let changes = 0
  const indexer = createIndexer({
    database,
    logger: pino({ level: 'warn' }),
    rpcUrl: url,
    network,
    onProgress: (p) => {
      changes = p.ingestedChanges
    },
  })
  const t = performance.now()
  await indexer.syncTo(last)
  const ms = performance.now() - t
  const rows = await database.db
    .selectFrom('snapshots')
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  await database.close()
  return {
    seconds: ms / 1000,
    ledgersPerSecond: (LEDGERS * 1000) / ms,
    changesPerSecond: (changes * 1000) / ms,
    snapshots: Number(rows.n),
  }
}

async function main(): Promise<void> {
  const devnet = await startDevnetProcess()
  try {
    const network = (await (await fetch(`${devnet.url}/network.json`)).json()) as NetworkConfig
    const first = devnet.latest - LEDGERS + 1
    const decode = await measureDecode(devnet.url, network, first, devnet.latest)
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-'))
    const report: Record<string, unknown> = {
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
      devnet: { ledgers: LEDGERS, accounts: ACCOUNTS, activity: ACTIVITY, changes: decode.changes },
      decodeOnly: {
        ledgersPerSecond: Math.round(decode.ledgersPerSecond),
        changesPerSecond: Math.round(decode.changesPerSecond),
      },
    }
    try {
      const sqlite = await measureIngest(
        { kind: 'sqlite', path: join(dir, 'bench.db') },
        undefined,
        devnet.url,
        network,
        devnet.latest,
      )
      report.sqlite = {
        ...round(sqlite),
        ratioToDecode: (sqlite.ledgersPerSecond / decode.ledgersPerSecond).toFixed(2),
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const pgUrl = process.env.BENCH_POSTGRES_URL
    if (pgUrl) {
      const schema = `bench_${randomBytes(4).toString('hex')}`
      const admin = new pg.Client({ connectionString: pgUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`)
      try {
        const postgres = await measureIngest(
          { kind: 'postgres', url: pgUrl },
          schema,
          devnet.url,
          network,
          devnet.latest,
        )
        report.postgres = {
          ...round(postgres),
          ratioToDecode: (postgres.ledgersPerSecond / decode.ledgersPerSecond).toFixed(2),
        }
      } finally {
        await admin.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`)
        await admin.end()
      }
    }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } finally {
    devnet.child.kill('SIGTERM')
  }
}

function round<T extends Record<string, number>>(values: T): Record<keyof T, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Math.round(v * 10) / 10])) as Record<
    keyof T,
    number
  >
}

if (process.argv.includes('--serve-devnet')) await serveDevnet()
else await main()
