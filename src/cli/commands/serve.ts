import { startServer } from '../../server.ts'
import type { Command } from '../command.ts'
import { openRuntime, stringOption } from '../runtime.ts'

export const serveCommand: Command = {
  summary: 'run the HTTP API (with --demo: a simulated network and its indexer too)',
  help: `
Usage: strata serve [--port N] [--host H] [--demo]

Runs the API on DATABASE_URL (default sqlite:./strata.db). Configuration comes from the
environment: PORT, HOST, DATABASE_URL, REDIS_URL, STELLAR_RPC_URL, STRATA_ADMIN_TOKEN,
STRATA_JWT_SECRET, STRATA_KEY_PEPPER, ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S,
RATE_LIMIT_PER_MINUTE, MAX_PRICE_AGE_S, LOG_LEVEL. Logs are JSON lines on stdout.`,
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
    const { config, logger, database } = await openRuntime(overrides)
    const server = await startServer(config, logger, database)
    const lines = [`Strata API listening on ${server.url}`, `  OpenAPI: ${server.url}/v1/openapi.json`]
    if (server.ctx.adminTokenGenerated) {
      lines.push(`  admin token (generated; set STRATA_ADMIN_TOKEN to fix one): ${server.ctx.adminToken}`)
    }
    process.stderr.write(`${lines.join('\n')}\n`)
    await waitForShutdown(async () => {
      await server.close()
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
