// Ingestion benchmark, one JSON report, every figure from the same run:
// 1. a devnet of BENCH_LEDGERS ledgers (default 100,000) served by a child process: decode-only on
//    one core and on two (two decoding threads), then ingestion over JSON-RPC into SQLite (and
//    PostgreSQL with BENCH_POSTGRES_URL), and from the same ledgers written as a data lake and
//    served over local HTTP;
// 2. mainnet-shaped ledgers (BENCH_MAINNET_LEDGERS, default 10,000): mostly unwatched traffic
//    (BENCH_BACKGROUND transfers per ledger on other contracts), few vault calls; ingested over RPC,
//    from the data lake, and over RPC with the decoding in the main thread;
// Every ingest reports CPU time per ledger of this process (the devnet runs in another) and of its
// main thread, and the one-core decoders theirs: on a shared machine rates swing with its load.
// 3. the genuine pubnet ledgers of test/fixtures: decoding cost with the mainnet watch list, and a
//    projection of a data-lake backfill of mainnet from Soroban's activation.
//
//   npm run bench:ingest
//   BENCH_LEDGERS=20000 BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:ingest
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, zstdDecompressSync } from 'node:zlib'
import { xdr } from '@stellar/stellar-sdk'
import pg from 'pg'
import pino from 'pino'
import { openDatalake } from '../src/chain/datalake.ts'
import {
  decodeLedgerCloseMeta,
  decodeLedgerCloseMetaBase64,
  decodeLedgerCloseMetaFully,
} from '../src/chain/decode-ledger.ts'
import { createLedgerDecoder } from '../src/chain/ledger-decoder.ts'
import { loadNetworkConfig } from '../src/chain/load-network.ts'
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
const MAINNET_LEDGERS = Number(process.env.BENCH_MAINNET_LEDGERS ?? 10_000)
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 40)
/** Soroban's activation on mainnet (February 2024), about ledger 50.46 million. */
const SOROBAN_LEDGER = 50_460_000
/** A dated pubnet ledger (test/fixtures/pubnet) to project today's ledger from, at ~5 s a ledger. */
const DATED = { ledger: 63_092_996, at: Date.parse('2026-06-19T00:22:11Z') }

interface Profile {
  seed: string
  ledgers: number
  accounts: number
  activity: number
  backgroundTxs: number
  lake: boolean
}

/** Child mode: generate and serve a devnet (and its data lake over HTTP), print where. */
async function serveDevnet(profile: Profile): Promise<void> {
  const { startDevnet } = await import('../src/devnet/devnet.ts')
  const { writeDatalake } = await import('../src/devnet/ledger/datalake-writer.ts')
  const { createDevnetServer } = await import('../src/devnet/rpc/server.ts')
  const devnet = await startDevnet(profile)
  let lakeUrl: string | null = null
  let lakeRpcUrl: string | null = null
  if (profile.lake) {
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-lake-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    await writeDatalake(devnet.chain, dir)
    const server = createServer((req, res) => {
      let body: Buffer
      try {
        body = readFileSync(join(dir, decodeURIComponent((req.url ?? '/').slice(1))))
      } catch {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    lakeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // The same chain behind an RPC that keeps only its latest ledger: an indexer pointed at it and
    // at the lake backfills every other ledger from the lake, as on mainnet.
    const chain = devnet.chain
    const recent = createDevnetServer(
      { ...chain, servedFrom: () => chain.latestLedger() },
      { seed: profile.seed, faultRate: 0, faultTimeoutMs: 2500 },
    )
    await new Promise<void>((resolve) => recent.server.listen(0, '127.0.0.1', resolve))
    lakeRpcUrl = `http://127.0.0.1:${(recent.server.address() as AddressInfo).port}`
  }
  process.stdout.write(
    `${JSON.stringify({ url: devnet.url, latest: devnet.latestLedger(), lakeUrl, lakeRpcUrl })}\n`,
  )
  process.once('SIGTERM', () => process.exit(0))
}

/** The devnet runs in its own process so generating and serving ledgers does not share the indexer's core. */
async function startDevnetProcess(profile: Profile) {
  const child: ChildProcess = spawn(
    process.execPath,
    [import.meta.filename, '--serve-devnet', JSON.stringify(profile)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    },
  )
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolve(out.split('\n')[0]!)
    })
    child.once('exit', (code) => reject(new Error(`devnet exited with ${code}`)))
  })
  const served = JSON.parse(line) as {
    url: string
    latest: number
    lakeUrl: string | null
    lakeRpcUrl: string | null
  }
  const network = (await (await fetch(`${served.url}/network.json`)).json()) as NetworkConfig
  return { child, network, ...served, first: served.latest - profile.ledgers + 1 }
}

/**
 * Decode-only: pages fetched first (not timed), then decoded (timed): in this thread, or by two
 * decoding threads at once, each taking every other page.
 */
async function measureDecode(
  url: string,
  network: NetworkConfig,
  first: number,
  last: number,
  threads: 1 | 2,
  /** Decode every watched ledger whole, as the indexer did before stepping over transactions. */
  whole = false,
) {
  const client = createRpcClient({ url })
  const watched = buildNetworkWatchList(network)
  const decoders = threads === 2 ? [0, 1].map(() => createLedgerDecoder(watched, { worker: true })) : []
  // Let the threads load their schemas before the clock starts.
  await Promise.all(decoders.map((d) => d.decode([])))
  let decodeMs = 0
  let cpuUs = 0
  let changes = 0
  const CHUNK = 4_000
  for (let chunkStart = first; chunkStart <= last; chunkStart += CHUNK) {
    const pages: string[][] = []
    for (let start = chunkStart; start <= Math.min(last, chunkStart + CHUNK - 1); start += 200) {
      const page = await client.getLedgers({ startLedger: start, limit: Math.min(200, last - start + 1) })
      pages.push(page.ledgers.map((l) => l.metadataXdr))
    }
    const t = performance.now()
    const cpu = process.threadCpuUsage()
    if (threads === 1) {
      for (const page of pages) {
        for (const meta of page) {
          const decoded = whole
            ? decodeLedgerCloseMetaFully(Buffer.from(meta, 'base64'), watched)
            : decodeLedgerCloseMetaBase64(meta, watched)
          for (const tx of decoded.transactions) {
            changes += tx.contractDataChanges.length + tx.events.length + tx.instanceChanges.length
          }
        }
      }
    } else {
      const lanes = decoders.map(async (decoder, lane) => {
        for (let i = lane; i < pages.length; i += 2) {
          for (const ledger of await decoder.decode(pages[i]!)) {
            for (const tx of ledger.transactions) {
              changes += tx.contractDataChanges.length + tx.events.length + tx.instanceChanges.length
            }
          }
        }
      })
      await Promise.all(lanes)
    }
    decodeMs += performance.now() - t
    const used = process.threadCpuUsage(cpu)
    cpuUs += used.user + used.system
  }
  for (const d of decoders) await d.close()
  const ledgers = last - first + 1
  return {
    ledgersPerSecond: (ledgers * 1000) / decodeMs,
    // One core: this thread's CPU time per ledger (base64 and decoding), robust to the machine's load.
    cpuUsPerLedger: threads === 1 ? cpuUs / ledgers : null,
    changes,
  }
}

/** A process's CPU time so far (user + system, all threads), in µs; null without /proc. */
function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6
  } catch {
    return null
  }
}

async function measureIngest(
  config: DatabaseConfig,
  schema: string | undefined,
  source: {
    url: string
    network: NetworkConfig
    first: number
    latest: number
    lakeUrl?: string | null
    /** The process serving the ledgers (the devnet), whose CPU is read too. */
    child?: ChildProcess
  },
  decodeInWorker = true,
) {
  const database = createDatabase(config, schema ? { schema } : {})
  await migrateToLatest(database)
  let changes = 0
  const indexer = createIndexer({
    database,
    logger: pino({ level: 'warn' }),
    rpcUrl: source.url,
    network: source.network,
    fromLedger: source.first,
    decodeInWorker,
    ...(source.lakeUrl ? { datalake: source.lakeUrl } : {}),
    onProgress: (p) => {
      changes = p.ingestedChanges
    },
  })
  const t = performance.now()
  const cpu = process.cpuUsage()
  const mainCpu = process.threadCpuUsage()
  const servingBefore = processCpuUs(source.child?.pid)
  await indexer.syncTo(source.latest)
  const ms = performance.now() - t
  const used = process.cpuUsage(cpu)
  const mainUsed = process.threadCpuUsage(mainCpu)
  const servingAfter = processCpuUs(source.child?.pid)
  const rows = await database.db
    .selectFrom('snapshots')
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  await database.close()
  const ledgers = source.latest - source.first + 1
  return {
    seconds: ms / 1000,
    ledgersPerSecond: (ledgers * 1000) / ms,
    changesPerSecond: (changes * 1000) / ms,
    snapshots: Number(rows.n),
    // CPU time of this process (the indexer's main thread, its decoding thread, GC and libuv's
    // threads; the devnet serving the ledgers runs in another process) and of the main thread
    // alone, per ledger: robust to the load of a shared machine, unlike the rates.
    cpuUsPerLedger: (used.user + used.system) / ledgers,
    mainThreadCpuUsPerLedger: (mainUsed.user + mainUsed.system) / ledgers,
    // The devnet serving the ledgers shares the machine's two cores (10 ms clock ticks): what a
    // remote RPC or the public lake would spend elsewhere.
    sourceCpuUsPerLedger:
      servingBefore === null || servingAfter === null ? null : (servingAfter - servingBefore) / ledgers,
  }
}

async function measureSources(url: string, lakeUrl: string, first: number, last: number) {
  const client = createRpcClient({ url })
  let t = performance.now()
  for (let start = first; start <= last; start += 200) {
    await client.getLedgers({ startLedger: start, limit: Math.min(200, last - start + 1) })
  }
  const rpcMs = performance.now() - t
  const lake = await openDatalake(lakeUrl)
  t = performance.now()
  let count = 0
  for await (const page of lake.ledgers(first, last)) count += page.length
  const lakeMs = performance.now() - t
  const ledgers = last - first + 1
  if (count !== ledgers) throw new Error(`the lake gave ${count} ledgers of ${ledgers}`)
  return {
    rpcLedgersPerSecond: rate((ledgers * 1000) / rpcMs),
    dataLakeLedgersPerSecond: rate((ledgers * 1000) / lakeMs),
  }
}

async function inSqlite<T>(run: (config: DatabaseConfig) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-'))
  try {
    return await run({ kind: 'sqlite', path: join(dir, 'bench.db') })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The genuine pubnet ledgers: cost per ledger with the mainnet watch list, and fully decoded. */
async function measureGenuine() {
  const dir = new URL('../test/fixtures/pubnet/', import.meta.url)
  const ledgers = [
    (() => {
      const batch = xdr.LedgerCloseMetaBatch.fromXDR(
        zstdDecompressSync(readFileSync(new URL('stellar-go__FCD285FF--53312000.xdr.zstd', dir))),
      )
      return Buffer.from(batch.ledgerCloseMetas[0]!.toXDR())
    })(),
    ...['51000294', '57500008', '63092988', '63092990', '63092996'].map((n) =>
      gunzipSync(readFileSync(new URL(`wallet-backend__ledger-${n}.xdr.gz`, dir))),
    ),
  ]
  const pubnet = buildNetworkWatchList(await loadNetworkConfig('pubnet'))
  const time = (watched: typeof pubnet, rounds: number) => {
    const t = performance.now()
    for (let r = 0; r < rounds; r++) for (const bytes of ledgers) decodeLedgerCloseMeta(bytes, watched)
    return (performance.now() - t) / (rounds * ledgers.length)
  }
  time(pubnet, 5)
  const watchedMs = time(pubnet, 200)
  const fullMs = (() => {
    const t = performance.now()
    for (let r = 0; r < 5; r++) for (const bytes of ledgers) xdr.LedgerCloseMeta.schema.decode(bytes)
    return (performance.now() - t) / (5 * ledgers.length)
  })()
  const wholeMs = (() => {
    const t = performance.now()
    for (let r = 0; r < 5; r++) for (const bytes of ledgers) decodeLedgerCloseMetaFully(bytes, pubnet)
    return (performance.now() - t) / (5 * ledgers.length)
  })()
  return {
    ledgers: ledgers.length,
    meanBytes: Math.round(ledgers.reduce((a, b) => a + b.length, 0) / ledgers.length),
    msPerLedgerWithPubnetWatchList: round3(watchedMs),
    msPerLedgerFullDecode: round3(fullMs),
    msPerLedgerWholeLedgerDecoderWithPubnetWatchList: round3(wholeMs),
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000
const rate = (n: number) => Math.round(n)

async function main(): Promise<void> {
  const report: Record<string, unknown> = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
  }

  // 1. The devnet at its usual activity.
  const devnet = await startDevnetProcess({
    seed: 'bench',
    ledgers: LEDGERS,
    accounts: ACCOUNTS,
    activity: ACTIVITY,
    backgroundTxs: 0,
    lake: true,
  })
  try {
    const one = await measureDecode(devnet.url, devnet.network, devnet.first, devnet.latest, 1)
    const two = await measureDecode(devnet.url, devnet.network, devnet.first, devnet.latest, 2)
    const whole = await measureDecode(devnet.url, devnet.network, devnet.first, devnet.latest, 1, true)
    report.devnet = { ledgers: LEDGERS, accounts: ACCOUNTS, activity: ACTIVITY, changes: one.changes }
    report.decodeOnly = {
      oneCore: rate(one.ledgersPerSecond),
      twoCores: rate(two.ledgersPerSecond),
      wholeLedgerOneCore: rate(whole.ledgersPerSecond),
      oneCoreCpuUsPerLedger: rate(one.cpuUsPerLedger!),
      wholeLedgerCpuUsPerLedger: rate(whole.cpuUsPerLedger!),
    }
    // Over RPC (the devnet's RPC holds every ledger, so nothing comes from the lake).
    const sqlite = await inSqlite((config) => measureIngest(config, undefined, { ...devnet, lakeUrl: null }))
    report.sqlite = {
      ...roundAll(sqlite),
      ratioToOneCoreDecode: (sqlite.ledgersPerSecond / one.ledgersPerSecond).toFixed(2),
    }
    // From the data lake: the RPC holds only the latest ledger, every other one is backfilled.
    const fromLake = await inSqlite((config) =>
      measureIngest(config, undefined, { ...devnet, url: devnet.lakeRpcUrl! }),
    )
    report.sqliteFromDataLake = {
      ...roundAll(fromLake),
      ratioToOneCoreDecode: (fromLake.ledgersPerSecond / one.ledgersPerSecond).toFixed(2),
      ratioToRpcIngest: (fromLake.ledgersPerSecond / sqlite.ledgersPerSecond).toFixed(2),
    }
    // The two sources alone, fetching every ledger over local HTTP: getLedgers pages of 200
    // (JSON, base64) against zstd lake objects of one ledger, 8 fetched ahead.
    report.sources = await measureSources(devnet.url, devnet.lakeUrl!, devnet.first, devnet.latest)
    const pgUrl = process.env.BENCH_POSTGRES_URL
    if (pgUrl) {
      const schema = `bench_${randomBytes(4).toString('hex')}`
      const admin = new pg.Client({ connectionString: pgUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`)
      try {
        const postgres = await measureIngest({ kind: 'postgres', url: pgUrl }, schema, {
          ...devnet,
          lakeUrl: null,
        })
        report.postgres = {
          ...roundAll(postgres),
          ratioToOneCoreDecode: (postgres.ledgersPerSecond / one.ledgersPerSecond).toFixed(2),
        }
      } finally {
        await admin.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`)
        await admin.end()
      }
    }
  } finally {
    devnet.child.kill('SIGTERM')
  }

  // 2. Mainnet-shaped: most ledgers touch no watched contract.
  let shapedIngestRate = 0
  const shaped = await startDevnetProcess({
    seed: 'bench-mainnet-shaped',
    ledgers: MAINNET_LEDGERS,
    accounts: 1000,
    activity: 0.0005,
    backgroundTxs: BACKGROUND,
    lake: true,
  })
  try {
    const one = await measureDecode(shaped.url, shaped.network, shaped.first, shaped.latest, 1)
    const whole = await measureDecode(shaped.url, shaped.network, shaped.first, shaped.latest, 1, true)
    const two = await measureDecode(shaped.url, shaped.network, shaped.first, shaped.latest, 2)
    const sqlite = await inSqlite((config) => measureIngest(config, undefined, shaped))
    const fromLake = await inSqlite((config) =>
      measureIngest(config, undefined, { ...shaped, url: shaped.lakeRpcUrl! }),
    )
    // The same over RPC with the decoding in the main thread: no second core needed, no thread to load.
    const inPlace = await inSqlite((config) => measureIngest(config, undefined, shaped, false))
    shapedIngestRate = Math.max(sqlite.ledgersPerSecond, fromLake.ledgersPerSecond)
    report.mainnetShaped = {
      ledgers: MAINNET_LEDGERS,
      backgroundTxsPerLedger: BACKGROUND,
      decodeOnlyOneCore: rate(one.ledgersPerSecond),
      decodeOnlyTwoCores: rate(two.ledgersPerSecond),
      // The one-core rate of decoding every watched ledger whole (the decoder before it stepped over
      // transactions): the baseline of the aim.
      wholeLedgerDecodeOneCore: rate(whole.ledgersPerSecond),
      decodeOnlyOneCoreCpuUsPerLedger: rate(one.cpuUsPerLedger!),
      wholeLedgerDecodeCpuUsPerLedger: rate(whole.cpuUsPerLedger!),
      // The same ratio in CPU time: the whole-ledger decoder's CPU per ledger over the ingesting
      // process's (all its threads), and over its main thread's alone.
      cpuRatioToWholeLedgerDecode: (whole.cpuUsPerLedger! / sqlite.cpuUsPerLedger).toFixed(2),
      mainThreadCpuRatioToWholeLedgerDecode: (
        whole.cpuUsPerLedger! / sqlite.mainThreadCpuUsPerLedger
      ).toFixed(2),
      ratioToWholeLedgerDecode: (sqlite.ledgersPerSecond / whole.ledgersPerSecond).toFixed(2),
      dataLakeRatioToWholeLedgerDecode: (fromLake.ledgersPerSecond / whole.ledgersPerSecond).toFixed(2),
      ingestSqlite: roundAll(sqlite),
      ratioToOneCoreDecode: (sqlite.ledgersPerSecond / one.ledgersPerSecond).toFixed(2),
      ingestSqliteFromDataLake: roundAll(fromLake),
      ingestSqliteDecodingInPlace: roundAll(inPlace),
      inPlaceRatioToWholeLedgerDecode: (inPlace.ledgersPerSecond / whole.ledgersPerSecond).toFixed(2),
      dataLakeRatioToOneCoreDecode: (fromLake.ledgersPerSecond / one.ledgersPerSecond).toFixed(2),
      aim: 'ingest >= 1.5 x the one-core whole-ledger decode-only rate',
    }
  } finally {
    shaped.child.kill('SIGTERM')
  }

  // 3. Genuine mainnet ledgers, and what a backfill from Soroban's activation would take.
  const genuine = await measureGenuine()
  // Today's ledger from a dated one, assuming a ledger every 5 s since.
  const today = DATED.ledger + Math.floor((Date.now() - DATED.at) / 5_000)
  const toBackfill = today - SOROBAN_LEDGER
  const perLedgerMs = genuine.msPerLedgerWithPubnetWatchList
  report.genuinePubnet = {
    ...genuine,
    projection: {
      ledgers: toBackfill,
      fromLedger: SOROBAN_LEDGER,
      toLedgerAbout: today,
      hoursAtDecodeCostOneCore: round3((toBackfill * perLedgerMs) / 3_600_000),
      note: 'decoding and filtering only, at the measured cost per genuine ledger; fetching ~150 KB of zstd per ledger from the public lake comes on top and depends on the link',
      // At the ingest rate measured on the mainnet-shaped devnet (its ledgers are smaller than
      // mainnet's: an optimistic bound on the whole pipeline, local sources).
      hoursAtMainnetShapedIngestRate: round3(toBackfill / shapedIngestRate / 3600),
    },
  }

  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
}

function roundAll<T extends Record<string, number | null>>(values: T): T {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v === null ? null : Math.round(v * 100) / 100]),
  ) as T
}

const serveIndex = process.argv.indexOf('--serve-devnet')
if (serveIndex >= 0) await serveDevnet(JSON.parse(process.argv[serveIndex + 1]!) as Profile)
else await main()
