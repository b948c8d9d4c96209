import { createApiKey } from '../../../src/auth/create-api-key.ts'
import { createTestDatabase, type TestDatabase } from '../../support/database.ts'

/** The key pepper of a fault test's server: its keys are made before the server starts. */
export const FAULT_PEPPER = 'p'.repeat(48)

/** A fresh PostgreSQL test database holding one organization with a `data:read` key. */
export async function createKeyedPostgres(slug: string): Promise<{ testDb: TestDatabase; key: string }> {
  const testDb = await createTestDatabase('postgres')
  const database = testDb.open()
  try {
    const created = await createApiKey(database.db, FAULT_PEPPER, Date.now(), {
      organizationName: slug,
      organizationSlug: slug,
      keyName: 'fault',
      scopes: ['data:read'],
      expiresAt: null,
    })
    return { testDb, key: created.key }
  } finally {
    await database.close()
  }
}
