// PostgreSQL's connection pool and statement preparation, for sizing N replicas (docs/operations.md,
// "PostgreSQL: the commit watch, and N replicas"). On a store of its own (schema `bench_pg_pool`,
// migrated by the project's migrations and filled with generate_series), one run measures side
// by side, in alternating rounds so that a noisy host shifts both sides of each ratio alike:
//   1. Statement preparation: the request-state statement with a seek of the four protocols
//      (src/store/request-state.ts, what a request reads when memory does not answer), as a named
//      statement (parsed and planned once per connection, as the server sends it) against the same
//      text unnamed (parsed and planned every time), 16 callers on a pool of 10.
//   2. Pool size: the named statement from 32 callers on pools of 1, 2, 4, 10 and 20 connections.
// Each round reports statements per second and the callers' p50/p99 in milliseconds. node-postgres
// sends one statement at a time per connection (no pipelining): concurrency comes from the pool.
//
//   npm run bench:pg-pool
//   (PostgreSQL at BENCH_POSTGRES_URL, as bench:api's.)
//   BENCH_PG_POOL_DURATION_S=5 BENCH_PG_POOL_PAIRS=4 npm run bench:pg-pool
import { cpus } from 'node:os'
import pg from 'pg'
import { createDatabase } from '../src/store/db.ts'
import { LEDGER_STREAM } from '../src/store/ledger-data.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { requestStateSql } from '../src/store/request-state.ts'
import { median, percentile, round3 } from './api-env.ts'
import { POSTGRES_URL } from './api-postgres.ts'
import { updateBenchSection } from './report.ts'

const SCHEMA = 'bench_pg_pool'
const DURATION_S = Number(process.env.BENCH_PG_POOL_DURATION_S ?? 3)
const PAIRS = Number(process.env.BENCH_PG_POOL_PAIRS ?? 3)
const ADDRESSES = 20_000
const LEDGERS = 20_000
/** Snapshots per address and protocol: 4 protocols × 20,000 addresses × 10 = 800,000 rows. */
const PER_ADDRESS = 10
const PROTOCOLS = ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol']
const POOL_SIZES = [1, 2, 4, 10, 20]

const address = (i: number) => `G${String(i).padStart(55, 'A')}`

async function prepareStore(): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  const exists = await admin.query(
    `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'snapshots'`,
    [SCHEMA],
  )
  if (exists.rows[0].n === 1) {
    const filled = await admin.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.snapshots`)
    if (filled.rows[0].n === ADDRESSES * PROTOCOLS.length * PER_ADDRESS) {
      await admin.end()
      return
    }
  }
  process.stderr.write(`filling ${SCHEMA} (once)…\n`)
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`)
  await admin.query(`CREATE SCHEMA ${SCHEMA}`)
  const database = createDatabase({ kind: 'postgres', url: POSTGRES_URL }, { schema: SCHEMA })
  await migrateToLatest(database)
  await database.close()
  await admin.query(`SET search_path = ${SCHEMA}`)
  await admin.query(
    `INSERT INTO ledgers (sequence, hash, close_time)
     SELECT s, md5(s::text) || md5(s::text), 1700000000 + s * 5 FROM generate_series(1, $1) s`,
    [LEDGERS],
  )
  await admin.query(
    `INSERT INTO indexer_state (name, last_ledger, first_ledger, updated_at) VALUES ($1, $2, 1, 0)`,
    [LEDGER_STREAM, LEDGERS],
  )
  for (const protocol of PROTOCOLS) {
    await admin.query(
      `INSERT INTO snapshots (protocol, address, ledger, positions)
       SELECT $1, 'G' || lpad(a::text, 55, 'A'), 1 + ((a * 7919 + k * ($2 / $3)) % $2), '{}'
         FROM generate_series(0, $4 - 1) a, generate_series(0, $3 - 1) k`,
      [protocol, LEDGERS, PER_ADDRESS, ADDRESSES],
    )
  }
  await admin.query('ANALYZE')
  await admin.end()
}

interface Round {
  statementsPerSecond: number
  p50Ms: number
  p99Ms: number
}

/** `callers` loops asking the request-state statement for random addresses and pins, for DURATION_S. */
async function round(poolSize: number, callers: number, named: boolean): Promise<Round> {
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${SCHEMA}`,
    max: poolSize,
  })
  const text = requestStateSql(PROTOCOLS.length)
  // Every connection opened (and, when named, the statement prepared) before the clock starts.
  const warm = await Promise.all(Array.from({ length: poolSize }, () => pool.connect()))
  for (const client of warm) {
    await client.query({ ...(named ? { name: 'state' } : {}), text, values: params(0) })
    client.release()
  }
  const latencies: number[] = []
  let done = 0
  const until = performance.now() + DURATION_S * 1000
  let seed = 1
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        seed = (seed * 48271) % 2147483647
        const started = performance.now()
        await pool.query({ ...(named ? { name: 'state' } : {}), text, values: params(seed) })
        latencies.push(performance.now() - started)
        done++
      }
    }),
  )
  await pool.end()
  latencies.sort((a, b) => a - b)
  return {
    statementsPerSecond: Math.round(done / DURATION_S),
    p50Ms: round3(percentile(latencies, 0.5)),
    p99Ms: round3(percentile(latencies, 0.99)),
  }
}

function params(seed: number): Array<string | number | null> {
  const pin = seed % 3 === 0 ? null : 1 + (seed % LEDGERS)
  return [LEDGER_STREAM, pin, address(seed % ADDRESSES), ...PROTOCOLS]
}

async function main(): Promise<void> {
  await prepareStore()
  const named: Round[] = []
  const unnamed: Round[] = []
  for (let pair = 0; pair < PAIRS; pair++) {
    // Alternate which side goes first.
    if (pair % 2 === 0) {
      named.push(await round(10, 16, true))
      unnamed.push(await round(10, 16, false))
    } else {
      unnamed.push(await round(10, 16, false))
      named.push(await round(10, 16, true))
    }
  }
  const ratios = named.map((n, i) => n.statementsPerSecond / unnamed[i]!.statementsPerSecond)
  const sizes = new Map<number, Round[]>(POOL_SIZES.map((size) => [size, []]))
  for (let pass = 0; pass < PAIRS; pass++) {
    const order = pass % 2 === 0 ? POOL_SIZES : [...POOL_SIZES].reverse()
    for (const size of order) sizes.get(size)!.push(await round(size, 32, true))
  }
  const summary = (rounds: Round[]) => ({
    statementsPerSecond: median(rounds.map((r) => r.statementsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
  })
  const report = {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
    durationSPerRound: DURATION_S,
    pairs: PAIRS,
    store: { addresses: ADDRESSES, ledgers: LEDGERS, snapshots: ADDRESSES * PROTOCOLS.length * PER_ADDRESS },
    preparation: {
      named: summary(named),
      unnamed: summary(unnamed),
      namedOverUnnamed: round3(median(ratios)),
    },
    poolSizes: POOL_SIZES.map((size) => ({ size, ...summary(sizes.get(size)!) })),
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  const lines = [
    `Measured by \`npm run bench:pg-pool\` (${report.machine}; PostgreSQL on the same host; ${DURATION_S} s rounds, ${PAIRS} alternating pairs, medians). The statement: the request state with a seek of four protocols, on ${report.store.snapshots.toLocaleString('en-US')} snapshots.`,
    '',
    '| statement | statements/s | p50 ms | p99 ms |',
    '| --- | ---: | ---: | ---: |',
    `| named (prepared once per connection) | ${report.preparation.named.statementsPerSecond} | ${report.preparation.named.p50Ms} | ${report.preparation.named.p99Ms} |`,
    `| unnamed (parsed and planned each time) | ${report.preparation.unnamed.statementsPerSecond} | ${report.preparation.unnamed.p50Ms} | ${report.preparation.unnamed.p99Ms} |`,
    '',
    `Named over unnamed, median of the pairs: ×${report.preparation.namedOverUnnamed}.`,
    '',
    '| pool size (32 callers) | statements/s | p50 ms | p99 ms |',
    '| ---: | ---: | ---: | ---: |',
    ...report.poolSizes.map((r) => `| ${r.size} | ${r.statementsPerSecond} | ${r.p50Ms} | ${r.p99Ms} |`),
  ]
  updateBenchSection('pg-pool', lines.join('\n'))
}

await main()
