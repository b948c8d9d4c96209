import { spawn } from 'node:child_process'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createHealthBoard, type HealthBoard } from '../../src/health.ts'
import { createIndexer, type IndexerProgress } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../support/database.ts'
import { CLI } from '../support/process.ts'
import { connectPgAdmin, type PgAdmin, waitFor } from './support/pg-admin.ts'
import { startTcpProxy } from './support/tcp-proxy.ts'

// The indexer survives losing its PostgreSQL lock connection (issue 28): it takes the lock again and
// resumes, as the in-process indexer and as `strata index`, and two indexers never both commit.

/** Ledgers the devnet holds at start; it then closes one every CLOSE_INTERVAL_MS. */
const LEDGERS = 30
const CLOSE_INTERVAL_MS = 250
/** The bound: the checkpoint advances again within this after the lock connection is lost. */
const RESUME_WITHIN_MS = 30_000

/** A logger whose JSON lines a test reads. */
function capturedLogger() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { logger: createLogger('info', stream), text: () => lines.join('') }
}

/** A health board that also records, in order, the states and problem codes it was given. */
function recordingBoard(): { board: HealthBoard; seen: string[] } {
  const inner = createHealthBoard()
  const seen: string[] = []
  const board: HealthBoard = {
    ...inner,
    report(component, code, message) {
      seen.push(`problem:${code}`)
      inner.report(component, code, message)
    },
    setIndexerState(state) {
      seen.push(`state:${state}`)
      inner.setIndexerState(state)
    },
  }
  return { board, seen }
}

/** Errors that would mean two writers raced: another writer's checkpoint, or a broken chain. */
const RACE_LOGGED = /CheckpointConflictError|another indexer wrote|LedgerContinuityError/

describe('the indexer across a lost PostgreSQL lock connection', () => {
  let testDb: TestDatabase
  let admin: PgAdmin
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({
      seed: 'pg-lock-fault',
      ledgers: LEDGERS,
      accounts: 20,
      closeIntervalMs: CLOSE_INTERVAL_MS,
    })
  })
  afterAll(async () => {
    await devnet.close()
  })

  const freshStore = async () => {
    testDb = await createTestDatabase('postgres')
    admin = await connectPgAdmin(testDb.schema!)
  }
  const dropStore = async () => {
    await admin.close()
    await testDb.drop()
  }

  it('the in-process indexer takes the lock again and resumes; health tells the loss, then running', async () => {
    await freshStore()
    const { logger, text } = capturedLogger()
    const { board, seen } = recordingBoard()
    const database = testDb.open()
    const indexer = createIndexer({
      database,
      logger,
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 20,
      pageSize: 20,
      decodeInWorker: false,
      health: board,
    })
    const controller = new AbortController()
    let settled = false
    const running = indexer.run(controller.signal).finally(() => {
      settled = true
    })
    try {
      await waitFor('the first batches', async () => ((await admin.checkpoint()) ?? 0) >= LEDGERS, 60_000)
      expect(board.indexerState()).toBe('running')
      const holder = await admin.lockHolder()
      expect(holder).not.toBeNull()
      seen.length = 0
      await admin.terminate(holder!)
      const lostAt = (await admin.checkpoint())!

      // The lock is taken again, on a new session, and the checkpoint moves on within the bound.
      await waitFor(
        'the checkpoint to advance after the loss',
        async () => ((await admin.checkpoint()) ?? 0) > lostAt + 2,
        RESUME_WITHIN_MS,
      )
      const newHolder = await admin.lockHolder()
      expect(newHolder).not.toBeNull()
      expect(newHolder).not.toBe(holder)
      // During the loss health said so; after the next batch it says running, with no problem.
      expect(seen).toContain('state:retrying')
      expect(seen).toContain('problem:indexer_lock_lost')
      await waitFor('health to say running', () => board.problems().length === 0, 10_000)
      expect(board.indexerState()).toBe('running')
      expect(settled).toBe(false)
      expect(text()).toContain('lost the indexer lock')
      expect(text()).not.toMatch(RACE_LOGGED)
    } finally {
      controller.abort()
      await running.catch(() => {})
      await database.close()
      await dropStore()
    }
  })

  it('`strata index` keeps running across the loss (no exit 1) and resumes', async () => {
    await freshStore()
    const child = spawn(process.execPath, [CLI, 'index', '--rpc-url', devnet.url, '--batch-size', '20'], {
      env: { ...process.env, ...testDb.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      await waitFor('the first batches', async () => ((await admin.checkpoint()) ?? 0) >= LEDGERS, 60_000)
      const holder = await admin.lockHolder()
      expect(holder).not.toBeNull()
      await admin.terminate(holder!)
      const lostAt = (await admin.checkpoint())!
      await waitFor(
        'the checkpoint to advance after the loss',
        async () => ((await admin.checkpoint()) ?? 0) > lostAt + 2,
        RESUME_WITHIN_MS,
      )
      expect(child.exitCode).toBeNull()
      expect(await admin.lockHolder()).not.toBe(holder)
      expect(output).toContain('lost the indexer lock')
      expect(output).not.toMatch(RACE_LOGGED)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await exited
      await dropStore()
    }
  })

  it('two indexers never both commit: the lock changes hands on a cut and on a terminated backend', async () => {
    await freshStore()
    // The first indexer reaches PostgreSQL through a proxy, so its connections can be cut.
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 })
    const proxiedUrl = new URL(TEST_POSTGRES_URL)
    proxiedUrl.host = proxy.address
    const commits: Array<{ by: 'a' | 'b'; lastLedger: number }> = []
    const logs = { a: capturedLogger(), b: capturedLogger() }
    const boards = { a: recordingBoard(), b: recordingBoard() }
    const databases: Record<'a' | 'b', Database> = {
      a: createDatabase({ kind: 'postgres', url: proxiedUrl.toString() }, { schema: testDb.schema! }),
      b: testDb.open(),
    }
    const controller = new AbortController()
    const start = (by: 'a' | 'b') =>
      createIndexer({
        database: databases[by],
        logger: logs[by].logger,
        rpcUrl: devnet.url,
        network: devnet.network,
        batchSize: 20,
        pageSize: 20,
        decodeInWorker: false,
        health: boards[by].board,
        onProgress: (progress: IndexerProgress) => commits.push({ by, lastLedger: progress.lastLedger }),
      })
        .run(controller.signal)
        .catch(() => {})
    const commitsBy = (by: 'a' | 'b') => commits.filter((commit) => commit.by === by).length
    const runs: Promise<void>[] = []
    try {
      runs.push(start('a'))
      await waitFor('a to index', async () => ((await admin.checkpoint()) ?? 0) >= LEDGERS, 60_000)
      runs.push(start('b'))
      await waitFor('b to wait as standby', () => boards.b.board.indexerState() === 'standby', 30_000)
      const aCommits = commitsBy('a')
      expect(commitsBy('b')).toBe(0)

      // A's connections cut (as a failover does): its session ends, B takes over, A waits.
      proxy.cut()
      await waitFor('b to commit', () => commitsBy('b') >= 3, RESUME_WITHIN_MS)
      await waitFor(
        'a to wait as standby',
        () => boards.a.board.indexerState() === 'standby',
        RESUME_WITHIN_MS,
      )
      const aAfterCut = commitsBy('a')
      expect(aAfterCut).toBeGreaterThanOrEqual(aCommits)

      // B's lock backend terminated: A takes over again.
      const holder = await admin.lockHolder()
      expect(holder).not.toBeNull()
      await admin.terminate(holder!)
      await waitFor('a to commit again', () => commitsBy('a') >= aAfterCut + 3, RESUME_WITHIN_MS)
      await waitFor(
        'b to wait as standby',
        () => boards.b.board.indexerState() === 'standby',
        RESUME_WITHIN_MS,
      )
    } finally {
      controller.abort()
      await Promise.all(runs)
      await databases.a.close()
      await databases.b.close()
      await proxy.close()
    }
    try {
      // At no time did both commit: every batch continued the one before, whoever wrote it, and the
      // stored ledgers are one unbroken run up to the checkpoint.
      for (let i = 1; i < commits.length; i++)
        expect(commits[i]!.lastLedger).toBeGreaterThan(commits[i - 1]!.lastLedger)
      const ledgers = await admin.ledgers()
      const checkpoint = await admin.checkpoint()
      expect(ledgers.at(-1)).toBe(checkpoint)
      expect(ledgers).toEqual(Array.from({ length: ledgers.length }, (_, i) => ledgers[0]! + i))
      expect(commits.at(-1)!.lastLedger).toBe(checkpoint)
      expect(logs.a.text() + logs.b.text()).not.toMatch(RACE_LOGGED)
      expect(logs.a.text()).toContain('lost the indexer lock')
      expect(logs.b.text()).toContain('lost the indexer lock')
    } finally {
      await dropStore()
    }
  })
})
