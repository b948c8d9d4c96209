// Memory and restart benchmark of ingestion, one JSON report, every figure from the same run:
// 1. the indexer's resident memory while it ingests the same number of vault changes spread over
//    BENCH_MEMORY_SMALL accounts (default 10,000) and over BENCH_MEMORY_LARGE accounts (default
//    1,000,000), each in a fresh process on a fresh SQLite store (PostgreSQL too with
//    BENCH_POSTGRES_URL): peak and final RSS, and the ratio large/small (aim: under 1.5);
// 2. restart time at two history sizes: in the large run, after a tenth of the ledgers and at the
//    end, a new database object resumes (checkpoint, hash) and readies the next ledger's batch.
//
// The ledgers are genuine LedgerCloseMeta XDR, encoded with the SDK's schemas by the devnet's ledger
// encoder: each transaction rewrites one account's `Vault((account, denomination))` entry of the
// vaults contract as FxDAO 0.6.0 lays it out (created on an account's first change, updated after).
// They are generated in the measured process batch by batch and dropped once decoded, holding
// nothing per account, so what grows with accounts is the indexer's own state.
//
//   npm run bench:memory
//   BENCH_MEMORY_LARGE=100000 BENCH_MEMORY_CHANGES=100000 npm run bench:memory   (a quick check)
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { StrKey } from '@stellar/stellar-sdk'
import pg from 'pg'
import { createLedgerDecoder } from '../src/chain/ledger-decoder.ts'
import type { DatabaseConfig } from '../src/config.ts'
import {
  buildOptionalVaultKey,
  buildVaultKey,
  buildVaultValue,
  computeVaultIndex,
} from '../src/devnet/fxdao/layout.ts'
import { buildContractDataEntry } from '../src/devnet/ledger/contract-layout.ts'
import { createLedgerEncoder } from '../src/devnet/ledger/ledger-xdr.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildStruct,
  buildSymbol,
  buildU128,
} from '../src/devnet/ledger/scval.ts'
import {
  buildNetworkConfig,
  createIdentities,
  DENOMINATIONS,
  deriveKey,
  devnetPassphrase,
} from '../src/devnet/world/identities.ts'
import type { SimTx } from '../src/devnet/world/world-state.ts'
import {
  buildNetworkWatchList,
  createLedgerPipeline,
  DEFAULT_STATE_CACHE_ACCOUNTS,
  loadResumePoint,
} from '../src/indexer/ledger-pipeline.ts'
import { createDatabase, type Database, quoteIdent } from '../src/store/db.ts'
import { writeLedgerBatch } from '../src/store/ledger-data.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

const SMALL = Number(process.env.BENCH_MEMORY_SMALL ?? 10_000)
const LARGE = Number(process.env.BENCH_MEMORY_LARGE ?? 1_000_000)
/**
 * Vault changes of the large run: as many as it has accounts, so each of them is written once. The
 * small run writes each of its accounts ten times (fewer changes: its state is all in the cache
 * after the first round, and history lives in the store, not in memory).
 */
const CHANGES = Number(process.env.BENCH_MEMORY_CHANGES ?? LARGE)
const changesFor = (accounts: number) => (accounts === LARGE ? CHANGES : Math.min(CHANGES, accounts * 10))
const PER_LEDGER = Number(process.env.BENCH_MEMORY_PER_LEDGER ?? 500)
/** Ledgers per write transaction: 50,000 vault changes, as in a busy stretch of `strata index`. */
const BATCH = 100
const SEED = 'bench-memory'
const START = 2

interface RunSpec {
  accounts: number
  database: DatabaseConfig
  schema: string | null
}

interface RunResult {
  accounts: number
  changes: number
  ledgers: number
  seconds: number
  changesPerSecond: number
  peakRssMb: number
  endRssMb: number
  endHeapUsedMb: number
  /** Restart (resume point, pipeline, the next ledger's batch ready) after a tenth and at the end. */
  resume: { atLedgers: number; ms: number }[]
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10

/** The ledger source: deterministic from the change counter, nothing kept per account. */
function createSource(accounts: number) {
  const ids = createIdentities(SEED)
  const network = buildNetworkConfig(ids, START, false, false, false)
  const encoder = createLedgerEncoder(devnetPassphrase(SEED), null)
  const vault = ids.vaultContract
  let previousHash: Buffer = Buffer.alloc(32)
  let change = 0

  const tx = (sequence: number): SimTx => {
    const account = change % accounts
    const round = Math.floor(change / accounts)
    change++
    const key = deriveKey(SEED, `account:${account}`)
    const address = buildAccountAddress(key)
    const denomination = DENOMINATIONS[account % DENOMINATIONS.length]!
    const debt = 1_000_000_000n + BigInt(account)
    const collateralAt = (r: number) => 50_000_000_000n + BigInt(r) * 10_000_000n
    const value = (r: number) =>
      buildVaultValue({
        account: address,
        denomination,
        index: computeVaultIndex(debt, collateralAt(r)),
        next: null,
        totalCollateral: collateralAt(r),
        totalDebt: debt,
      })
    const entryKey = buildVaultKey(address, denomination)
    const after = buildContractDataEntry(vault, entryKey, value(round), sequence)
    return {
      source: key,
      contract: vault,
      fn: 'increase_collateral',
      args: [
        buildOptionalVaultKey(null),
        buildStruct({
          account: buildAddressVal(address),
          denomination: buildSymbol(denomination),
          index: buildU128(computeVaultIndex(debt, collateralAt(Math.max(0, round - 1)))),
        }),
        buildU128(10_000_000n),
      ],
      successful: true,
      changes:
        round === 0
          ? [{ type: 0, created: after }]
          : [
              { type: 3, state: buildContractDataEntry(vault, entryKey, value(round - 1), sequence - 1) },
              { type: 1, updated: after },
            ],
      events: [],
    }
  }

  return {
    network,
    /** The next ledger's raw LedgerCloseMeta. */
    next(sequence: number): Uint8Array {
      const txs = Array.from({ length: PER_LEDGER }, () => tx(sequence))
      const encoded = encoder.encodeLedger(
        { sequence, closeTime: 1_700_000_000 + sequence * 5, txs, evictedKeys: [] },
        previousHash,
      )
      previousHash = encoded.hash
      return encoded.meta
    },
  }
}

/** Child mode: one run, in its own process, printing its result as one JSON line. */
async function runOne(spec: RunSpec): Promise<void> {
  let peak = 0
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }
  const sampler = setInterval(sample, 50)
  const source = createSource(spec.accounts)
  const open = (): Database =>
    createDatabase(spec.database, spec.schema === null ? {} : { schema: spec.schema })
  let database = open()
  await migrateToLatest(database)
  const watched = buildNetworkWatchList(source.network)
  const decoder = createLedgerDecoder(watched, { worker: false })
  const ledgers = Math.ceil(changesFor(spec.accounts) / PER_LEDGER)
  const resume: RunResult['resume'] = []
  const started = performance.now()
  let pipeline = createLedgerPipeline(database, source.network, await loadResumePoint(database))
  let sequence = START
  const last = START + ledgers - 1

  /** What a restarted indexer does before its first write: resume point, pipeline, the next batch. */
  const measureResume = async () => {
    // The probe ledger is encoded before the clock starts, and never written. Three restarts, the
    // median kept: the first of them also pays for compiling the code it runs.
    const probe = createSource(spec.accounts).next(sequence)
    const times: number[] = []
    let atLedgers = 0
    for (let i = 0; i < 3; i++) {
      const fresh = open()
      const t0 = performance.now()
      const point = await loadResumePoint(fresh)
      const resumed = createLedgerPipeline(fresh, source.network, point)
      await resumed.addLedgers(await decoder.decode([probe]))
      resumed.takeBatch(Date.now())
      times.push(performance.now() - t0)
      await fresh.close()
      atLedgers = point.checkpoint! - START + 1
    }
    const ms = times.sort((a, b) => a - b)[1]!
    resume.push({ atLedgers, ms: Math.round(ms * 10) / 10 })
  }

  while (sequence <= last) {
    const end = Math.min(last, sequence + BATCH - 1)
    for (let s = sequence; s <= end; s += 50) {
      const page: Uint8Array[] = []
      for (let p = s; p <= Math.min(end, s + 49); p++) page.push(source.next(p))
      await pipeline.addLedgers(await decoder.decode(page))
      sample()
    }
    const batch = pipeline.takeBatch(Date.now())!
    await writeLedgerBatch(database, batch)
    pipeline.committed()
    sequence = end + 1
    sample()
    if (resume.length === 0 && sequence - START >= ledgers / 10) await measureResume()
  }
  const seconds = (performance.now() - started) / 1000
  await measureResume()
  clearInterval(sampler)
  sample()
  // The pipeline stays referenced until here: its cache is part of what is measured.
  pipeline = null as never
  ;(globalThis as { gc?: () => void }).gc?.()
  const memory = process.memoryUsage()
  await decoder.close()
  await database.close()
  database = null as never
  const result: RunResult = {
    accounts: spec.accounts,
    changes: ledgers * PER_LEDGER,
    ledgers,
    seconds: Math.round(seconds * 10) / 10,
    changesPerSecond: Math.round((ledgers * PER_LEDGER) / seconds),
    peakRssMb: mb(peak),
    endRssMb: mb(memory.rss),
    endHeapUsedMb: mb(memory.heapUsed),
    resume,
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

/** Runs one configuration in a fresh process, so no run inherits another's heap. */
function spawnRun(spec: RunSpec): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', import.meta.filename, '--run', JSON.stringify(spec)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`run of ${spec.accounts} accounts exited with ${code}`))
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as RunResult)
    })
  })
}

interface StoreMaker {
  name: string
  make: () => Promise<{ spec: Omit<RunSpec, 'accounts'>; drop: () => Promise<void> }>
}

async function stores(): Promise<StoreMaker[]> {
  const list: StoreMaker[] = [
    {
      name: 'sqlite',
      make: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'strata-bench-memory-'))
        return {
          spec: { database: { kind: 'sqlite', path: join(dir, 'bench.db') } as DatabaseConfig, schema: null },
          drop: async () => rmSync(dir, { recursive: true, force: true }),
        }
      },
    },
  ]
  const url = process.env.BENCH_POSTGRES_URL
  if (url) {
    list.push({
      name: 'postgres',
      make: async () => {
        const schema = `bench_memory_${randomBytes(4).toString('hex')}`
        const admin = new pg.Client({ connectionString: url })
        await admin.connect()
        await admin.query(`CREATE SCHEMA ${quoteIdent(schema)}`)
        await admin.end()
        return {
          spec: { database: { kind: 'postgres', url } as DatabaseConfig, schema },
          drop: async () => {
            const client = new pg.Client({ connectionString: url })
            await client.connect()
            await client.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`)
            await client.end()
          },
        }
      },
    })
  }
  return list
}

async function main(): Promise<void> {
  const report: Record<string, unknown> = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}`,
    changesPerLedger: PER_LEDGER,
    stateCacheAccounts: DEFAULT_STATE_CACHE_ACCOUNTS,
    vaultContract: StrKey.encodeContract(createIdentities(SEED).vaultContract),
  }
  for (const store of await stores()) {
    const runs: RunResult[] = []
    for (const accounts of [SMALL, LARGE]) {
      const made = await store.make()
      process.stderr.write(`${store.name}: ${accounts} accounts...\n`)
      try {
        runs.push(await spawnRun({ ...made.spec, accounts }))
      } finally {
        await made.drop()
      }
    }
    const [small, large] = runs as [RunResult, RunResult]
    const [early, late] = large.resume
    report[store.name] = {
      small,
      large,
      peakRssRatio: Math.round((large.peakRssMb / small.peakRssMb) * 100) / 100,
      endRssRatio: Math.round((large.endRssMb / small.endRssMb) * 100) / 100,
      resumeRatio: early && late ? Math.round((late.ms / early.ms) * 100) / 100 : null,
    }
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
}

const runAt = process.argv.indexOf('--run')
if (runAt >= 0) await runOne(JSON.parse(process.argv[runAt + 1]!) as RunSpec)
else await main()
