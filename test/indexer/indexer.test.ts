import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIndexer } from '../../src/indexer/index.ts'
import { getNetworkConfig, NetworkMismatchError } from '../../src/store/network.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { dumpIndexedData } from './support/dump.ts'
import { startFakeRpc } from './support/fake-rpc.ts'
import { buildFixtureChain, type FixtureLedger } from './support/fixture-chain.ts'
import { TEST_NETWORK } from './support/test-network.ts'

const logger = pino({ level: 'silent' })

async function indexInto(
  testDb: TestDatabase,
  url: string,
  last: number,
  options: { batchSize?: number; pageSize?: number; timeoutMs?: number } = {},
) {
  const database = testDb.open()
  try {
    const indexer = createIndexer({
      database,
      logger,
      rpcUrl: url,
      network: TEST_NETWORK,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.pageSize ? { pageSize: options.pageSize } : {}),
      rpc: { timeoutMs: options.timeoutMs ?? 5000, baseDelayMs: 5, maxDelayMs: 50 },
    })
    await indexer.syncTo(last)
    expect(indexer.lastIndexedLedger()).toBe(last)
    return await dumpIndexedData(database)
  } finally {
    await database.close()
  }
}

describe('createIndexer against a Stellar RPC', () => {
  let ledgers: FixtureLedger[]
  let last: number
  let clean: Awaited<ReturnType<typeof dumpIndexedData>>
  const dbs: TestDatabase[] = []
  const fresh = async () => {
    const db = await createTestDatabase()
    dbs.push(db)
    return db
  }

  beforeAll(async () => {
    ledgers = buildFixtureChain({ seed: 7, ledgers: 700, accounts: 30 })
    last = ledgers[ledgers.length - 1]!.sequence
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK })
    try {
      clean = await indexInto(await fresh(), rpc.url, last)
    } finally {
      await rpc.close()
    }
  })
  afterAll(async () => {
    for (const db of dbs) await db.drop()
  })

  it('ingests every ledger with snapshots and prices', () => {
    expect(clean.ledgers).toHaveLength(700)
    expect(clean.ledgers[0]).toMatchObject({ sequence: 1000, close_time: 1_700_000_000 })
    expect(clean.indexer_state).toEqual([{ name: 'ledgers', last_ledger: last }])
    expect(clean.snapshots.length).toBeGreaterThan(100)
    expect(clean.snapshots.some((s) => s.positions === '[]')).toBe(true)
    // FxDAO's VaultsInfo totals are the only contract state: this network lists no lending pool.
    expect(clean.contract_state.length).toBeGreaterThan(0)
    expect(new Set(clean.contract_state.map((r) => String(r.key).split('/')[0]))).toEqual(
      new Set(['VaultsInfo']),
    )
    // The oracle posts three prices every 60 ledgers, alternately as v3 events and as v2 storage.
    expect(clean.prices).toHaveLength(3 * Math.ceil(700 / 60))
    expect(new Set(clean.prices.map((p) => p.decimals))).toEqual(new Set([14]))
  })

  it('writes the same database whatever the batch size', async () => {
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK })
    try {
      expect(await indexInto(await fresh(), rpc.url, last, { batchSize: 7 })).toEqual(clean)
    } finally {
      await rpc.close()
    }
  })

  it('writes the same database through 500s, 429s, timeouts, truncated and invalid bodies', async () => {
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK, faultRate: 0.2, hangMs: 1000 })
    try {
      // Small pages make many requests, so every kind of fault is met.
      expect(
        await indexInto(await fresh(), rpc.url, last, { batchSize: 50, pageSize: 10, timeoutMs: 300 }),
      ).toEqual(clean)
      expect(Object.values(rpc.faults()).every((n) => n > 0)).toBe(true)
    } finally {
      await rpc.close()
    }
  })

  it('resumes from the checkpoint in a later process and follows the head until stopped', async () => {
    const db = await fresh()
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK })
    const database = db.open()
    try {
      const first = createIndexer({
        database,
        logger,
        rpcUrl: rpc.url,
        network: TEST_NETWORK,
        batchSize: 100,
      })
      await first.syncTo(1333)
      expect(first.lastIndexedLedger()).toBeGreaterThanOrEqual(1333)
      const second = createIndexer({
        database,
        logger,
        rpcUrl: rpc.url,
        network: TEST_NETWORK,
        pollIntervalMs: 20,
      })
      const controller = new AbortController()
      const running = second.run(controller.signal)
      await second.syncTo(last)
      controller.abort()
      await running
      expect(await dumpIndexedData(database)).toEqual(clean)
    } finally {
      await database.close()
      await rpc.close()
    }
  })
})

describe('one network, one store', () => {
  const ledgers = buildFixtureChain({ seed: 3, ledgers: 40, accounts: 5 })
  const last = ledgers[ledgers.length - 1]!.sequence
  const OTHER = { ...TEST_NETWORK, name: 'other', passphrase: 'Another network ; 2026' }
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase()
  })
  afterAll(async () => {
    await db.drop()
  })

  const sync = async (rpcNetwork: typeof TEST_NETWORK, described: typeof TEST_NETWORK) => {
    const rpc = await startFakeRpc({ ledgers, network: rpcNetwork })
    const database = db.open()
    try {
      const indexer = createIndexer({ database, logger, rpcUrl: rpc.url, network: described })
      await indexer.syncTo(last)
    } finally {
      await database.close()
      await rpc.close()
    }
  }
  const dump = async () => {
    const database = db.open()
    try {
      return { data: await dumpIndexedData(database), network: await getNetworkConfig(database) }
    } finally {
      await database.close()
    }
  }

  it('refuses a source that serves another network than the one described, writing nothing', async () => {
    await expect(sync(OTHER, TEST_NETWORK)).rejects.toThrow(NetworkMismatchError)
    const { data, network } = await dump()
    expect(data.ledgers).toEqual([])
    expect(network).toBeNull()
  })

  it('refuses to continue a store of one network from another, leaving it as it was', async () => {
    await sync(TEST_NETWORK, TEST_NETWORK)
    const before = await dump()
    expect(before.data.ledgers).toHaveLength(40)
    await expect(sync(OTHER, OTHER)).rejects.toThrow(/holds the network "Strata test network"/)
    expect(await dump()).toEqual(before)
  })
})
