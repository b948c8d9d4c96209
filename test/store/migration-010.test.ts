import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActivitiesReader } from '../../src/store/activities.ts'
import type { Database } from '../../src/store/db.ts'
import { migrateUpTo } from '../../src/store/migrate.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

const ACCOUNT = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ'
const FILLER = 'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ'
const POOL = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
const HASH = 'ab'.repeat(32)

const activity = (eventIndex: number, type: string, account: string) => ({
  ledger: 100,
  tx_order: 0,
  event_index: eventIndex,
  protocol: 'lendingprotocol',
  tx_hash: HASH,
  operation: 0,
  type,
  contract: POOL,
  account,
  asset: null,
  amount: eventIndex === 0 ? '1000000000000000000000' : null,
  details: '{}',
})

describe('migration 010 on a store that has decoded actions already', () => {
  let testDb: TestDatabase
  let database: Database
  beforeAll(async () => {
    testDb = await createTestDatabase(undefined, { migrate: false })
    database = testDb.open()
  })
  afterAll(async () => {
    await database.close()
    await testDb.drop()
  })

  it('renames actions and account_actions to activities and account_activities, keeping every row', async () => {
    await migrateUpTo(database, '009-auth-generation')
    // Written as the code before 010 wrote them, into the tables under their old names.
    const old = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    await old
      .insertInto('transactions')
      .values({
        hash: HASH,
        ledger: 100,
        tx_order: 0,
        successful: 1,
        fee_charged: '100',
        fee_account: ACCOUNT,
        source_account: ACCOUNT,
        contract: POOL,
        function: 'submit',
      })
      .execute()
    const rows = [activity(0, 'supply_collateral', ACCOUNT), activity(1, 'fill_auction', ACCOUNT)]
    await old.insertInto('actions').values(rows).execute()
    const keys = (account: string, eventIndex: number, type: string) => ({
      account,
      ledger: 100,
      tx_order: 0,
      event_index: eventIndex,
      protocol: 'lendingprotocol',
      type,
    })
    const byAccount = [
      keys(ACCOUNT, 0, 'supply_collateral'),
      keys(ACCOUNT, 1, 'fill_auction'),
      keys(FILLER, 1, 'fill_auction'),
    ]
    await old.insertInto('account_actions').values(byAccount).execute()

    expect(await migrateUpTo(database, '010-activities')).toEqual(['010-activities'])

    const kept = await database.db.selectFrom('activities').selectAll().orderBy('event_index').execute()
    expect(kept.map((r) => ({ ...r, ledger: Number(r.ledger) }))).toEqual(rows)
    const keptKeys = await database.db
      .selectFrom('account_activities')
      .selectAll()
      .orderBy('account')
      .orderBy('event_index')
      .execute()
    const expectedKeys = [...byAccount].sort(
      (a, b) => a.account.localeCompare(b.account) || a.event_index - b.event_index,
    )
    expect(keptKeys.map((r) => ({ ...r, ledger: Number(r.ledger) }))).toEqual(expectedKeys)
    await expect(old.selectFrom('actions').selectAll().execute()).rejects.toThrow()
    await expect(old.selectFrom('account_actions').selectAll().execute()).rejects.toThrow()

    // The store reads them under the new names: a transaction's activities, an account's range.
    const reader = createActivitiesReader(database)
    const ofTx = await reader.activitiesOfTransaction(HASH)
    expect(ofTx.map((r) => [Number(r.event_index), r.type, r.amount])).toEqual([
      [0, 'supply_collateral', '1000000000000000000000'],
      [1, 'fill_auction', null],
    ])
    expect(await reader.hasActivitiesBetween(FILLER, 99, 100)).toBe(true)
    expect(await reader.hasActivitiesBetween(FILLER, 100, 200)).toBe(false)
  })
})
