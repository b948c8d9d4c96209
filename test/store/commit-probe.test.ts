import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type CommitProbe, createCommitProbe } from '../../src/store/commit-probe.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { openSqlite } from '../../src/store/sqlite-driver.ts'
import { ADMIN_TOKEN } from '../support/app.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database.ts'
import { type ServerProcess, startServerProcess } from '../support/process.ts'

const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite')

/** A statement run by another process on the database file, as an operator or a second instance would. */
function commitFromAnotherProcess(path: string, sql: string): void {
  const script = `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(process.argv[1], { timeout: 5000 }); db.exec(process.argv[2]); db.close()`
  execFileSync(process.execPath, ['-e', script, path, sql])
}

describe('the SQLite commit probe (WAL index header)', () => {
  let dir: string
  let path: string
  let writer: InstanceType<typeof DatabaseSync>
  let probe: CommitProbe

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-probe-'))
    path = join(dir, 'probe.db')
    writer = openSqlite(path)
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
    probe = createCommitProbe(path)
  })

  afterAll(() => {
    probe?.close()
    writer?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps its version while nothing is committed: reads, a rolled-back write, a checkpoint', () => {
    const version = probe.version()
    expect(probe.version()).toBe(version)
    writer.prepare('SELECT count(*) FROM t').get()
    const reader = new DatabaseSync(path)
    reader.prepare('SELECT * FROM t').all()
    reader.close()
    expect(probe.version()).toBe(version)
    writer.exec('BEGIN')
    writer.exec("INSERT INTO t (v) VALUES ('never')")
    writer.exec('ROLLBACK')
    expect(probe.version()).toBe(version)
    // A checkpoint copies the WAL into the database: what a reader sees does not change.
    writer.exec('PRAGMA wal_checkpoint(PASSIVE)')
    expect(probe.version()).toBe(version)
  })

  it('changes its version after every commit, by this connection, another, or another process', () => {
    const seen = new Set([probe.version()])
    const expectNew = () => {
      const version = probe.version()
      expect(seen.has(version)).toBe(false)
      seen.add(version)
      // And it stays there until the next commit.
      expect(probe.version()).toBe(version)
    }
    writer.exec("INSERT INTO t (v) VALUES ('a')")
    expectNew()
    const other = new DatabaseSync(path, { timeout: 5000 })
    other.exec("UPDATE t SET v = 'b'")
    other.close()
    expectNew()
    commitFromAnotherProcess(path, "INSERT INTO t (v) VALUES ('c')")
    expectNew()
    // After the WAL is emptied and restarted (new salts), the first commit is seen too.
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    probe.version()
    const beforeRestart = probe.version()
    writer.exec("INSERT INTO t (v) VALUES ('d')")
    expect(probe.version()).not.toBe(beforeRestart)
  })

  it('answers a new version on every call when there is no WAL index to read', () => {
    const missing = createCommitProbe(join(dir, 'absent.db'))
    const first = missing.version()
    expect(missing.version()).not.toBe(first)
    missing.close()

    const rollbackPath = join(dir, 'rollback.db')
    const rollback = new DatabaseSync(rollbackPath)
    rollback.exec('PRAGMA journal_mode = DELETE')
    rollback.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)')
    const noWal = createCommitProbe(rollbackPath)
    const once = noWal.version()
    expect(noWal.version()).not.toBe(once)
    noWal.close()
    rollback.close()
  })
})

/**
 * The guarantee of a served process on SQLite: the state a request begins with is remembered only
 * while the probe says nothing was committed, so a key revoked (or a plan changed) by another
 * process is judged on the new record by the next request. (On PostgreSQL every request reads the
 * state; test/two-instances.test.ts covers two servers there.)
 */
describe.skipIf(TEST_DB_KIND !== 'sqlite')('a server on SQLite and writes by another process', () => {
  let testDb: TestDatabase
  let server: ServerProcess
  let store: Database
  const ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite')
    server = await startServerProcess(['serve'], {
      ...testDb.env,
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '1000',
      PORT: '0',
    })
    store = createDatabase(testDb.config)
  }, 90_000)

  afterEach(() => {
    expect(server.child.exitCode).toBeNull()
  })

  afterAll(async () => {
    await server?.stop()
    await store?.close()
    await testDb?.drop()
  })

  const createKey = async (slug: string) => {
    const response = await fetch(`${server.url}/v1/org/api-keys`, {
      method: 'POST',
      headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ organization_name: 'Probe', organization_slug: slug, key_name: 'k' }),
    })
    expect(response.status).toBe(201)
    return (await response.json()) as { key: string; api_key_id: string; organization_id: string }
  }
  const get = (key: string) =>
    fetch(`${server.url}/v1/users/${ADDRESS}/positions/vaultprotocol`, { headers: { 'x-svc-token': key } })

  it('refuses a key revoked by another process on the next request', async () => {
    const key = await createKey('probe-revoke')
    for (let i = 0; i < 3; i++) expect((await get(key.key)).status).toBe(200)
    // This test's process is not the server's: its commit reaches the server only through the file.
    await store.db.updateTable('api_keys').set({ revoked_at: 1 }).where('id', '=', key.api_key_id).execute()
    const refused = await get(key.key)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'the API key has been revoked',
    )
  })

  it("applies another process's plan change to the next request's quota", async () => {
    const key = await createKey('probe-plan')
    for (let i = 0; i < 3; i++) {
      expect((await get(key.key)).headers.get('ratelimit-policy')).toBe('"org";q=1000;w=60')
    }
    await store.db
      .updateTable('organizations')
      .set({ plan: 'pro' })
      .where('id', '=', key.organization_id)
      .execute()
    // Pro multiplies the base quota by 10 (PLAN_QUOTA_MULTIPLIER).
    expect((await get(key.key)).headers.get('ratelimit-policy')).toBe('"org";q=10000;w=60')
  })
})
