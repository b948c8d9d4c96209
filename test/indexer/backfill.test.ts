import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { writeDatalake } from '../../src/devnet/ledger/datalake-writer.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { buildReferenceModel, type ReferenceModel } from '../positions/reference-model.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { dumpIndexedData } from './support/dump.ts'

const logger = pino({ level: 'silent' })
const WORLD = {
  seed: 'backfill',
  ledgers: 1_200,
  accounts: 60,
  startLedger: 1_000,
  protocolSwitchLedger: 1_500,
}
/** Like Stellar RPC's 7-day window: the RPC serves only the latest 300 ledgers. */
const RETENTION = 300

/**
 * History older than the RPC's window comes from the data lake (SEP-54) over HTTP, then ingestion
 * hands over to the RPC; the result is what ingesting everything over RPC gives, and coverage is
 * honest when the lake is not used.
 */
describe('backfill from the data lake, then the RPC', () => {
  let windowed: Devnet
  let full: Devnet
  let lakeDir: string
  let lake: Server
  let lakeUrl: string
  let model: ReferenceModel
  const apps: TestApp[] = []

  beforeAll(async () => {
    windowed = await startDevnet({ ...WORLD, rpcRetentionLedgers: RETENTION })
    full = await startDevnet(WORLD)
    model = buildReferenceModel(full.chain)
    lakeDir = await mkdtemp(join(tmpdir(), 'strata-backfill-lake-'))
    await writeDatalake(windowed.chain, lakeDir)
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
    for (const app of apps) await app.close()
    await new Promise((resolve) => lake?.close(resolve))
    await windowed?.close()
    await full?.close()
    rmSync(lakeDir, { recursive: true, force: true })
  })

  const index = async (devnet: Devnet, options: { datalake?: string; fromLedger?: number }) => {
    const app = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' })
    apps.push(app)
    const indexer = createIndexer({
      database: app.database,
      logger,
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 97,
      ...options,
    })
    await indexer.syncTo(devnet.latestLedger())
    return { app, key: (await createKey(app.app)).key }
  }

  it('ends with the same database as ingesting every ledger over RPC', async () => {
    expect(windowed.chain.servedFrom()).toBe(WORLD.startLedger + WORLD.ledgers - RETENTION)
    const backfilled = await index(windowed, { datalake: lakeUrl, fromLedger: WORLD.startLedger })
    const everything = await index(full, { fromLedger: WORLD.startLedger })
    const a = await dumpIndexedData(backfilled.app.database)
    const b = await dumpIndexedData(everything.app.database)
    expect(a.ledgers).toHaveLength(WORLD.ledgers)
    expect(a).toEqual(b)
  })

  it('answers a vault opened before the first ingested ledger as partial, and after a backfill in full', async () => {
    const firstServed = windowed.chain.servedFrom()
    // A vault opened before the RPC's window and not touched within it.
    const [address, snapshot] = [...model.snapshots]
      .map(([a, list]) => [a, list.filter((s) => s.ledger < firstServed).at(-1)] as const)
      .find(
        ([a, s]) => s && s.vaults.size > 0 && !model.snapshots.get(a)!.some((x) => x.ledger >= firstServed),
      )!
    expect(snapshot).toBeDefined()

    const recent = await index(windowed, {})
    const partial = (
      await recent.app.app.inject({
        url: `/v1/users/${address}/positions/vaultprotocol`,
        headers: apiKey(recent.key),
      })
    ).json()
    expect(partial.meta.indexed_from_ledger).toBe(firstServed)
    expect(partial.meta.partial_result).toBe(true)
    expect(partial.data.vaults).toEqual([])

    const backfilled = await index(windowed, { datalake: lakeUrl, fromLedger: WORLD.startLedger })
    const whole = (
      await backfilled.app.app.inject({
        url: `/v1/users/${address}/positions/vaultprotocol`,
        headers: apiKey(backfilled.key),
      })
    ).json()
    expect(whole.meta.indexed_from_ledger).toBe(WORLD.startLedger)
    expect(whole.meta.partial_result).toBe(false)
    expect(whole.meta.as_of_ledger).toBe(snapshot!.ledger)
    expect(whole.data.vaults.map((v: { denomination: string }) => v.denomination).sort()).toEqual(
      [...snapshot!.vaults.keys()].sort(),
    )
  })

  it('refuses a data lake of another network', async () => {
    const app = await createTestApp()
    apps.push(app)
    const other = await startDevnet({ ...WORLD, seed: 'another', ledgers: 20 })
    try {
      const indexer = createIndexer({
        database: app.database,
        logger,
        rpcUrl: other.url,
        network: other.network,
        datalake: lakeUrl,
        fromLedger: WORLD.startLedger,
      })
      await expect(indexer.syncTo(other.latestLedger())).rejects.toThrow(/data lake .* holds the network/)
      expect((await dumpIndexedData(app.database)).ledgers).toEqual([])
    } finally {
      await other.close()
    }
  })
})
