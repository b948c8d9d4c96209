import { describe, expect, it } from 'vitest'
import type { DecodedLedger, DecodedTransaction, InstanceEntry } from '../../src/chain/decode-ledger.ts'
import { adaptOracleLedger, createOracleMemory } from '../../src/protocols/oracle/adapt-ledger.ts'
import { adaptVaultLedger } from '../../src/protocols/vaultprotocol/adapt-ledger.ts'

const VAULT = 'CVAULT'
const ORACLE = 'CORACLE'

function ledgerOf(...transactions: Partial<DecodedTransaction>[]): DecodedLedger {
  return {
    sequence: 1,
    hash: '00',
    previousHash: 'ff',
    closeTime: 5,
    transactions: transactions.map((t, i) => ({
      hash: `${i}`,
      successful: true,
      feeCharged: 100n,
      feeAccount: null,
      sourceAccount: null,
      invoked: null,
      events: [],
      contractDataChanges: [],
      instanceChanges: [],
      ...t,
    })),
  }
}

const instance = (contract: string, storage: InstanceEntry[]) => ({
  kind: 'updated' as const,
  contract,
  storage,
})

const vaultValue = (
  account: string,
  denomination: string,
  c: bigint,
  d: bigint,
  next: unknown = ['None'],
) => ({
  account,
  denomination,
  index: (1_000_000_000n * c) / d,
  next_key: next,
  total_collateral: c,
  total_debt: d,
})

describe('adaptVaultLedger', () => {
  it('turns Vault entries into upserts and removals in order, and nothing else into anything', () => {
    const ledger = ledgerOf({
      instanceChanges: [instance(VAULT, [{ key: ['VaultsInfo', 'EUR'], value: { total_debt: 7n } }])],
      contractDataChanges: [
        {
          kind: 'created',
          contract: VAULT,
          durability: 'persistent',
          key: ['Vault', ['GA', 'EUR']],
          value: vaultValue('GA', 'EUR', 30n, 10n),
        },
        {
          kind: 'created',
          contract: VAULT,
          durability: 'persistent',
          key: ['VaultIndex', { denomination: 'EUR', user: 'GA' }],
          value: 3_000_000_000n,
        },
        { kind: 'removed', contract: VAULT, durability: 'persistent', key: ['Vault', ['GB', 'USD']] },
        {
          kind: 'updated',
          contract: VAULT,
          durability: 'persistent',
          key: ['CoreState'],
          value: { fee: 1n },
        },
        {
          kind: 'updated',
          contract: 'COTHER',
          durability: 'persistent',
          key: ['Vault', ['GC', 'EUR']],
          value: vaultValue('GC', 'EUR', 1n, 1n),
        },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([
      {
        kind: 'vault-upsert',
        account: 'GA',
        denomination: 'EUR',
        totalCollateral: 30n,
        totalDebt: 10n,
        index: 3_000_000_000n,
      },
      { kind: 'vault-removed', account: 'GB', denomination: 'USD' },
    ])
  })

  it('reads debt as stored (no rate) and a neighbour rewrite as the same values with another next_key', () => {
    const next = ['Some', { account: 'GZ', denomination: 'USD', index: 9n }]
    const ledger = ledgerOf({
      contractDataChanges: [
        {
          kind: 'updated',
          contract: VAULT,
          durability: 'persistent',
          key: ['Vault', ['GN', 'USD']],
          value: vaultValue('GN', 'USD', 500n, 100n, next),
        },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([
      {
        kind: 'vault-upsert',
        account: 'GN',
        denomination: 'USD',
        totalCollateral: 500n,
        totalDebt: 100n,
        index: 5_000_000_000n,
      },
    ])
  })

  it('skips restored entries: a restore from the archive is no change of state', () => {
    const ledger = ledgerOf({
      contractDataChanges: [
        {
          kind: 'restored',
          contract: VAULT,
          durability: 'persistent',
          key: ['Vault', ['GA', 'USD']],
          value: vaultValue('GA', 'USD', 30n, 10n),
        },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([])
  })

  it('reads the pre-May-2024 key form Vault(VaultKey{account, denomination, index}) too', () => {
    const ledger = ledgerOf({
      contractDataChanges: [
        {
          kind: 'created',
          contract: VAULT,
          durability: 'persistent',
          key: ['Vault', { account: 'GA', denomination: 'USD', index: 3_000_000_000n }],
          value: vaultValue('GA', 'USD', 30n, 10n),
        },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([
      {
        kind: 'vault-upsert',
        account: 'GA',
        denomination: 'USD',
        totalCollateral: 30n,
        totalDebt: 10n,
        index: 3_000_000_000n,
      },
    ])
  })

  it('ignores failed transactions', () => {
    const ledger = ledgerOf({
      successful: false,
      contractDataChanges: [
        { kind: 'removed', contract: VAULT, durability: 'persistent', key: ['Vault', ['GB', 'USD']] },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([])
  })
})

describe('adaptOracleLedger', () => {
  const settings = (decimals: number, assets: unknown[]) =>
    instance(ORACLE, [
      { key: 'assets', value: assets },
      { key: 'decimals', value: decimals },
      { key: 'last_timestamp', value: 0n },
    ])
  const ASSETS = [
    ['Stellar', 'CXLM'],
    ['Other', 'EUR'],
  ]
  const v3 = (ts: bigint, rows: unknown[]) => ({
    contract: ORACLE,
    topics: ['REFLECTOR', 'update', ts],
    data: { update_data: rows },
  })
  const v2 = (ts: bigint, index: number, price: bigint) => ({
    kind: 'created' as const,
    contract: ORACLE,
    durability: 'temporary' as const,
    key: (ts << 64n) | BigInt(index),
    value: price,
  })

  it('reads v3 update events (map data); the last record of an asset in a ledger stands', () => {
    const ledger = ledgerOf(
      {
        instanceChanges: [settings(14, ASSETS)],
        events: [
          v3(1000n, [
            ['CXLM', 12n],
            ['EUR', 108n],
          ]),
        ],
      },
      {
        events: [
          v3(2000n, [['EUR', 109n]]),
          { contract: ORACLE, topics: ['REFLECTOR', 'other', 1n], data: {} },
        ],
      },
      { successful: false, events: [v3(3000n, [['EUR', 1n]])] },
    )
    expect(adaptOracleLedger(ledger, ORACLE, createOracleMemory())).toEqual([
      { oracle: ORACLE, asset: 'CXLM', price: 12n, decimals: 14, timestampMs: 1000 },
      { oracle: ORACLE, asset: 'EUR', price: 109n, decimals: 14, timestampMs: 2000 },
    ])
  })

  it('reads v2 temporary price entries through the instance asset list, and both give the same prices', () => {
    const fromV2 = adaptOracleLedger(
      ledgerOf({
        instanceChanges: [settings(14, ASSETS)],
        contractDataChanges: [v2(1000n, 1, 108n), v2(1000n, 0, 12n)],
      }),
      ORACLE,
      createOracleMemory(),
    )
    const fromV3 = adaptOracleLedger(
      ledgerOf({
        instanceChanges: [settings(14, ASSETS)],
        events: [
          v3(1000n, [
            ['EUR', 108n],
            ['CXLM', 12n],
          ]),
        ],
      }),
      ORACLE,
      createOracleMemory(),
    )
    expect(fromV2).toEqual(fromV3)
    expect(fromV2).toHaveLength(2)
  })

  it("takes the feed's decimals from its instance storage and remembers them across ledgers", () => {
    const memory = createOracleMemory()
    adaptOracleLedger(ledgerOf({ instanceChanges: [settings(8, ASSETS)] }), ORACLE, memory)
    expect(adaptOracleLedger(ledgerOf({ contractDataChanges: [v2(5n, 1, 7n)] }), ORACLE, memory)).toEqual([
      { oracle: ORACLE, asset: 'EUR', price: 7n, decimals: 8, timestampMs: 5 },
    ])
  })

  it('drops and counts prices whose decimals or asset it cannot know, never guessing', () => {
    const unvalued = { count: 0 }
    const out = adaptOracleLedger(
      ledgerOf({ contractDataChanges: [v2(5n, 0, 7n)], events: [v3(5n, [['EUR', 1n]])] }),
      ORACLE,
      createOracleMemory(),
      unvalued,
    )
    expect(out).toEqual([])
    expect(unvalued.count).toBe(2)
  })

  it("skips v3's own U64-keyed price records and other contracts' entries", () => {
    const ledger = ledgerOf({
      instanceChanges: [settings(14, ASSETS)],
      contractDataChanges: [
        {
          kind: 'created',
          contract: ORACLE,
          durability: 'temporary',
          key: 1000n,
          value: { mask: 'x', prices: [] },
        },
        { ...v2(1000n, 0, 12n), contract: 'COTHER' },
      ],
    })
    expect(adaptOracleLedger(ledger, ORACLE, createOracleMemory())).toEqual([])
  })
})
