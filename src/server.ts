import { type App, buildApp } from './api/app.ts'
import type { Config } from './config.ts'
import { type AppContext, createContext } from './context.ts'
import type { Logger } from './logger.ts'
import type { Database } from './store/db.ts'

export interface RunningServer {
  app: App
  ctx: AppContext
  url: string
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
  return {
    app,
    ctx,
    url,
    async close() {
      await app.close()
      await ctx.close()
    },
  }
}
