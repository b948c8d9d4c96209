// The API benchmark's stores: devnet histories indexed once through the real indexer and cached under
// bench/.cache, and what the cases query in them (an API key, addresses and pins).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createApiKey } from '../src/auth/create-api-key.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { createLogger } from '../src/logger.ts'
import { PROTOCOLS } from '../src/protocols/registry.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { loadOrCreateSecret } from '../src/store/secrets.ts'
import { CACHE, ROOT, readLine } from './api-env.ts'

export interface StoreSpec {
  name: string
  /** The devnet's contract layouts: a cached store of another layout is rebuilt. */
  layout: string
  seed: string
  accounts: number
  ledgers: number
  activity: number
  /** Probability that a lending account submits to its Blend pool in a ledger. */
  lendingActivity: number
  /** Probability that an account acts on Soroswap in a ledger. */
  ammActivity: number
  /** Probability that a DeFindex holder acts in a ledger. */
  yieldActivity: number
}

export const LARGE: StoreSpec = {
  name: 'large',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2+soroswap+defindex+activities',
  seed: 'bench-api',
  accounts: Number(process.env.BENCH_API_LARGE_ACCOUNTS ?? 100_000),
  // 20,000 ledgers make 1M+ snapshots; the devnet's real layouts take most of an hour to build them.
  ledgers: Number(process.env.BENCH_API_LARGE_LEDGERS ?? 20_000),
  activity: 0.0009,
  // Lending accounts are half the population; at a third of the vault rate they make about a
  // quarter of the store's snapshots.
  lendingActivity: 0.0003,
  // Soroswap and DeFindex at the lending rate, so every registered module's endpoint has answers.
  ammActivity: 0.0003,
  yieldActivity: 0.0003,
}
export const SMALL: StoreSpec = {
  name: 'small',
  layout: 'fxdao-0.6.0+reflector-v3+blend-v2+soroswap+defindex+activities',
  seed: 'bench-api-small',
  accounts: Number(process.env.BENCH_API_SMALL_ACCOUNTS ?? 2_000),
  ledgers: Number(process.env.BENCH_API_SMALL_LEDGERS ?? 5_000),
  activity: 0.0022,
  lendingActivity: 0.0007,
  ammActivity: 0.0007,
  yieldActivity: 0.0007,
}

export interface BuiltStore {
  path: string
  snapshots: number
  /** Snapshots per protocol. */
  byProtocol: Record<string, number>
  accounts: number
  ledgers: number
}

/** Child mode: serve a devnet and print its URL (generation gets its own process and core). */
export async function serveDevnet(spec: StoreSpec): Promise<void> {
  const { startDevnet } = await import('../src/devnet/devnet.ts')
  const devnet = await startDevnet({
    seed: spec.seed,
    ledgers: spec.ledgers,
    accounts: spec.accounts,
    activity: spec.activity,
    lendingActivity: spec.lendingActivity,
    ammActivity: spec.ammActivity,
    yieldActivity: spec.yieldActivity,
  })
  process.stdout.write(
    `${JSON.stringify({ url: devnet.url, latest: devnet.latestLedger(), network: devnet.network })}\n`,
  )
}

/**
 * What builds a store and issues its key: this checkout's own modules, or (when comparing with a
 * baseline, see api-compare.ts) another checkout's, so each server reads a store its own code wrote.
 */
export interface StoreTools {
  createDatabase: typeof createDatabase
  migrateToLatest: typeof migrateToLatest
  createIndexer: typeof createIndexer
  createLogger: typeof createLogger
  createApiKey: typeof createApiKey
  loadOrCreateSecret: typeof loadOrCreateSecret
}

export const OWN_TOOLS: StoreTools = {
  createDatabase,
  migrateToLatest,
  createIndexer,
  createLogger,
  createApiKey,
  loadOrCreateSecret,
}

/**
 * The store of `spec`, built by `tools` from a devnet of this checkout (cached as `<file>.db` with
 * its description in `<file>.json`, rebuilt when the spec changes).
 */
export async function buildStore(
  spec: StoreSpec,
  tools: StoreTools = OWN_TOOLS,
  file: string = spec.name,
): Promise<BuiltStore> {
  const { createDatabase, migrateToLatest, createIndexer, createLogger } = tools
  const path = join(CACHE, `${file}.db`)
  const meta = join(CACHE, `${file}.json`)
  if (existsSync(path) && existsSync(meta)) {
    const cached = JSON.parse(readFileSync(meta, 'utf8')) as BuiltStore & { spec: StoreSpec }
    if (JSON.stringify(cached.spec) === JSON.stringify(spec)) return cached
  }
  mkdirSync(CACHE, { recursive: true })
  const started = performance.now()
  process.stderr.write(
    `building the ${spec.name} store (${spec.accounts} accounts, ${spec.ledgers} ledgers)...\n`,
  )
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench/api.ts'), '--serve-devnet', JSON.stringify(spec)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const [line] = await readLine(child, 'stdout', /^.*\n/)
  const { url, latest, network } = JSON.parse(line)
  const building = `${path}.building`
  rmSync(building, { force: true })
  const database = createDatabase({ kind: 'sqlite', path: building })
  try {
    await migrateToLatest(database)
    const indexer = createIndexer({ database, logger: createLogger('warn'), rpcUrl: url, network })
    await indexer.syncTo(latest)
    const count = (sql: string) =>
      Number((database.kind === 'sqlite' ? database.raw.prepare(sql).get() : { n: 0 })?.n ?? 0)
    const built: BuiltStore = {
      path,
      snapshots: count('SELECT count(*) AS n FROM snapshots'),
      byProtocol: Object.fromEntries(
        database.kind === 'sqlite'
          ? (
              database.raw
                .prepare('SELECT protocol, count(*) AS n FROM snapshots GROUP BY protocol')
                .all() as Array<{ protocol: string; n: number }>
            ).map((r) => [r.protocol, Number(r.n)])
          : [],
      ),
      accounts: count('SELECT count(DISTINCT address) AS n FROM snapshots'),
      ledgers: count('SELECT count(*) AS n FROM ledgers'),
    }
    await database.close()
    renameSync(building, path)
    writeFileSync(meta, JSON.stringify({ ...built, spec }))
    process.stderr.write(
      `  built in ${Math.round((performance.now() - started) / 1000)} s: ${built.snapshots} snapshots\n`,
    )
    return built
  } finally {
    child.kill()
  }
}

/** A new `data:read` key of the organization `bench` (on the enterprise plan), made by `tools`. */
export async function createBenchKey(path: string, tools: StoreTools = OWN_TOOLS): Promise<string> {
  const database = tools.createDatabase({ kind: 'sqlite', path })
  try {
    const pepper = await tools.loadOrCreateSecret(database.db, 'key_pepper')
    const created = await tools.createApiKey(database.db, pepper, Date.now(), {
      organizationName: 'Bench',
      organizationSlug: 'bench',
      keyName: `bench ${new Date().toISOString()}`,
      scopes: ['data:read'],
      expiresAt: null,
    })
    await database.db
      .updateTable('organizations')
      .set({ plan: 'enterprise' })
      .where('slug', '=', 'bench')
      .execute()
    return created.key
  } finally {
    await database.close()
  }
}

/** What the cases query: a ready API key and, per protocol, paths drawn from random snapshots. */
export interface PreparedStore {
  key: string
  /** Paths of a protocol's snapshot endpoint: random snapshots, pins up to 500 ledgers above them. */
  positionsPaths(protocol: string): string[]
  /** Random (address, ledger) pairs of a protocol's snapshots, for the extra endpoint cases. */
  samples(protocol: string): Array<{ address: string; ledger: number }>
  /** The accounts with the most stored actions, most first, with their counts. */
  busiestAccounts(): Array<{ account: string; actions: number }>
}

/** Addresses and pins to query, spread over each store's history; plus a ready API key. */
export async function prepareStore(store: BuiltStore): Promise<PreparedStore> {
  const key = await createBenchKey(store.path)
  const database = createDatabase({ kind: 'sqlite', path: store.path })
  try {
    if (database.kind !== 'sqlite') throw new Error('unreachable')
    const samples = new Map<string, Array<{ address: string; ledger: number }>>()
    for (const module of PROTOCOLS) {
      samples.set(
        module.name,
        database.raw
          .prepare('SELECT address, ledger FROM snapshots WHERE protocol = ? ORDER BY random() LIMIT 4000')
          .all(module.name) as Array<{ address: string; ledger: number }>,
      )
    }
    const busiest = database.raw
      .prepare(
        'SELECT account, count(*) AS actions FROM account_activities GROUP BY account ORDER BY actions DESC LIMIT 500',
      )
      .all() as Array<{ account: string; actions: number }>
    return {
      key,
      samples: (protocol) => samples.get(protocol) ?? [],
      busiestAccounts: () => busiest,
      positionsPaths: (protocol) =>
        (samples.get(protocol) ?? []).map((r, i) => {
          const pin = r.ledger + ((i * 7919) % 500)
          return `/v1/users/${r.address}/positions/${protocol}?as_of_ledger=${pin}`
        }),
    }
  } finally {
    await database.close()
  }
}

/** One endpoint the bench measures against its own ceiling. */
export interface BenchCase {
  name: string
  /** Paths requested in turn (each with the API key). */
  paths: string[]
}

/**
 * Endpoints beyond each module's positions: every protocol in one answer at a pin (snapshots of
 * all protocols mixed), and a 100-item activities page of the accounts with at least 100 stored
 * actions (the busiest accounts otherwise, so the page is as long as the store allows).
 */
export const EXTRA_CASES: Array<(store: PreparedStore) => BenchCase> = [
  (store) => ({
    name: 'all positions',
    paths: PROTOCOLS.flatMap((m) => store.samples(m.name).slice(0, 1000)).map(
      (r, i) => `/v1/users/${r.address}/positions?as_of_ledger=${r.ledger + ((i * 7919) % 500)}`,
    ),
  }),
  (store) => {
    const full = store.busiestAccounts().filter((a) => a.actions >= 100)
    const accounts = full.length > 0 ? full : store.busiestAccounts().slice(0, 50)
    return {
      name: `activities page (limit 100${full.length > 0 ? '' : `, busiest has ${accounts[0]?.actions ?? 0}`})`,
      paths: accounts.map((a) => `/v1/users/${a.account}/activities?limit=100`),
    }
  },
]
