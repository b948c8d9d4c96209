import { type Devnet, type DevnetOptions, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer, type Indexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { createTestApp, type TestApp } from './app.ts'
import { apiKey, createKey } from './factories.ts'

/**
 * A devnet world indexed into a test app, as the cross-protocol tests use it: the devnet, the app
 * on its own fresh store, the indexer that filled it, and an API key to ask with.
 */
export interface IndexedDevnet {
  devnet: Devnet
  t: TestApp
  indexer: Indexer
  key: string
  /** A GET with the world's key: the status and the parsed body. */
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
  get<B = any>(url: string): Promise<{ status: number; body: B }>
  close(): Promise<void>
}

/**
 * Starts the devnet, a test app (no rate limit to speak of, `maxPriceAgeS` as the price age) and
 * indexes the devnet into it up to `syncTo` (its latest ledger by default).
 */
export async function startIndexedDevnet(
  options: DevnetOptions,
  settings: { maxPriceAgeS?: number; syncTo?: number; batchSize?: number } = {},
): Promise<IndexedDevnet> {
  const devnet = await startDevnet(options)
  const t = await createTestApp({
    MAX_PRICE_AGE_S: String(settings.maxPriceAgeS ?? 3600),
    RATE_LIMIT_PER_MINUTE: '1000000',
  })
  const indexer = createIndexer({
    database: t.database,
    logger: createLogger('silent'),
    rpcUrl: devnet.url,
    network: devnet.network,
    batchSize: settings.batchSize ?? 50,
  })
  await indexer.syncTo(settings.syncTo ?? devnet.latestLedger())
  const { key } = await createKey(t.app)
  return {
    devnet,
    t,
    indexer,
    key,
    get: async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
      return { status: response.statusCode, body: response.json() }
    },
    close: async () => {
      await t.close()
      await devnet.close()
    },
  }
}
