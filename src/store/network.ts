import type { NetworkConfig } from '../chain/network.ts'
import type { Database } from './db.ts'

const CURRENT = 'current'

/** Records the network the indexer ingests; the API reads it to describe contracts and assets. */
export async function saveNetworkConfig(
  database: Database,
  network: NetworkConfig,
  now: number,
): Promise<void> {
  const config = JSON.stringify(network)
  await database.db
    .insertInto('networks')
    .values({ name: CURRENT, config, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ config, updated_at: now }))
    .execute()
}

export async function getNetworkConfig(database: Database): Promise<NetworkConfig | null> {
  const row = await database.db
    .selectFrom('networks')
    .select('config')
    .where('name', '=', CURRENT)
    .executeTakeFirst()
  return row ? (JSON.parse(row.config) as NetworkConfig) : null
}

/** The stored network, cached; re-read at most every `refreshMs` while absent or to pick up changes. */
export function createNetworkProvider(
  database: Database,
  refreshMs = 5000,
): { get(): Promise<NetworkConfig | null> } {
  let cached: NetworkConfig | null = null
  let loadedAt = Number.NEGATIVE_INFINITY
  let loading: Promise<NetworkConfig | null> | null = null
  return {
    async get() {
      const now = Date.now()
      if (now - loadedAt < (cached ? refreshMs : 1000)) return cached
      loading ??= getNetworkConfig(database)
        .then((network) => {
          cached = network
          loadedAt = Date.now()
          return network
        })
        .finally(() => {
          loading = null
        })
      return loading
    },
  }
}
