import { Keypair } from '@stellar/stellar-sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import { LedgerContinuityError } from '../../src/chain/ledger-continuity.ts'
import {
  buildNetworkWatchList,
  createLedgerPipeline,
  loadResumePoint,
} from '../../src/indexer/ledger-pipeline.ts'
import type { Database } from '../../src/store/db.ts'
import { CheckpointConflictError, writeLedgerBatch } from '../../src/store/ledger-data.ts'
import {
  buildLedgerCloseMeta,
  instanceChange,
  ledgerHashHex,
  oracleUpdateEvent,
  reflectorInstance,
  sha256,
  type TxSpec,
  vaultKey,
  vaultsInfoKey,
  vaultsInfoValue,
  vaultValue,
} from '../chain/support/ledger-meta-builder.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { ORACLE_CONTRACT, TEST_NETWORK, VAULT_CONTRACT, XLM_CONTRACT } from './support/test-network.ts'

const ALICE = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3)).publicKey()
const BOB = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 4)).publicKey()
const watched = buildNetworkWatchList(TEST_NETWORK)

function openVault(
  account: string,
  denomination: string,
  collateral: bigint,
  debt: bigint,
): TxSpec['changes'] {
  return [
    instanceChange(VAULT_CONTRACT, [
      [vaultsInfoKey(denomination), vaultsInfoValue(denomination, { debt, col: collateral, vaults: 1n })],
    ]),
    {
      kind: 'updated',
      contract: VAULT_CONTRACT,
      key: vaultKey(account, denomination),
      val: vaultValue({ account, denomination, collateral, debt }),
    },
  ]
}

/** Ledgers 100..105 of a small story, alternating LedgerCloseMeta versions. */
const STORY: Record<number, TxSpec[]> = {
  100: [{ id: 'a1', changes: openVault(ALICE, 'USD', 1000n, 100n) }],
  101: [
    {
      id: 'o1',
      changes: [
        reflectorInstance(ORACLE_CONTRACT, {
          assets: [XLM_CONTRACT, 'EUR'],
          decimals: 14,
          lastTimestampMs: 1_000n,
        }),
      ],
      events: [
        oracleUpdateEvent(ORACLE_CONTRACT, 1_000n, [
          { asset: XLM_CONTRACT, price: 11n },
          { asset: 'EUR', price: 108n },
        ]),
      ],
    },
  ],
  102: [
    { id: 'a2', changes: openVault(ALICE, 'USD', 1000n, 100n) },
    { id: 'b1', changes: openVault(BOB, 'USD', 50n, 10n) },
  ],
  103: [
    {
      id: 'fail',
      successful: false,
      changes: [{ kind: 'removed', contract: VAULT_CONTRACT, key: vaultKey(BOB, 'USD') }],
    },
  ],
  104: [],
  105: [
    { id: 'close', changes: [{ kind: 'removed', contract: VAULT_CONTRACT, key: vaultKey(ALICE, 'USD') }] },
  ],
}

function ledger(sequence: number, previousHash?: Buffer) {
  const bytes = buildLedgerCloseMeta({
    sequence,
    closeTime: 5 * sequence,
    version: sequence % 2 === 0 ? 2 : 1,
    transactions: STORY[sequence] ?? [],
    ...(previousHash ? { previousHash } : {}),
  })
  return decodeLedgerCloseMeta(bytes, watched)
}

async function dump(database: Database) {
  const db = database.db
  return {
    ledgers: await db.selectFrom('ledgers').selectAll().orderBy('sequence').execute(),
    snapshots: await db.selectFrom('snapshots').selectAll().orderBy('address').orderBy('ledger').execute(),
    contract_state: await db
      .selectFrom('contract_state')
      .selectAll()
      .orderBy('contract')
      .orderBy('key')
      .orderBy('ledger')
      .execute(),
    prices: await db
      .selectFrom('prices')
      .selectAll()
      .orderBy('oracle')
      .orderBy('asset')
      .orderBy('ledger')
      .execute(),
    checkpoint: await db.selectFrom('indexer_state').select(['name', 'last_ledger']).execute(),
  }
}

describe('ledger pipeline and batch writer', () => {
  let testDb: TestDatabase
  let database: Database
  beforeEach(async () => {
    testDb = await createTestDatabase()
    database = testDb.open()
  })
  afterEach(async () => {
    await database.close()
    await testDb.drop()
  })

  it('writes ledgers, snapshots on change only, prices and the checkpoint', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    for (let seq = 100; seq <= 105; seq++) await pipeline.addLedgers([ledger(seq)])
    await writeLedgerBatch(database, pipeline.takeBatch(1)!)
    const rows = await dump(database)
    expect(rows.ledgers.map((l) => [Number(l.sequence), l.hash, Number(l.close_time)])).toEqual(
      [100, 101, 102, 103, 104, 105].map((s) => [s, ledgerHashHex(s), 5 * s]),
    )
    const usd = (c: string, d: string, index: string, at: number) => ({
      denomination: 'USD',
      total_collateral: c,
      total_debt: d,
      index,
      ledger: at,
    })
    const snapshots = rows.snapshots.map((s) => [s.address, Number(s.ledger), JSON.parse(s.positions)])
    expect(snapshots).toEqual(
      [
        [ALICE, 100, [usd('1000', '100', '10000000000', 100)]],
        [ALICE, 105, []],
        [BOB, 102, [usd('50', '10', '5000000000', 102)]],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0)),
    )
    // FxDAO's VaultsInfo totals as the instance entry states them, written when they change.
    expect(rows.contract_state.map((r) => [r.key, Number(r.ledger), JSON.parse(r.value)])).toEqual([
      ['VaultsInfo/USD', 100, { total_col: '1000', total_debt: '100', total_vaults: '1' }],
      ['VaultsInfo/USD', 102, { total_col: '50', total_debt: '10', total_vaults: '1' }],
    ])
    expect(
      rows.prices.map((p) => [
        p.oracle,
        p.asset,
        Number(p.ledger),
        p.price,
        p.decimals,
        Number(p.timestamp_ms),
      ]),
    ).toEqual(
      [
        [ORACLE_CONTRACT, XLM_CONTRACT, 101, '11', 14, 1000],
        [ORACLE_CONTRACT, 'EUR', 101, '108', 14, 1000],
      ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    )
    expect(rows.checkpoint).toEqual([{ name: 'ledgers', last_ledger: 105 }])
  })

  it('resumes from the store after every batch and ends with the same rows as one batch', async () => {
    for (let seq = 100; seq <= 105; seq++) {
      const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
      await pipeline.addLedgers([ledger(seq)])
      await writeLedgerBatch(database, pipeline.takeBatch(1)!)
    }
    const stepwise = await dump(database)
    const other = await createTestDatabase()
    const otherDb = other.open()
    try {
      const pipeline = createLedgerPipeline(otherDb, TEST_NETWORK, await loadResumePoint(otherDb))
      for (let seq = 100; seq <= 105; seq++) await pipeline.addLedgers([ledger(seq)])
      await writeLedgerBatch(otherDb, pipeline.takeBatch(1)!)
      expect(await dump(otherDb)).toEqual(stepwise)
    } finally {
      await otherDb.close()
      await other.drop()
    }
  })

  it('loads each touched account from the store when its state is not cached (cache of one account)', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database), {
      stateCacheAccounts: 0,
    })
    for (let seq = 100; seq <= 105; seq++) {
      await pipeline.addLedgers([ledger(seq)])
      await writeLedgerBatch(database, pipeline.takeBatch(1)!)
      pipeline.committed()
    }
    const uncached = await dump(database)
    const other = await createTestDatabase()
    const otherDb = other.open()
    try {
      const whole = createLedgerPipeline(otherDb, TEST_NETWORK, await loadResumePoint(otherDb))
      for (let seq = 100; seq <= 105; seq++) await whole.addLedgers([ledger(seq)])
      await writeLedgerBatch(otherDb, whole.takeBatch(1)!)
      expect(await dump(otherDb)).toEqual(uncached)
    } finally {
      await otherDb.close()
      await other.drop()
    }
  })

  it('waits for a transaction the API has open on the same store instead of failing inside it', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await pipeline.addLedgers([ledger(100)])
    const batch = pipeline.takeBatch(1)!
    let releaseApi = () => {}
    const apiHolds = new Promise<void>((resolve) => {
      releaseApi = resolve
    })
    const order: string[] = []
    const api = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('server_secrets').values({ name: 'probe', value: 'x' }).execute()
      await apiHolds
      order.push('api committed')
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const write = writeLedgerBatch(database, batch).then(() => order.push('batch committed'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    releaseApi()
    await Promise.all([api, write])
    // SQLite has one connection: the batch waited. PostgreSQL writes on its own connection.
    if (database.kind === 'sqlite') expect(order).toEqual(['api committed', 'batch committed'])
    expect((await dump(database)).checkpoint).toEqual([{ name: 'ledgers', last_ledger: 100 }])
    const probe = await database.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'probe')
      .execute()
    expect(probe).toEqual([{ value: 'x' }])
  })

  it('refuses, and writes nothing for, ledgers that do not continue the stored hash chain', async () => {
    const first = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await first.addLedgers([ledger(100)])
    await writeLedgerBatch(database, first.takeBatch(1)!)
    const before = await dump(database)
    const resumed = await loadResumePoint(database)
    expect(resumed.checkpointHash).toBe(ledgerHashHex(100))
    const forked = createLedgerPipeline(database, TEST_NETWORK, resumed)
    await forked.addLedgers([ledger(101, sha256('a ledger 100 of another network'))])
    const write = writeLedgerBatch(database, forked.takeBatch(2)!)
    await expect(write).rejects.toThrow(LedgerContinuityError)
    await expect(write).rejects.toMatchObject({ kind: 'previous-hash' })
    expect(await dump(database)).toEqual(before)
  })

  it('refuses, and writes nothing for, a batch that does not start right after the checkpoint', async () => {
    const first = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await first.addLedgers([ledger(100)])
    await writeLedgerBatch(database, first.takeBatch(1)!)
    const before = await dump(database)
    // A batch of ledger 102 claiming to continue checkpoint 100: ledger 101 would be missing.
    const ahead = createLedgerPipeline(database, TEST_NETWORK, {
      checkpoint: 101,
      checkpointHash: ledgerHashHex(101),
    })
    await ahead.addLedgers([ledger(102)])
    const write = writeLedgerBatch(database, { ...ahead.takeBatch(2)!, previousLedger: 100 })
    await expect(write).rejects.toThrow(LedgerContinuityError)
    await expect(write).rejects.toMatchObject({
      kind: 'sequence',
      message: 'ledger gap: expected ledger 101, got 102',
    })
    expect(await dump(database)).toEqual(before)
  })

  it('refuses a ledger that does not name its predecessor within a batch', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await pipeline.addLedgers([ledger(100)])
    const adding = pipeline.addLedgers([ledger(101, sha256('elsewhere'))])
    await expect(adding).rejects.toThrow(LedgerContinuityError)
    await expect(adding).rejects.toMatchObject({ kind: 'previous-hash' })
  })

  it('refuses a gap in the ledger sequence', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await pipeline.addLedgers([ledger(100)])
    const adding = pipeline.addLedgers([ledger(102)])
    await expect(adding).rejects.toThrow(LedgerContinuityError)
    await expect(adding).rejects.toMatchObject({ kind: 'sequence' })
  })

  it('commits nothing, checkpoint included, when the checkpoint moved underneath', async () => {
    const first = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    const second = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await first.addLedgers([ledger(100)])
    await writeLedgerBatch(database, first.takeBatch(1)!)
    await second.addLedgers([ledger(100)])
    await second.addLedgers([ledger(101)])
    await expect(writeLedgerBatch(database, second.takeBatch(1)!)).rejects.toThrow(CheckpointConflictError)
    const rows = await dump(database)
    expect(rows.ledgers).toHaveLength(1)
    expect(rows.prices).toHaveLength(0)
    expect(rows.checkpoint).toEqual([{ name: 'ledgers', last_ledger: 100 }])
  })

  it('rolls back every row when one insert fails mid-batch', async () => {
    const pipeline = createLedgerPipeline(database, TEST_NETWORK, await loadResumePoint(database))
    await pipeline.addLedgers([ledger(100)])
    await pipeline.addLedgers([ledger(101)])
    const batch = pipeline.takeBatch(1)!
    // A duplicate ledger row makes the last insert of the ledgers table fail.
    batch.ledgers.push({ ...batch.ledgers[0]! })
    await expect(writeLedgerBatch(database, batch)).rejects.toThrow()
    const rows = await dump(database)
    expect(rows.ledgers).toHaveLength(0)
    expect(rows.snapshots).toHaveLength(0)
    expect(rows.checkpoint).toHaveLength(0)
  })
})
