import { mkdirSync, rmSync } from 'node:fs'
import { defaultNetworkUrl, loadNetworkConfig } from '../../chain/load-network.ts'
import {
  createDemoKey,
  type Demo,
  type RunningIndexer,
  runIndexerInBackground,
  startDemoNetwork,
} from '../../demo.ts'
import { startServer } from '../../server.ts'
import type { Command } from '../command.ts'
import { openRuntime, stringOption } from '../runtime.ts'

/** The demo's own database, recreated at each start so it always matches the simulated chain. */
const DEMO_DATABASE_PATH = './.strata/demo.db'

export const serveCommand: Command = {
  help: `
Usage: strata serve [--port N] [--host H] [--demo]

Runs the API on DATABASE_URL (default sqlite:./strata.db). With STELLAR_RPC_URL it also runs the
indexer in the same process (STRATA_NETWORK names the network description, by default
<rpc origin>/network.json); without it, the API serves what a separate "strata index" writes.
--demo starts a simulated network, indexes it into ${DEMO_DATABASE_PATH} (unless DATABASE_URL
is set), and prints a ready API key and a curl command.

Configuration comes from the environment: PORT, HOST, DATABASE_URL, REDIS_URL, STELLAR_RPC_URL,
STRATA_NETWORK, STRATA_ADMIN_TOKEN,
STRATA_JWT_SECRET, STRATA_KEY_PEPPER, ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S,
RATE_LIMIT_PER_MINUTE, LOGIN_ATTEMPTS_PER_WINDOW, LOGIN_WINDOW_S, SIGNUP_ATTEMPTS_PER_WINDOW,
SIGNUP_WINDOW_S, TRUST_PROXY, MAX_PRICE_AGE_S, METRICS_PORT, LOG_LEVEL. Logs are JSON lines on stdout.`,
  options: { port: { type: 'string' }, host: { type: 'string' }, demo: { type: 'boolean' } },
  async run(values) {
    const overrides: { port?: number; host?: string } = {}
    const port = stringOption(values.port)
    if (port !== undefined) {
      if (!/^\d+$/.test(port) || Number(port) > 65535) {
        process.stderr.write(`strata serve: --port must be 0..65535, got "${port}"\n`)
        return 1
      }
      overrides.port = Number(port)
    }
    const host = stringOption(values.host)
    if (host !== undefined) overrides.host = host
    const demo = values.demo === true
    if (demo && !process.env.DATABASE_URL) {
      rmSync('./.strata', { recursive: true, force: true })
      mkdirSync('./.strata', { recursive: true })
      process.env.DATABASE_URL = `sqlite:${DEMO_DATABASE_PATH}`
    }
    const { config, logger, database } = await openRuntime(overrides)

    let demoNetwork: Demo | null = null
    let ingest: RunningIndexer | null = null
    if (demo) {
      process.stderr.write('Starting the simulated network and indexing it...\n')
      demoNetwork = await startDemoNetwork(database, logger)
    } else if (config.stellarRpcUrl) {
      const network = await loadNetworkConfig(config.networkSource ?? defaultNetworkUrl(config.stellarRpcUrl))
      ingest = runIndexerInBackground({ database, logger, rpcUrl: config.stellarRpcUrl, network })
    }

    const server = await startServer(config, logger, database)
    const lines = [`Strata API listening on ${server.url}`, `  OpenAPI: ${server.url}/v1/openapi.json`]
    if (server.metricsUrl) lines.push(`  metrics: ${server.metricsUrl}`)
    if (server.ctx.adminTokenGenerated) {
      lines.push(`  admin token (generated; set STRATA_ADMIN_TOKEN to fix one): ${server.ctx.adminToken}`)
    }
    if (demoNetwork) {
      const key = await createDemoKey(database, server.ctx.keyPepper)
      const holder = demoNetwork.devnet.sampleVaultHolder()
      lines.push(
        `  simulated network (Stellar RPC): ${demoNetwork.devnet.url}, head ledger ${demoNetwork.devnet.latestLedger()}`,
        `  demo API key: ${key}`,
        '',
        'Try:',
        `  curl -H 'x-svc-token: ${key}' ${server.url}/v1/users/${holder}/positions/vaultprotocol`,
      )
    }
    process.stderr.write(`${lines.join('\n')}\n`)
    await waitForShutdown(async () => {
      await server.close()
      await demoNetwork?.close()
      await ingest?.stop()
      await database.close()
    })
    return 0
  },
}

/** Resolves after SIGINT/SIGTERM once `close` has finished; a second signal exits at once. */
export function waitForShutdown(close: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let closing = false
    const onSignal = () => {
      if (closing) process.exit(1)
      closing = true
      close().then(resolve, (error: unknown) => {
        process.stderr.write(`shutdown failed: ${(error as Error).message}\n`)
        process.exitCode = 1
        resolve()
      })
    }
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  })
}
