import { type Config, type DatabaseConfig, loadConfig } from '../config.ts'
import { createLogger, type Logger, resolveLogFormat } from '../logger.ts'
import { createDatabase, type Database } from '../store/db.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { classifyStoreError, StoreStartError } from '../store/store-errors.ts'

/**
 * Config, logger and a database: what every command that touches the store starts with. The first
 * line it writes (to stderr, so stdout stays the command's JSON) names the store it opens. The
 * database is migrated; `applied` lists the migrations this run applied (`strata migrate` prints
 * them). A store that cannot be opened or migrated is one line naming DATABASE_URL.
 */
export async function openRuntime(
  command: string,
  overrides: Partial<Config> = {},
): Promise<{ config: Config; logger: Logger; database: Database; applied: string[] }> {
  const config = loadConfig(process.env, overrides)
  const logger = createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat))
  announceDatabase(command, config.database)
  const { database, applied } = await openStore(config.database)
  return { config, logger, database, applied }
}

/** `strata <command>: database <store>`, saying so when DATABASE_URL is unset and the default is used. */
export function announceDatabase(command: string, database: DatabaseConfig, env = process.env): void {
  const unset = env.DATABASE_URL === undefined || env.DATABASE_URL === ''
  process.stderr.write(
    `strata ${command}: database ${describeDatabase(database)}${unset ? ' (DATABASE_URL is not set: the default)' : ''}\n`,
  )
}

/** The store as DATABASE_URL names it: `sqlite:<path>`, or the PostgreSQL URL with any password masked. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return `sqlite:${database.path}`
  try {
    const url = new URL(database.url)
    if (url.password !== '') url.password = '***'
    for (const name of ['password', 'sslpassword'])
      if (url.searchParams.has(name)) url.searchParams.set(name, '***')
    return url.toString()
  } catch {
    // Not parseable as a URL: mask whatever stands between "user:" and "@".
    return database.url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@')
  }
}

/**
 * Opens and migrates the store. A failure of the store itself (unreachable, refused, a file that
 * cannot be opened or written) is rethrown as one line naming the store and DATABASE_URL; the
 * database is closed first.
 */
export async function openStore(config: DatabaseConfig): Promise<{ database: Database; applied: string[] }> {
  let database: Database | null = null
  try {
    database = createDatabase(config)
    const applied = await migrateToLatest(database)
    return { database, applied }
  } catch (error) {
    await database?.close().catch(() => {})
    // The driver's own error: a StoreStartError's message already words it, with its own prefix.
    const found = classifyStoreError(error instanceof StoreStartError ? error.cause : error)
    if (!found) throw error
    throw new Error(`cannot use the database ${describeDatabase(config)} (DATABASE_URL): ${found.message}`, {
      cause: error,
    })
  }
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
