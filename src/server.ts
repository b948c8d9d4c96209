import type { AddressInfo } from 'node:net'
import { type App, buildApp } from './api/app.ts'
import { startMetricsServer } from './api/metrics.ts'
import type { Config } from './config.ts'
import { type AppContext, createContext } from './context.ts'
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
): Promise<RunningServer> {
  const ctx = await createContext(config, logger, { database })
  const app = await buildApp(ctx)
  const address = await app.listen({ port: config.port, host: config.host })
  const url = address.replace('[::1]', 'localhost')
  const metricsServer =
    config.metricsPort === null
      ? null
      : await startMetricsServer(ctx.metrics, config.metricsPort, config.host)
  return {
    app,
    ctx,
    url,
    metricsUrl: metricsServer
      ? `http://${config.host}:${(metricsServer.address() as AddressInfo).port}/metrics`
      : null,
    async close() {
      metricsServer?.close()
      await app.close()
      await ctx.close()
    },
  }
}
