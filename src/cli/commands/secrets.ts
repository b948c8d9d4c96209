import type { Config } from '../../config.ts'
import type { Database } from '../../store/db.ts'
import { loadOrCreateSecret } from '../../store/secrets.ts'

/** The pepper the server uses: configured, or the one kept in the database. */
export function loadKeyPepper(config: Config, database: Database): Promise<string> {
  return config.keyPepper ? Promise.resolve(config.keyPepper) : loadOrCreateSecret(database.db, 'key_pepper')
}
