import type { AddressInfo } from 'node:net'
import type { NetworkConfig } from '../chain/network.ts'
import { createDevnetServer, DEFAULT_FAULT_TIMEOUT_MS } from './rpc/server.ts'
import { createDevnetChain, type DevnetChain, type DevnetOptions } from './world/chain.ts'

export type { DevnetChain, DevnetOptions, StoredEvent, StoredLedger } from './world/chain.ts'
export { createDevnetChain } from './world/chain.ts'

/** A running devnet: a Stellar-RPC-compatible JSON-RPC endpoint over a simulated chain. */
export interface Devnet {
  /** JSON-RPC endpoint (POST); GET `${url}/network.json` serves `network`. */
  url: string
  network: NetworkConfig
  chain: DevnetChain
  latestLedger(): number
  /** An account that holds an open vault at the latest ledger. */
  sampleVaultHolder(): string
  close(): Promise<void>
}

/** Generates the requested ledgers, then listens (port 0 picks a free port). */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const chain = createDevnetChain(options)
  const served = createDevnetServer(chain, {
    seed: String(options.seed),
    faultRate: options.faultRate ?? 0,
    faultTimeoutMs: options.faultTimeoutMs ?? DEFAULT_FAULT_TIMEOUT_MS,
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    served.server.once('error', reject)
    served.server.listen(options.port ?? 0, host, () => {
      served.server.off('error', reject)
      resolve()
    })
  })
  const { port } = served.server.address() as AddressInfo
  const ticker =
    options.closeIntervalMs != null && options.closeIntervalMs > 0
      ? setInterval(() => chain.closeNextLedger(), options.closeIntervalMs)
      : null
  ticker?.unref()
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${port}`,
    network: chain.network,
    chain,
    latestLedger: () => chain.latestLedger(),
    sampleVaultHolder: () => chain.sampleVaultHolder(),
    close: async () => {
      if (ticker) clearInterval(ticker)
      await served.close()
    },
  }
}
