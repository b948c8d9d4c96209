import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { dumpIndexedData } from './support/dump.ts'

const OPTIONS = { seed: 'faults', ledgers: 1500, accounts: 300, activity: 0.03, protocolSwitchLedger: 1700 }

async function indexDevnet(
  devnet: Devnet,
  testDb: TestDatabase,
  rpc: { timeoutMs: number },
  pageSize?: number,
) {
  const database = testDb.open()
  try {
    const indexer = createIndexer({
      database,
      logger: pino({ level: 'silent' }),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 100,
      ...(pageSize ? { pageSize } : {}),
      rpc: { ...rpc, baseDelayMs: 5, maxDelayMs: 100, maxAttempts: 20 },
    })
    await indexer.syncTo(devnet.latestLedger())
    return await dumpIndexedData(database)
  } finally {
    await database.close()
  }
}

describe('indexing the devnet', () => {
  const dbs: TestDatabase[] = []
  const devnets: Devnet[] = []
  let clean: Awaited<ReturnType<typeof dumpIndexedData>>

  beforeAll(async () => {
    const devnet = await startDevnet(OPTIONS)
    devnets.push(devnet)
    const db = await createTestDatabase()
    dbs.push(db)
    clean = await indexDevnet(devnet, db, { timeoutMs: 10_000 })
  }, 120_000)
  afterAll(async () => {
    for (const devnet of devnets) await devnet.close()
    for (const db of dbs) await db.drop()
  })

  it('ingests every ledger, both LedgerCloseMeta versions, with snapshots and prices', () => {
    expect(clean.ledgers).toHaveLength(OPTIONS.ledgers)
    expect(clean.indexer_state[0]!.last_ledger).toBe(clean.ledgers[clean.ledgers.length - 1]!.sequence)
    expect(clean.snapshots.length).toBeGreaterThan(500)
    // The Blend pools' own entries (ResData, EmisData, ...) are kept as history.
    expect(clean.contract_state.length).toBeGreaterThan(100)
    expect(clean.prices.length).toBeGreaterThan(20)
  })

  it('writes the identical database when a fifth of the RPC calls fail', async () => {
    const devnet = await startDevnet({ ...OPTIONS, faultRate: 0.2, faultTimeoutMs: 1500 })
    devnets.push(devnet)
    const db = await createTestDatabase()
    dbs.push(db)
    // Small pages: many calls, so 500s, 429s, timeouts and truncated bodies all occur.
    expect(await indexDevnet(devnet, db, { timeoutMs: 500 }, 25)).toEqual(clean)
  }, 120_000)
})
