import { readFile } from 'node:fs/promises'
import type { NetworkConfig } from './network.ts'

/** Where a network's description lives when none is named: the RPC server's own `/network.json`. */
export function defaultNetworkUrl(rpcUrl: string): string {
  return new URL('/network.json', new URL(rpcUrl).origin).toString()
}

function requireNetworkConfig(value: unknown, source: string): NetworkConfig {
  const config = value as Partial<NetworkConfig> | null
  const vault = config?.contracts?.vaultprotocol?.address
  const oracle = config?.contracts?.oracle?.address
  if (typeof vault !== 'string' || typeof oracle !== 'string') {
    throw new Error(
      `${source} is not a network description: contracts.vaultprotocol/oracle addresses are missing`,
    )
  }
  return config as NetworkConfig
}

/** Reads a NetworkConfig from an http(s) URL or a JSON file. */
export async function loadNetworkConfig(source: string, signal?: AbortSignal): Promise<NetworkConfig> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { signal: signal ?? AbortSignal.timeout(10_000) })
    if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`)
    return requireNetworkConfig(await response.json(), source)
  }
  return requireNetworkConfig(JSON.parse(await readFile(source, 'utf8')), source)
}
