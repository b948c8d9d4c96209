import { describe, expect, it } from 'vitest'
import type { DecodedLedger, DecodedTransaction } from '../../src/chain/decode-ledger.ts'
import { adaptOracleLedger } from '../../src/protocols/oracle/adapt-ledger.ts'
import { adaptVaultLedger } from '../../src/protocols/vaultprotocol/adapt-ledger.ts'

const VAULT = 'CVAULT'
const ORACLE = 'CORACLE'

function ledgerOf(...transactions: Partial<DecodedTransaction>[]): DecodedLedger {
  return {
    sequence: 1,
    hash: '00',
    closeTime: 5,
    transactions: transactions.map((t, i) => ({
      hash: `${i}`,
      successful: true,
      events: [],
      contractDataChanges: [],
      ...t,
    })),
  }
}

describe('adaptVaultLedger', () => {
  it('turns Vault and VaultsInfo entries into upserts, removals and rate updates, in order', () => {
    const ledger = ledgerOf({
      contractDataChanges: [
        {
          kind: 'updated',
          contract: VAULT,
          durability: 'persistent',
          key: ['VaultsInfo', 'EUR'],
          value: { debt_rate: 7n, denomination: 'EUR' },
        },
        {
          kind: 'created',
          contract: VAULT,
          durability: 'persistent',
          key: ['Vault', ['GA', 'EUR']],
          value: {
            account: 'GA',
            denomination: 'EUR',
            index: 3n,
            next_key: ['None'],
            total_collateral: 30n,
            total_debt: 10n,
          },
        },
        { kind: 'removed', contract: VAULT, durability: 'persistent', key: ['Vault', ['GB', 'USD']] },
        { kind: 'updated', contract: VAULT, durability: 'persistent', key: ['CoreState'], value: { x: 1n } },
        {
          kind: 'updated',
          contract: 'COTHER',
          durability: 'persistent',
          key: ['VaultsInfo', 'EUR'],
          value: { debt_rate: 9n },
        },
      ],
    })
    expect(adaptVaultLedger(ledger, VAULT)).toEqual([
      { kind: 'debt-rate', denomination: 'EUR', debtRate: 7n },
      {
        kind: 'vault-upsert',
        account: 'GA',
        denomination: 'EUR',
        totalCollateral: 30n,
        totalDebt: 10n,
        index: 3n,
      },
      { kind: 'vault-removed', account: 'GB', denomination: 'USD' },
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
  const update = (ts: bigint, rows: unknown[]) => ({
    contract: ORACLE,
    topics: ['REFLECTOR', 'update', ts],
    data: rows,
  })

  it('reads Reflector updates; the last one of an asset in a ledger stands', () => {
    const ledger = ledgerOf(
      {
        events: [
          update(1000n, [
            ['CXLM', 12n],
            ['EUR', 108n],
          ]),
        ],
      },
      {
        events: [
          update(2000n, [['EUR', 109n]]),
          { contract: ORACLE, topics: ['REFLECTOR', 'other', 1n], data: [] },
        ],
      },
      { successful: false, events: [update(3000n, [['EUR', 1n]])] },
    )
    expect(adaptOracleLedger(ledger, ORACLE)).toEqual([
      { asset: 'CXLM', price: 12n, timestampMs: 1000 },
      { asset: 'EUR', price: 109n, timestampMs: 2000 },
    ])
  })
})
