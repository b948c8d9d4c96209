import type { Command } from '../command.ts'
import { openRuntime } from '../runtime.ts'

export const migrateCommand: Command = {
  help: `
Usage: strata migrate

Applies every pending migration to DATABASE_URL (sqlite:<path> or postgres://...) and exits.
strata serve also migrates at start-up; run this first when several replicas start at once.
Its first line, on stderr, names the database it opens.`,
  options: {},
  async run() {
    const { database, applied } = await openRuntime('migrate')
    try {
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n')
      return 0
    } finally {
      await database.close()
    }
  },
}
