import { type Config, loadConfig } from '../config.ts'
import { createLogger, type Logger, resolveLogFormat } from '../logger.ts'
import { createDatabase, type Database } from '../store/db.ts'
import { migrateToLatest } from '../store/migrate.ts'

/**
 * Config, logger and a database: what every command that touches the store starts with. The
 * database is migrated unless the caller migrates it itself (`strata migrate`, which reports it).
 */
export async function openRuntime(
  overrides: Partial<Config> = {},
  options: { migrate?: boolean } = {},
): Promise<{ config: Config; logger: Logger; database: Database }> {
  const config = loadConfig(process.env, overrides)
  const logger = createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat))
  const database = createDatabase(config.database)
  if (options.migrate !== false) await migrateToLatest(database)
  return { config, logger, database }
}

export function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    process.stdin.setEncoding('utf8')
    process.stdin.on('data', (chunk) => {
      text += chunk
    })
    process.stdin.on('end', () => resolve(text))
    process.stdin.on('error', reject)
  })
}

export function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
