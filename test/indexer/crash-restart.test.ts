import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { writeDatalake } from '../../src/devnet/ledger/datalake-writer.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { getCheckpoint } from '../../src/store/ledger-data.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { dumpIndexedData, hashDump } from './support/dump.ts'

/**
 * Where each kill lands: during start-up (migrations, lock, the decoding thread loading), while
 * backfilling from the data lake, just as the last lake ledgers commit and the RPC takes over, and
 * while following the RPC. Ten restarts: each costs a process start, several seconds on a loaded
 * machine.
 */
const KILLS = [
  'startup',
  'backfill',
  'backfill',
  'startup',
  'handover',
  'rpc',
  'startup',
  'rpc',
  'rpc',
  'rpc',
] as const
const LEDGERS = 3000
const START = 1000
/** The RPC serves only the latest half; the older half is backfilled from the data lake. */
const RETENTION = 1500
const HANDOVER = START + LEDGERS - RETENTION

function spawnIndexer(rpcUrl: string, lakeUrl: string, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    [
      'src/cli/main.ts',
      'index',
      '--rpc-url',
      rpcUrl,
      '--datalake',
      lakeUrl,
      '--from-ledger',
      String(START),
      '--batch-size',
      '40',
    ],
    { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
}

/** Resolves once the child has started ingesting (or has exited). */
function waitForStart(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      if (out.includes('indexer starting')) resolve()
    })
    child.once('exit', () => resolve())
  })
}

async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGKILL')
  await exited
}

describe('strata index killed with SIGKILL at random moments', () => {
  let devnet: Devnet
  let last: number
  let lakeDir: string
  let lake: Server
  let lakeUrl: string
  const dbs: TestDatabase[] = []

  beforeAll(async () => {
    // Many accounts, many of them active in every ledger; LedgerCloseMeta v1 before ledger 2000, v2 after.
    devnet = await startDevnet({
      seed: 'crash',
      ledgers: LEDGERS,
      accounts: 400,
      activity: 0.03,
      // The Blend pools are indexed too; fewer lenders than vault holders keep the run in its time.
      lendingActivity: 0.01,
      protocolSwitchLedger: 2000,
      rpcRetentionLedgers: RETENTION,
      // No DeFindex vaults: no module reads them yet, and their ledgers would add 60% more bytes to
      // every one of the 22 restarts (the same world as before they existed, byte for byte).
      yieldActivity: 0,
    })
    last = devnet.latestLedger()
    lakeDir = mkdtempSync(join(tmpdir(), 'strata-crash-lake-'))
    await writeDatalake(devnet.chain, lakeDir)
    lake = createServer((req, res) => {
      let body: Buffer
      try {
        body = readFileSync(join(lakeDir, decodeURIComponent((req.url ?? '/').slice(1))))
      } catch {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200).end(body)
    })
    await new Promise<void>((resolve) => lake.listen(0, '127.0.0.1', resolve))
    lakeUrl = `http://127.0.0.1:${(lake.address() as AddressInfo).port}`
  }, 120_000)
  afterAll(async () => {
    await new Promise((resolve) => lake?.close(resolve))
    rmSync(lakeDir, { recursive: true, force: true })
    await devnet?.close()
    for (const db of dbs) await db.drop()
  })

  it('ends with exactly the database of an uninterrupted run', async () => {
    const cleanDb = await createTestDatabase()
    dbs.push(cleanDb)
    const cleanHandle = cleanDb.open()
    const indexer = createIndexer({
      database: cleanHandle,
      logger: pino({ level: 'silent' }),
      rpcUrl: devnet.url,
      network: devnet.network,
      datalake: lakeUrl,
      fromLedger: START,
    })
    await indexer.syncTo(last)
    const clean = await dumpIndexedData(cleanHandle)
    await cleanHandle.close()

    const crashedDb = await createTestDatabase()
    dbs.push(crashedDb)
    const reader = crashedDb.open()
    const checkpoints: (number | null)[] = []
    try {
      for (const moment of KILLS) {
        const child = spawnIndexer(devnet.url, lakeUrl, crashedDb.env)
        if (moment === 'startup') await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000))
        else {
          const from = (await getCheckpoint(reader)) ?? START - 1
          // Backfill: a few hundred ledgers on, short of the hand-over. Hand-over: as soon as the
          // batches before it commit, so the kill falls on the batch straddling the lake's last
          // ledgers and the RPC's first. RPC: a little after the checkpoint passes a random ledger.
          const target =
            moment === 'backfill'
              ? Math.min(from + 300 + Math.floor(Math.random() * 400), HANDOVER - 200)
              : moment === 'handover'
                ? HANDOVER - 60
                : from + 20 + Math.floor(Math.random() * 250)
          const deadline = Date.now() + 30_000
          while (
            child.exitCode === null &&
            Date.now() < deadline &&
            ((await getCheckpoint(reader)) ?? 0) < target
          ) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
          if (moment !== 'handover') await new Promise((resolve) => setTimeout(resolve, Math.random() * 60))
        }
        await killHard(child)
        checkpoints.push(await getCheckpoint(reader))
      }
      const child = spawnIndexer(devnet.url, lakeUrl, crashedDb.env)
      // Its signal handlers are in place once it says it is starting.
      await waitForStart(child)
      let stderr = ''
      child.stderr?.on('data', (chunk) => {
        stderr += chunk
      })
      const deadline = Date.now() + 60_000
      while ((await getCheckpoint(reader)) !== last) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`indexer did not finish: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      child.kill('SIGTERM')
      const [code] = await once(child, 'exit')
      expect(code, stderr).toBe(0)
      const midway = checkpoints.filter((c) => c !== null && c < last)
      expect(midway.length, `checkpoints after each kill: ${checkpoints.join(',')}`).toBeGreaterThanOrEqual(3)
      // Kills landed while backfilling from the lake, at the hand-over and after it, on the RPC.
      expect(midway.some((c) => c! < HANDOVER - 100)).toBe(true)
      expect(midway.some((c) => c! >= HANDOVER - 100 && c! <= HANDOVER + 100)).toBe(true)
      expect(midway.some((c) => c! > HANDOVER + 100)).toBe(true)
      const crashed = await dumpIndexedData(reader)
      expect(hashDump(crashed)).toBe(hashDump(clean))
      expect(crashed).toEqual(clean)
    } finally {
      await reader.close()
    }
    // Its earlier form (22 restarts, 4,000 ledgers) took 72 s on a quiet machine; this one does less,
    // but took 265 s with other suites loading the two cores (load average above 10): room for that.
  }, 420_000)
})
