import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeDatabase } from '../src/cli/runtime.ts'
import { describeStartupError } from '../src/cli/startup.ts'
import { type Devnet, startDevnet } from '../src/devnet/devnet.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { createLogger } from '../src/logger.ts'
import { createTestDatabase, type TestDatabase } from './support/database.ts'
import { CLI } from './support/process.ts'

const PEPPER = 'cli-errors-pepper-0123456789abcdef012'

const dirs: string[] = []
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-cli-errors-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Runs the CLI to its exit, in a scratch directory unless told, without the parent's DATABASE_URL. */
function strata(args: string[], env: Record<string, string>, options: { input?: string; cwd?: string } = {}) {
  const { DATABASE_URL: _, STELLAR_RPC_URL: __, ...inherited } = process.env
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? scratchDir(),
    env: { ...inherited, LOG_LEVEL: 'silent', STRATA_KEY_PEPPER: PEPPER, ...env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** A port nothing listens on: held, then released. */
function closedPort(): Promise<number> {
  const server = createServer()
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    }),
  )
}

describe('the store a command opens', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase()
  })
  afterAll(async () => db.drop())

  it('is named on the first line of every command that opens one, on stderr, stdout unchanged', () => {
    const migrate = strata(['migrate'], db.env)
    expect(migrate.code, migrate.stderr).toBe(0)
    expect(migrate.stderr.split('\n')[0]).toBe(`strata migrate: ${describeOf(db)}`)
    expect(migrate.stdout).toBe('database is up to date\n')

    const key = strata(['create-key', '--org', 'named-org', '--name', 'ops'], db.env)
    expect(key.code, key.stderr).toBe(0)
    expect(key.stderr.split('\n')[0]).toBe(`strata create-key: ${describeOf(db)}`)
    expect(JSON.parse(key.stdout)).toMatchObject({ organization_slug: 'named-org' })

    const plan = strata(['set-plan', '--org', 'named-org', '--plan', 'pro'], db.env)
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stderr.split('\n')[0]).toBe(`strata set-plan: ${describeOf(db)}`)

    const user = strata(
      ['create-user', '--org', 'named-org', '--email', 'ops@example.com', '--password-stdin'],
      db.env,
      {
        input: 'a long enough password\n',
      },
    )
    expect(user.code, user.stderr).toBe(0)
    expect(user.stderr.split('\n')[0]).toBe(`strata create-user: ${describeOf(db)}`)
  }, 120_000)

  it('says when DATABASE_URL is unset and the default file in the working directory is used', () => {
    const cwd = scratchDir()
    const run = strata(['migrate'], {}, { cwd })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe(
      'strata migrate: database sqlite:./strata.db (DATABASE_URL is not set: the default)\n',
    )
  })

  it('masks a PostgreSQL password, in the URL or as a parameter', () => {
    expect(
      describeDatabase({
        kind: 'postgres',
        url: 'postgres://strata:s3cr%40t@db.example:5432/strata?sslmode=require',
      }),
    ).toBe('postgres://strata:***@db.example:5432/strata?sslmode=require')
    expect(
      describeDatabase({ kind: 'postgres', url: 'postgresql://db.example/strata?password=hunter2' }),
    ).toBe('postgresql://db.example/strata?password=***')
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://strata@db.example/strata' })).toBe(
      'postgres://strata@db.example/strata',
    )
    expect(describeDatabase({ kind: 'sqlite', path: './data/strata.db' })).toBe('sqlite:./data/strata.db')
  })
})

/** The line naming the test's store: its DATABASE_URL as given (the test URL has no password). */
function describeOf(db: TestDatabase): string {
  return `database ${db.env.DATABASE_URL}`
}

describe('a store that cannot be used names DATABASE_URL, in one line, exit 1', () => {
  it('a refused PostgreSQL server, with the password masked', async () => {
    const port = await closedPort()
    for (const command of [['migrate'], ['create-key', '--org', 'some-org', '--name', 'ops']]) {
      const run = strata(command, { DATABASE_URL: `postgres://strata:hunter2@127.0.0.1:${port}/strata` })
      expect(run.code, run.stderr).toBe(1)
      expect(run.stderr).toBe(
        `strata ${command[0]}: database postgres://strata:***@127.0.0.1:${port}/strata\n` +
          `strata ${command[0]}: cannot use the database postgres://strata:***@127.0.0.1:${port}/strata (DATABASE_URL): ` +
          `the database cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})\n`,
      )
      expect(run.stderr).not.toContain('hunter2')
    }
  }, 60_000)

  it('a SQLite file in a directory that does not exist, with its path', () => {
    const path = join(scratchDir(), 'missing', 'strata.db')
    const run = strata(['set-plan', '--org', 'some-org', '--plan', 'pro'], { DATABASE_URL: `sqlite:${path}` })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `strata set-plan: database sqlite:${path}\n` +
        `strata set-plan: cannot use the database sqlite:${path} (DATABASE_URL): ` +
        'the database file cannot be opened (SQLite: unable to open database file)\n',
    )
  })
})

describe('start-up failures name the setting', () => {
  it('a HOST that does not resolve', () => {
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host.invalid'), {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'no-such-host.invalid',
    })
    expect(describeStartupError(error)).toBe(
      'cannot listen on "no-such-host.invalid": no such host name (HOST or --host)',
    )
  })

  it('a bad configuration with one problem is one line', () => {
    const run = strata(['index'], { STELLAR_RPC_URL: 'ftp://rpc.example/' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'strata index: invalid configuration: STELLAR_RPC_URL must use http: or https:, got "ftp:"\n',
    )
  })
})

describe('strata index refuses what it cannot use, naming the option', () => {
  const cases: Array<[string[], string]> = [
    [['--rpc-url', 'ftp://rpc.example/'], '--rpc-url must use http: or https:, got "ftp:"'],
    [['--rpc-url', 'not a url'], '--rpc-url is not a URL: "not a url"'],
    [['--batch-size', '0'], '--batch-size must be a whole number of ledgers (1 or more), got "0"'],
    [['--batch-size', 'many'], '--batch-size must be a whole number of ledgers (1 or more), got "many"'],
    [['--from-ledger', '0'], '--from-ledger must be a ledger sequence number (1 or more), got "0"'],
    [['--from-ledger', '1.5'], '--from-ledger must be a ledger sequence number (1 or more), got "1.5"'],
  ]
  it.each(cases)('%j', (args, message) => {
    const withRpc = args.includes('--rpc-url') ? args : ['--rpc-url', 'http://127.0.0.1:1', ...args]
    const run = strata(['index', ...withRpc], { DATABASE_URL: `sqlite:${join(scratchDir(), 'i.db')}` })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`strata index: ${message}\n`)
  })

  it('an unreachable RPC is named with the setting that gave it, not blamed on the network description', async () => {
    const rpc = `http://127.0.0.1:${await closedPort()}`
    const path = join(scratchDir(), 'r.db')
    const byOption = strata(['index', '--rpc-url', rpc], { DATABASE_URL: `sqlite:${path}` })
    expect(byOption.code).toBe(1)
    expect(byOption.stderr).toBe(
      `strata index: database sqlite:${path}\n` +
        `strata index: cannot reach the Stellar RPC at ${rpc} (--rpc-url): fetching ${rpc}/network.json failed (ECONNREFUSED)\n`,
    )
    const byEnv = strata(['index'], { DATABASE_URL: `sqlite:${path}`, STELLAR_RPC_URL: rpc })
    expect(byEnv.code).toBe(1)
    expect(byEnv.stderr.split('\n')[1]).toBe(
      `strata index: cannot reach the Stellar RPC at ${rpc} (STELLAR_RPC_URL): fetching ${rpc}/network.json failed (ECONNREFUSED)`,
    )
  }, 60_000)
})

describe('create-user: the password on stdin', () => {
  it('an empty stdin says no password was given; a short one names stdin and the bounds', () => {
    const args = ['create-user', '--org', 'any-org', '--email', 'ops@example.com', '--password-stdin']
    const empty = strata(args, {})
    expect(empty.code).toBe(1)
    expect(empty.stderr).toBe(
      'strata create-user: no password on standard input (--password-stdin reads it from there, e.g. echo "$PASSWORD" | ...)\n',
    )
    const newlineOnly = strata(args, {}, { input: '\n' })
    expect(newlineOnly.stderr).toBe(empty.stderr)
    const short = strata(args, {}, { input: 'short\n' })
    expect(short.code).toBe(1)
    expect(short.stderr).toBe(
      'strata create-user: the password on standard input (--password-stdin) must be 10 to 256 characters\n',
    )
  })
})

describe('strata index --from-ledger on a store that already holds later ledgers', () => {
  let devnet: Devnet
  let db: TestDatabase
  let checkpoint: number
  beforeAll(async () => {
    devnet = await startDevnet({ seed: 'cli-from-ledger', ledgers: 30, accounts: 5 })
    db = await createTestDatabase()
    checkpoint = devnet.latestLedger() - 10
    const database = db.open()
    try {
      const indexer = createIndexer({
        database,
        logger: createLogger('silent'),
        rpcUrl: devnet.url,
        network: devnet.network,
        batchSize: 5,
      })
      await indexer.syncTo(checkpoint)
    } finally {
      await database.close()
    }
  }, 120_000)
  afterAll(async () => {
    await devnet?.close()
    await db?.drop()
  })

  it('is ignored with a line naming the checkpoint, and indexing resumes from it', async () => {
    const { DATABASE_URL: _, ...inherited } = process.env
    const child = spawn(process.execPath, [CLI, 'index', '--rpc-url', devnet.url, '--from-ledger', '5'], {
      env: { ...inherited, ...db.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    let all = ''
    child.stdout.on('data', (chunk) => {
      all += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      all += chunk
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const resumed = `ingesting ledgers ${checkpoint + 1}..`
    for (let i = 0; i < 600 && !all.includes(resumed); i++) await new Promise((r) => setTimeout(r, 100))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(stderr.split('\n')[0]).toBe(`strata index: ${describeOf(db)}`)
    expect(stderr).toContain(
      `strata index: --from-ledger 5 is ignored: this store's checkpoint is ledger ${checkpoint}, so indexing resumes from ${checkpoint + 1} (--from-ledger applies to an empty store only)\n`,
    )
    expect(all).toContain(resumed)
    expect(all).toContain(`resuming after checkpoint ${checkpoint}`)
  }, 90_000)
})
