import type { AddressInfo } from 'node:net'
import { type App, buildApp } from './api/app.ts'
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
  close(): Promise<void>
}

/** Builds the app on a migrated database and listens. */
export async function startServer(
  config: Config,
  logger: Logger,
  database: Database,
  health?: HealthBoard,
): Promise<RunningServer> {
  const ctx = await createContext(config, logger, { database, ...(health ? { health } : {}) })
  // A failure to build or listen closes what was opened (the Redis client, the key-usage timer,
  // the first listener), so the caller can stop and the process can exit.
  let app: App | null = null
  try {
    app = await buildApp(ctx)
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
        await listening.close()
        await ctx.close()
      },
    }
  } catch (error) {
    await app?.close().catch(() => {})
    await ctx.close().catch(() => {})
    throw error
  }
}
