import { defaultNetworkUrl, loadNetworkConfig } from '../chain/load-network.ts'
import type { NetworkConfig } from '../chain/network.ts'
import { createRpcClient } from '../chain/rpc-client.ts'
import { StoreStartError } from '../store/store-errors.ts'

/**
 * What a command has started so far, stopped in reverse order: a start-up that fails half-way
 * stops the devnet, the indexer, the listeners and the database it had opened, so the process
 * exits on its own instead of hanging on a live server.
 */
export interface Started {
  /** Registers how to stop something just started. */
  add(stop: () => Promise<void> | void): void
  /** Stops everything registered, newest first; a failing stop does not keep the others running. */
  stopAll(): Promise<void>
}

export function createStarted(): Started {
  const stops: Array<() => Promise<void> | void> = []
  return {
    add(stop) {
      stops.push(stop)
    },
    async stopAll() {
      const failures: unknown[] = []
      while (stops.length > 0) {
        try {
          await stops.pop()!()
        } catch (error) {
          failures.push(error)
        }
      }
      if (failures.length > 0) throw failures[0]
    },
  }
}

/** A listen failure as Node reports it. */
interface ListenError extends Error {
  code?: string
  syscall?: string
  hostname?: string
  port?: number
  address?: string
}

/**
 * One line saying why start-up failed and, where there is one, what to do about it. `portNames`
 * says which setting chose each port, so a busy one names the setting to change. A database file
 * that cannot be opened or written arrives as a StoreStartError (src/store/store-errors.ts), whose
 * message names the path and the cause; this adds the setting. A host name that does not resolve
 * is the listen address (HOST): the commands name a database they cannot reach themselves.
 */
export function describeStartupError(error: unknown, portNames: Record<number, string> = {}): string {
  // A database file that cannot be opened names its path; the setting that chose it is DATABASE_URL.
  if (error instanceof StoreStartError) return `${error.message} (check DATABASE_URL)`
  const e = error as ListenError
  if (e.code === 'ENOTFOUND' && e.syscall === 'getaddrinfo') {
    return `cannot listen on "${e.hostname ?? ''}": no such host name (HOST or --host)`
  }
  const where = e.port !== undefined ? `port ${e.port}${e.address ? ` on ${e.address}` : ''}` : 'the port'
  const setting = e.port !== undefined ? portNames[e.port] : undefined
  if (e.code === 'EADDRINUSE') {
    return `${where} is already in use; stop what holds it, or choose another port${setting ? ` (${setting})` : ''}`
  }
  if (e.code === 'EACCES') return `not allowed to listen on ${where} (ports below 1024 need privileges)`
  if (e.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such address on this machine (HOST)`
  return e instanceof Error ? e.message.split('\n').join(' ') : String(error)
}

/** A Stellar RPC that cannot serve this start: unreachable, or serving another network. */
export class RpcSourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RpcSourceError'
  }
}

/**
 * The system error code (ECONNREFUSED, ENOTFOUND...) behind a failed request, wherever the
 * transport put it: on the error itself (node:http) or a cause or two down (fetch).
 */
function systemErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
  }
  return undefined
}

/** Attempts before an unreachable RPC stops start-up (the indexer retries without end once running). */
const PREFLIGHT_ATTEMPTS = 4

/**
 * Checks, before anything else starts, that the RPC answers and serves the described network: a
 * wrong URL or network is one clear line at start-up, not an indexer retrying in the background.
 */
export async function checkRpcSource(
  rpcUrl: string,
  network: NetworkConfig,
  signal?: AbortSignal,
  setting = 'STELLAR_RPC_URL',
) {
  const client = createRpcClient({ url: rpcUrl, maxAttempts: PREFLIGHT_ATTEMPTS, timeoutMs: 10_000 })
  let passphrase: string
  try {
    passphrase = (await client.getNetwork(signal)).passphrase
  } catch (error) {
    if (signal?.aborted) throw error
    const message = (error as Error).message
    const code = systemErrorCode(error)
    throw new RpcSourceError(
      `cannot reach the Stellar RPC at ${rpcUrl} (${setting}): ${message}${code && !message.includes(code) ? ` (${code})` : ''}`,
    )
  }
  if (passphrase !== network.passphrase) {
    throw new RpcSourceError(
      `${rpcUrl} (${setting}) serves the network "${passphrase}", but the network description "${network.name}" is "${network.passphrase}"`,
    )
  }
}

/**
 * The network description `source` names, by default the RPC's own (<rpc origin>/network.json).
 * When it is the RPC's own and nothing answers there, the RPC is unreachable: the failure names the
 * RPC and its `setting`, not the description.
 */
export async function loadNetworkFor(
  rpcUrl: string,
  setting: string,
  source: string | undefined,
  signal?: AbortSignal,
): Promise<NetworkConfig> {
  const own = defaultNetworkUrl(rpcUrl)
  try {
    return await loadNetworkConfig(source ?? own, signal)
  } catch (error) {
    const code = systemErrorCode(error)
    if (signal?.aborted || (source !== undefined && source !== own) || code === undefined) throw error
    throw new RpcSourceError(
      `cannot reach the Stellar RPC at ${rpcUrl} (${setting}): fetching ${own} failed (${code})`,
    )
  }
}
