import { Writable } from 'node:stream'
import { Keypair } from '@stellar/stellar-sdk'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIndexer } from '../../src/indexer/index.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey, signUp } from '../support/factories.ts'
import { startFakeRpc } from './support/fake-rpc.ts'
import { buildFixtureChain } from './support/fixture-chain.ts'
import { TEST_NETWORK } from './support/test-network.ts'

/**
 * The embedded deployment: the indexer writes batches into the store the API writes to in the same
 * process (signups, key creation, the key-usage flush). On SQLite they share one connection, so a
 * batch landing inside an API transaction must wait for it, never fail.
 */
const HOLDER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 8)).publicKey()

describe('ingestion beside the API in one process', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ LAST_USED_FLUSH_MS: '10' })
  })
  afterAll(async () => t.close())

  it('commits every batch while signups, key creation and key use write', async () => {
    const ledgers = buildFixtureChain({ seed: 11, ledgers: 400, accounts: 20 })
    const last = ledgers[ledgers.length - 1]!.sequence
    const rpc = await startFakeRpc({ ledgers, network: TEST_NETWORK })
    const lines: string[] = []
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk))
          done()
        },
      }),
    )
    const key = await createKey(t.app)
    const indexer = createIndexer({
      database: t.database,
      logger,
      rpcUrl: rpc.url,
      network: TEST_NETWORK,
      batchSize: 2,
      pageSize: 4,
    })
    let done = false
    const syncing = indexer.syncTo(last).finally(() => {
      done = true
    })
    const statuses: number[] = []
    // Checkpoints seen between rounds of API writes: batches landed among them, not before or after.
    const checkpoints = new Set<number>()
    try {
      while (!done) {
        const [signup, created, used] = await Promise.all([
          signUp(t.app).then(() => 201),
          createKey(t.app).then(() => 201),
          t.app
            .inject({
              url: `/v1/users/${HOLDER}/positions/vaultprotocol`,
              headers: apiKey(key.key),
            })
            .then((r) => r.statusCode),
        ])
        statuses.push(signup, created, used)
        await t.ctx.keyUsage.flush()
        const checkpoint = indexer.lastIndexedLedger()
        if (checkpoint !== null && checkpoint < last) checkpoints.add(checkpoint)
      }
      await syncing
    } finally {
      await rpc.close()
    }
    expect(indexer.lastIndexedLedger()).toBe(last)
    expect(statuses.length).toBeGreaterThan(3)
    expect(checkpoints.size, 'batches committed while the API wrote').toBeGreaterThanOrEqual(2)
    expect(new Set(statuses)).toEqual(new Set([200, 201]))
    expect(lines.filter((l) => l.includes('ingestion failed'))).toEqual([])
  })
})
