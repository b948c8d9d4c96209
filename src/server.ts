import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { type App, type BuildAppOptions, buildApp, startDraining } from './api/app.ts'
import { startMetricsServer } from './api/metrics.ts'
import type { Config } from './config.ts'
import { type AppContext, createContext } from './context.ts'
import type { HealthBoard } from './health.ts'
import type { Logger } from './logger.ts'
import type { Database } from './store/db.ts'

export interface RunningServer {
  app: App
  ctx: AppContext
  url: string
  /** The Prometheus endpoint, when METRICS_PORT is set. */
  metricsUrl: string | null
  /**
   * Stops gracefully: every request received is answered, then the listener and the context
   * close (see `closeGracefully`). What it cannot finish is for the caller to bound.
   */
  close(): Promise<void>
}

/**
 * How long connections that were idle when the stop began stay open before they are closed. A
 * request a client sent just before the signal may still sit unread in the connection's buffer
 * (the event loop reads it a turn or a busy stretch later): closing the connection at once would
 * reset it unanswered. Within this time it is read and answered like any other.
 */
const IDLE_GRACE_MS = 500

/**
 * The order of a graceful stop: answers start carrying `connection: close` (a keep-alive
 * connection closes after the request it carries); after a short grace the listener stops
 * accepting, the idle connections close, and the app waits for every request in flight to be
 * answered; only then the context closes (Redis, the key-usage writer), before the caller stops
 * the indexer and closes the database.
 */
async function closeGracefully(app: App, ctx: AppContext): Promise<void> {
  startDraining(app)
  await sleep(IDLE_GRACE_MS)
  await app.close()
  await ctx.close()
}

export interface StartServerOptions extends BuildAppOptions {
  /** Runs right before the listeners bind: a caller holding the ports lets them go there. */
  beforeListen?: () => Promise<void>
}

/** Builds the app on a migrated database and listens. */
export async function startServer(
  config: Config,
  logger: Logger,
  database: Database,
  health?: HealthBoard,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const ctx = await createContext(config, logger, { database, ...(health ? { health } : {}) })
  // A failure to build or listen closes what was opened (the Redis client, the key-usage timer,
  // the first listener), so the caller can stop and the process can exit.
  let app: App | null = null
  try {
    app = await buildApp(ctx, options)
    await options.beforeListen?.()
    const address = await app.listen({ port: config.port, host: config.host })
    const url = address.replace('[::1]', 'localhost')
    const metrics =
      config.metricsPort === null
        ? null
        : await startMetricsServer(ctx.metrics, config.metricsPort, config.host)
    const listening = app
    return {
      app: listening,
      ctx,
      url,
      metricsUrl: metrics ? `http://${config.host}:${(metrics.address() as AddressInfo).port}/metrics` : null,
      async close() {
        metrics?.close()
        await closeGracefully(listening, ctx)
      },
    }
  } catch (error) {
    await app?.close().catch(() => {})
    await ctx.close().catch(() => {})
    throw error
  }
}
