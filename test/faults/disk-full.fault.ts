import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import { loadConfig } from '../../src/config.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { createHealthBoard } from '../../src/health.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { startFakeRpc } from '../indexer/support/fake-rpc.ts'
import { buildFixtureChain } from '../indexer/support/fixture-chain.ts'
import { TEST_NETWORK } from '../indexer/support/test-network.ts'
import { CLI } from '../support/process.ts'

/**
 * Write failures of SQLite, each produced by SQLite itself on a real file:
 * - a full disk: `PRAGMA max_page_count` caps the file at its size, so the next write that needs a
 *   new page fails with SQLITE_FULL ("database or disk is full"), exactly as a full disk does,
 *   without filling or mounting anything on the machine;
 * - a read-only store: `PRAGMA query_only` on the writing connection makes every write fail with
 *   SQLITE_READONLY, as a file the process cannot write does (root ignores file modes);
 * - start-up on an unwritable file or directory: mode 0444 / 0555, or for root (who ignores
 *   modes) the immutable attribute (chattr +i), removed again afterwards.
 */

const ADMIN_TOKEN = 'fault-admin-token-0123456789'
const dirs: string[] = []
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-disk-full-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

interface Running {
  app: App
  ctx: AppContext
  database: Database & { kind: 'sqlite' }
  logs: Array<Record<string, unknown>>
  close(): Promise<void>
}

async function startApp(): Promise<Running> {
  const path = join(scratch(), 'strata.db')
  const config = loadConfig(
    {
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      STRATA_JWT_SECRET: 'j'.repeat(48),
      STRATA_KEY_PEPPER: 'p'.repeat(48),
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    { database: { kind: 'sqlite', path } },
  )
  const database = createDatabase(config.database)
  if (database.kind !== 'sqlite') throw new Error('expected SQLite')
  await migrateToLatest(database)
  const logs: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line))
      done()
    },
  })
  const ctx = await createContext(config, createLogger('info', sink, 'json'), { database })
  const app = await buildApp(ctx)
  return {
    app,
    ctx,
    database,
    logs,
    async close() {
      await app.close()
      await ctx.close()
      await database.close()
    },
  }
}

const createKey = (app: App, slug: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/org/api-keys',
    headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
    payload: { organization_name: `Org ${slug}`, organization_slug: slug, key_name: 'k' },
  })

const storeLogLines = (logs: Array<Record<string, unknown>>, code: string) =>
  logs.filter((line) => line.code === code)

async function problems(app: App) {
  const health = await app.inject({ method: 'GET', url: '/v1/health' })
  return { status: health.statusCode, body: health.json() }
}

describe('a full disk under a running API (SQLite)', () => {
  it('answers 503 naming the cause, logs it once, reports it to health, and recovers', async () => {
    const t = await startApp()
    try {
      const first = await createKey(t.app, 'before-full')
      expect(first.statusCode).toBe(201)
      const { page_count } = t.database.raw.prepare('PRAGMA page_count').get() as { page_count: number }
      t.database.raw.exec(`PRAGMA max_page_count = ${page_count}`)
      // Writes go on until one needs a page the "disk" has no room for.
      let full = null
      for (let i = 0; i < 500 && full === null; i++) {
        const response = await createKey(t.app, `fill-${i}`)
        expect(response.statusCode, response.body).not.toBe(500)
        if (response.statusCode !== 201) full = { slug: `fill-${i}`, response }
      }
      expect(full, 'the capped file never filled').not.toBeNull()
      const { slug, response } = full!
      expect(response.statusCode).toBe(503)
      expect(response.json().error).toEqual({
        code: 'unavailable',
        message: 'the database disk is full (SQLite: database or disk is full); see /v1/health',
      })
      // The same write again needs the same page: refused the same way, and not logged again.
      for (let i = 0; i < 20; i++) expect((await createKey(t.app, slug)).statusCode).toBe(503)
      const logged = storeLogLines(t.logs, 'disk_full')
      expect(logged).toHaveLength(1)
      expect(logged[0]).toMatchObject({
        level: 50,
        cause: 'the database disk is full (SQLite: database or disk is full)',
      })
      expect(JSON.stringify(t.logs)).not.toMatch(/cannot rollback/)

      const during = await problems(t.app)
      expect(during.status).toBe(200)
      expect(during.body.status).toBe('degraded')
      expect(during.body.problems).toContainEqual(
        expect.objectContaining({
          component: 'store_writes',
          code: 'disk_full',
          message: 'writes fail: the database disk is full (SQLite: database or disk is full)',
        }),
      )
      // Reads are still answered: the database itself is fine.
      expect(during.body.database).toBe('ok')

      // Room again: the write lands, and the next key-use flush that writes clears the problem.
      t.database.raw.exec('PRAGMA max_page_count = 1073741823')
      expect((await createKey(t.app, slug)).statusCode).toBe(201)
      t.ctx.keyUsage.record(first.json().id, Date.now())
      await t.ctx.keyUsage.flush()
      const after = await problems(t.app)
      expect(after.body.problems).not.toContainEqual(expect.objectContaining({ component: 'store_writes' }))
    } finally {
      await t.close()
    }
  })
})

describe('a full disk under the indexer (SQLite)', () => {
  it('reports the real cause in indexer_retrying, then resumes from the checkpoint', async () => {
    const t = await startApp()
    const ledgers = buildFixtureChain({ seed: 5, ledgers: 40, accounts: 5 })
    const last = ledgers[ledgers.length - 1]!.sequence
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK })
    const health = createHealthBoard()
    const logs: string[] = []
    const logger = createLogger(
      'error',
      new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk))
          done()
        },
      }),
    )
    try {
      const { page_count } = t.database.raw.prepare('PRAGMA page_count').get() as { page_count: number }
      t.database.raw.exec(`PRAGMA max_page_count = ${page_count}`)
      const indexer = createIndexer({
        database: t.database,
        logger,
        rpcUrl: rpc.url,
        network: TEST_NETWORK,
        health,
      })
      const syncing = indexer.syncTo(last)
      await expect
        .poll(() => health.problems().find((p) => p.code === 'indexer_retrying')?.message, {
          timeout: 20_000,
        })
        .toMatch(/database or disk is full/)
      expect(health.indexerState()).toBe('retrying')
      expect(logs.join('')).not.toMatch(/cannot rollback/)
      t.database.raw.exec('PRAGMA max_page_count = 1073741823')
      await syncing
      expect(indexer.lastIndexedLedger()).toBe(last)
    } finally {
      await rpc.close()
      await t.close()
    }
  })
})

describe('a store that cannot be written', () => {
  it('under a running API: 503 naming the cause, in the log and in health', async () => {
    const t = await startApp()
    try {
      t.database.raw.exec('PRAGMA query_only = ON')
      const response = await createKey(t.app, 'read-only')
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toBe(
        'the database is read-only (SQLite: attempt to write a readonly database); see /v1/health',
      )
      expect(storeLogLines(t.logs, 'store_read_only')).toHaveLength(1)
      expect((await problems(t.app)).body.problems).toContainEqual(
        expect.objectContaining({ component: 'store_writes', code: 'store_read_only' }),
      )
    } finally {
      t.database.raw.exec('PRAGMA query_only = OFF')
      await t.close()
    }
  })

  const root = process.getuid?.() === 0
  /** Makes `path` unwritable for this process; returns how to undo it, or null when it cannot. */
  function makeUnwritable(path: string, mode: number): (() => void) | null {
    if (!root) {
      spawnSync('chmod', [mode.toString(8), path])
      return () => spawnSync('chmod', ['u+w', path])
    }
    const set = spawnSync('chattr', ['+i', path])
    return set.status === 0 ? () => spawnSync('chattr', ['-i', path]) : null
  }

  function runToExit(args: string[], env: Record<string, string>) {
    return new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: { ...process.env, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
      child.once('exit', (code) => {
        clearTimeout(timer)
        resolve({ code, stderr })
      })
    })
  }

  it('at start-up: strata migrate and strata serve exit 1 with one line naming the path and the cause', async (context) => {
    const dir = scratch()
    const path = join(dir, 'strata.db')
    const setup = createDatabase({ kind: 'sqlite', path })
    await migrateToLatest(setup)
    await setup.close()
    const undo = makeUnwritable(path, 0o444)
    if (undo === null) return context.skip('no way to make a file unwritable for root here (chattr)')
    try {
      for (const args of [['migrate'], ['serve', '--port', '0']]) {
        const { code, stderr } = await runToExit(args, { DATABASE_URL: `sqlite:${path}` })
        expect(code, stderr).toBe(1)
        // migrate names the store on its first line and in its failure; serve adds the setting.
        expect(stderr).toBe(
          args[0] === 'migrate'
            ? `strata migrate: database sqlite:${path}\nstrata migrate: cannot use the database sqlite:${path} (DATABASE_URL): the database is read-only (SQLite: attempt to write a readonly database)\n`
            : `strata serve: cannot use the database at ${path}: the database is read-only (SQLite: attempt to write a readonly database) (check DATABASE_URL)\n`,
        )
      }
    } finally {
      undo()
    }

    const locked = join(dir, 'locked')
    mkdirSync(locked)
    const undoDir = makeUnwritable(locked, 0o555)
    if (undoDir === null) return context.skip('no way to make a directory unwritable for root here (chattr)')
    try {
      const inside = join(locked, 'new.db')
      const { code, stderr } = await runToExit(['migrate'], { DATABASE_URL: `sqlite:${inside}` })
      expect(code, stderr).toBe(1)
      expect(stderr).toBe(
        `strata migrate: database sqlite:${inside}\nstrata migrate: cannot use the database sqlite:${inside} (DATABASE_URL): the database file cannot be opened (SQLite: unable to open database file)\n`,
      )
    } finally {
      undoDir()
    }
  })
})
