import type { Awaitable } from '../awaitable.ts'
import { normalizeNetworkConfig } from '../chain/load-network.ts'
import type { NetworkConfig } from '../chain/network.ts'
import type { Database } from './db.ts'

const CURRENT = 'current'

/** Two networks met: the store's and the description's, or the description's and the source's. Nothing is written. */
export class NetworkMismatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NetworkMismatchError'
  }
}

/**
 * Binds the store to the network the indexer ingests, or refuses another one. The first indexer
 * records the description; later ones may update it (contracts get listed, versions change) only
 * under the same passphrase. The API reads it to describe contracts and assets.
 */
export async function bindNetwork(database: Database, network: NetworkConfig, now: number): Promise<void> {
  const stored = await getNetworkConfig(database)
  if (stored !== null && stored.passphrase !== network.passphrase) {
    throw new NetworkMismatchError(
      `this store holds the network "${stored.passphrase}"; refusing to ingest "${network.passphrase}" into it (use another DATABASE_URL)`,
    )
  }
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
  return row ? normalizeNetworkConfig(JSON.parse(row.config) as NetworkConfig) : null
}

/** The stored network description, as the API reads it. */
export interface NetworkProvider {
  /** The description (null until an indexer has bound the store): in this turn while it is fresh. */
  get(): Awaitable<NetworkConfig | null>
}

/** The stored network, cached; re-read at most every `refreshMs` while absent or to pick up changes. */
export function createNetworkProvider(database: Database, refreshMs = 5000): NetworkProvider {
  let cached: NetworkConfig | null = null
  let loadedAt = Number.NEGATIVE_INFINITY
  let loading: Promise<NetworkConfig | null> | null = null
  return {
    // The cached description is returned in the same turn; only a refresh waits for the store.
    get() {
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
