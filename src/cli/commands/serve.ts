import { mkdirSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { type Config, ConfigError, loadConfig } from '../../config.ts'
import { envHelpText } from '../../config-env.ts'
import type { Demo } from '../../demo.ts'
import { createCommitSignal } from '../../push/commit-signal.ts'
import type { RunningServer } from '../../server.ts'
import type { Command } from '../command.ts'
import { reservePorts } from '../port-reservation.ts'
import { createStarted, describeStartupError } from '../startup.ts'

export const serveCommand: Command = {
  help: `
Usage: strata serve [--port N] [--host H] [--demo]

Runs the API on DATABASE_URL. With STELLAR_RPC_URL it also runs the indexer in the same process
(STRATA_NETWORK names the network description, by default <rpc origin>/network.json) and prints
what it indexes and its progress; without it, the API serves what a separate "strata index" writes.
--demo starts a simulated network, indexes it into a database of its own under ./.strata/ (one
per process, removed when it stops; unless DATABASE_URL is set), and prints a ready API key, the
DATABASE_URL that points the CLI at that database, an account for every protocol and curl commands
(GET /v1/demo/accounts lists the accounts). The port (and METRICS_PORT) is held from the start
until the API listens on it: a busy one fails at once. Any start-up failure (port in use, bad
configuration, unreachable RPC) stops what was started and exits 1 with one line saying why.

Environment (validated together at start-up; --port and --host override PORT and HOST):
${envHelpText()}`,
  options: { port: { type: 'string' }, host: { type: 'string' }, demo: { type: 'boolean' } },
  async run(values) {
    tuneHeapForServing()
    const overrides: Partial<Config> = {}
    const port = typeof values.port === 'string' ? values.port : undefined
    if (port !== undefined) {
      if (!/^\d+$/.test(port) || Number(port) > 65535) {
        process.stderr.write(`strata serve: --port must be 0..65535, got "${port}"\n`)
        return 1
      }
      overrides.port = Number(port)
    }
    if (typeof values.host === 'string') overrides.host = values.host
    const demo = values.demo === true

    // Ctrl-C while starting stops what has started so far, as a failure would.
    const starting = new AbortController()
    const interrupt = () => starting.abort(new Error('interrupted'))
    process.once('SIGINT', interrupt)
    process.once('SIGTERM', interrupt)
    const started = createStarted()
    const portNames: Record<number, string> = {}
    let server: RunningServer
    let shutdownTimeoutMs = 0
    const lines: string[] = []
    try {
      const config = loadConfig(process.env, overrides)
      shutdownTimeoutMs = config.shutdownTimeoutMs
      if (config.metricsPort) portNames[config.metricsPort] = 'METRICS_PORT'
      if (config.port) portNames[config.port] = port !== undefined ? '--port' : 'PORT or --port'
      // Held from here until the listeners bind them: a busy port fails now, in a moment, not
      // after the API has loaded, the devnet has started and its history has been indexed.
      const reservation = await reservePorts([config.port, config.metricsPort], config.host)
      started.add(() => reservation.release())
      const {
        chooseDemoAccounts,
        createDemoKey,
        DEMO_DIR,
        demoAccountLines,
        demoDatabasePath,
        demoDatabaseUrl,
        demoExamples,
        removeDemoDatabase,
        removeStaleDemoDatabases,
        runIndexerInBackground,
        startDemoNetwork,
        createHealthBoard,
        createLogger,
        resolveLogFormat,
        startServer,
        createDatabase,
        migrateToLatest,
        createProgressReporter,
        describeNetwork,
        loadNetworkFor,
        checkRpcSource,
        describeDatabase,
      } = await loadServing()
      let databasePath: string | null = null
      if (demo && config.database.kind === 'sqlite' && !process.env.DATABASE_URL) {
        mkdirSync(DEMO_DIR, { recursive: true })
        removeStaleDemoDatabases()
        const path = demoDatabasePath()
        databasePath = path
        removeDemoDatabase(path)
        started.add(() => removeDemoDatabase(path))
        config.database = { kind: 'sqlite', path }
      }
      const logger = createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat))
      const database = createDatabase(config.database)
      started.add(() => database.close())
      // The in-process indexer and the API share one health board (src/health.ts).
      const health = createHealthBoard()
      // The in-process indexer's commits wake the webhooks' dispatcher and the streams at once.
      const commits = createCommitSignal()
      await migrateToLatest(database)

      let demoNetwork: Demo | null = null
      if (demo) {
        process.stderr.write('Starting the simulated network and indexing it...\n')
        demoNetwork = await startDemoNetwork(database, logger, starting.signal, health, commits)
        const running = demoNetwork
        started.add(() => running.close())
      } else if (config.stellarRpcUrl) {
        const rpcUrl = config.stellarRpcUrl
        // An unreachable RPC is named as the RPC (and its setting), not as its network description.
        const network = await loadNetworkFor(
          rpcUrl,
          'STELLAR_RPC_URL',
          config.networkSource ?? undefined,
          starting.signal,
        )
        await checkRpcSource(rpcUrl, network, starting.signal, 'STELLAR_RPC_URL')
        lines.push(...describeNetwork(network).map((line) => `  indexer ${line}`))
        const report = createProgressReporter({
          mode: process.stderr.isTTY === true ? 'lines' : 'log',
          logger,
          rpcUrl,
          network,
          write: (text) => process.stderr.write(text),
        })
        const ingest = runIndexerInBackground({
          database,
          logger,
          rpcUrl,
          network,
          onStart: report.onStart,
          onProgress: (progress) => {
            report.onProgress(progress)
            commits.notify(progress.lastLedger)
          },
          health,
        })
        started.add(() => ingest.stop())
      }
      starting.signal.throwIfAborted()

      server = await startServer(config, logger, database, health, {
        demo,
        commits,
        beforeListen: () => reservation.release(),
      })
      const running = server
      started.add(() => running.close())
      lines.unshift(
        `Strata API listening on ${server.url}`,
        `  reference: ${server.url}/v1/docs (${server.url} opens it in a browser)`,
        `  console:   ${server.url}/console (sign up, keys, usage, the explorer, pools)`,
        `  OpenAPI:   ${server.url}/v1/openapi.json`,
        `  health:    ${server.url}/v1/health`,
      )
      if (server.metricsUrl) lines.push(`  metrics:   ${server.metricsUrl}`)
      if (server.ctx.adminTokenGenerated) {
        lines.push(`  admin token (generated; set STRATA_ADMIN_TOKEN to fix one): ${server.ctx.adminToken}`)
      }
      if (databasePath) {
        lines.push(
          `  database: ${databasePath} (this demo's own; removed when it stops)`,
          `  the CLI on it: DATABASE_URL=${demoDatabaseUrl(databasePath)} npx strata create-key --org demo --name mine`,
        )
      } else {
        // Named as every command names its store, so the CLI can be pointed at the same one.
        const unset = process.env.DATABASE_URL ? '' : ' (DATABASE_URL is not set: the default)'
        lines.push(
          `  database: ${describeDatabase(config.database)}${unset}; the CLI run with the same DATABASE_URL writes to it`,
        )
      }
      if (demoNetwork) {
        const key = await createDemoKey(database, server.ctx.keyPepper)
        const accounts = await chooseDemoAccounts(database)
        // The examples ask about vaults: the listed vault holder, or the simulator's if none is indexed.
        const holder =
          accounts.find((a) => a.example_of === 'vaultprotocol')?.address ??
          demoNetwork.devnet.sampleVaultHolder()
        lines.push(
          `  simulated network (Stellar RPC): ${demoNetwork.devnet.url}, head ledger ${demoNetwork.devnet.latestLedger()}`,
          `  demo API key: ${key}`,
          '',
          ...demoAccountLines(server.url, key, accounts),
          '',
          ...demoExamples(server.url, key, holder, Math.max(1, demoNetwork.devnet.latestLedger() - 1000)),
        )
      }
    } catch (error) {
      await started.stopAll().catch(() => {})
      if (starting.signal.aborted) return 0
      const reason = error instanceof ConfigError ? error.message : describeStartupError(error, portNames)
      process.stderr.write(`strata serve: ${reason}\n`)
      return 1
    } finally {
      process.off('SIGINT', interrupt)
      process.off('SIGTERM', interrupt)
    }
    // Set apart from the log lines around it: the listener's own line is written out first.
    await new Promise<void>((resolve) => server.app.log.flush(() => resolve()))
    process.stderr.write(`\n${lines.join('\n')}\n\nCtrl-C stops it.\n\n`)
    // Newest first (src/cli/startup.ts): the server answers what it has received, then the
    // indexer stops, then the database closes.
    await waitForShutdown(() => started.stopAll(), shutdownTimeoutMs)
    return 0
  },
}

/**
 * What a running server needs beyond the configuration, loaded once its ports are held: the API,
 * the store, the indexer and the devnet take seconds to load on a busy machine (measured in
 * docs/operations.md), and a busy port should not wait for them.
 */
async function loadServing() {
  const [demo, demoRoutes, health, logger, server, db, migrate, report, network, startup, runtime] =
    await Promise.all([
      import('../../demo.ts'),
      import('../../api/routes/demo.ts'),
      import('../../health.ts'),
      import('../../logger.ts'),
      import('../../server.ts'),
      import('../../store/db.ts'),
      import('../../store/migrate.ts'),
      import('../indexing-report.ts'),
      import('../../chain/load-network.ts'),
      import('../startup.ts'),
      import('../runtime.ts'),
    ])
  return {
    ...demo,
    ...demoRoutes,
    ...health,
    ...logger,
    ...server,
    ...db,
    ...migrate,
    ...report,
    ...network,
    ...startup,
    ...runtime,
  }
}

/**
 * Resolves after SIGINT/SIGTERM once `close` has finished. A second signal exits at once, and so
 * does a stop still unfinished after `timeoutMs` (STRATA_SHUTDOWN_TIMEOUT_MS; 0: no bound), with
 * exit code 1 and a line saying so.
 */
export function waitForShutdown(close: () => Promise<void>, timeoutMs = 0): Promise<void> {
  return new Promise((resolve) => {
    let closing = false
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) process.exit(1)
      closing = true
      process.stderr.write(`${signal}: stopping (answering the requests in flight first)\n`)
      const bound =
        timeoutMs > 0
          ? setTimeout(() => {
              process.stderr.write(
                `shutdown did not finish within ${timeoutMs} ms (STRATA_SHUTDOWN_TIMEOUT_MS); exiting anyway\n`,
              )
              process.exit(1)
            }, timeoutMs)
          : undefined
      bound?.unref()
      close().then(
        () => {
          clearTimeout(bound)
          resolve()
        },
        (error: unknown) => {
          clearTimeout(bound)
          process.stderr.write(`shutdown failed: ${(error as Error).message}\n`)
          process.exitCode = 1
          resolve()
        },
      )
    }
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  })
}

/**
 * Turns off V8's allocation-site pretenuring for the serving process. Under load, a request's
 * short-lived objects (its Fastify request and reply, headers, the answer's strings) can look
 * long-lived to V8 while the answer cache fills; it then allocates them straight in the old
 * generation, where every young object they point to survives the next scavenges. Measured on the
 * vault endpoint (docs/performance.md): in 7 of 12 runs a server fell into that state, spending
 * 7 µs of every request in scavenges instead of 0.5 and doing a full collection every 1.5 s; with
 * pretenuring off, none of 14 runs did. Set before the app allocates anything.
 */
function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring')
}
