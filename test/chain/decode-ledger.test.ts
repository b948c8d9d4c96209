import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { buildWatchedContracts, decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import {
  buildLedgerCloseMeta,
  ledgerHashHex,
  oracleUpdateEvent,
  txHashHex,
  vaultKey,
  vaultsInfoKey,
  vaultsInfoValue,
  vaultValue,
} from './support/ledger-meta-builder.ts'

const VAULT = StrKey.encodeContract(Buffer.alloc(32, 1))
const ORACLE = StrKey.encodeContract(Buffer.alloc(32, 2))
const OTHER = StrKey.encodeContract(Buffer.alloc(32, 9))
const XLM = StrKey.encodeContract(Buffer.alloc(32, 5))
const ALICE = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3)).publicKey()
const watched = buildWatchedContracts([VAULT, ORACLE])

describe.each([1, 2] as const)('decodeLedgerCloseMeta (LedgerCloseMeta v%i)', (version) => {
  const bytes = buildLedgerCloseMeta({
    sequence: 1234,
    closeTime: 1_700_000_000,
    version,
    transactions: [
      {
        id: 'open',
        changes: [
          {
            kind: 'state',
            contract: VAULT,
            key: vaultsInfoKey('USD'),
            val: vaultsInfoValue('USD', 10n ** 12n),
          },
          {
            kind: 'updated',
            contract: VAULT,
            key: vaultsInfoKey('USD'),
            val: vaultsInfoValue('USD', 1_000_000_000_123n),
          },
          {
            kind: 'created',
            contract: VAULT,
            key: vaultKey(ALICE, 'USD'),
            val: vaultValue({
              account: ALICE,
              denomination: 'USD',
              collateral: 5_000_0000000n,
              debt: 1_000_0000000n,
            }),
          },
          { kind: 'removed', contract: VAULT, key: vaultKey(ALICE, 'EUR') },
          { kind: 'created', contract: OTHER, key: vaultKey(ALICE, 'USD'), val: vaultsInfoValue('USD', 1n) },
        ],
        events: [
          oracleUpdateEvent(ORACLE, 1_700_000_000_000n, [
            { asset: XLM, price: 12_000_000_000_000n },
            { asset: 'EUR', price: 108_000_000_000_000n },
          ]),
        ],
      },
      {
        id: 'unrelated',
        changes: [
          { kind: 'updated', contract: OTHER, key: vaultsInfoKey('X'), val: vaultsInfoValue('X', 2n) },
        ],
      },
      {
        id: 'failed',
        successful: false,
        changes: [{ kind: 'removed', contract: VAULT, key: vaultKey(ALICE, 'USD') }],
        events: [oracleUpdateEvent(ORACLE, 1n, [{ asset: 'EUR', price: 1n }])],
      },
    ],
  })
  const decoded = decodeLedgerCloseMeta(bytes, watched)

  it('reads the header', () => {
    expect(decoded.sequence).toBe(1234)
    expect(decoded.hash).toBe(ledgerHashHex(1234))
    expect(decoded.closeTime).toBe(1_700_000_000)
  })

  it('keeps only transactions touching watched contracts, in apply order', () => {
    expect(decoded.transactions.map((t) => t.hash)).toEqual([txHashHex('open'), txHashHex('failed')])
  })

  it('decodes watched contract-data changes, removals included, and skips pre-images and other contracts', () => {
    const [open] = decoded.transactions
    expect(open!.successful).toBe(true)
    expect(open!.contractDataChanges).toEqual([
      {
        kind: 'updated',
        contract: VAULT,
        durability: 'persistent',
        key: ['VaultsInfo', 'USD'],
        value: expect.objectContaining({ debt_rate: 1_000_000_000_123n, denomination: 'USD' }),
      },
      {
        kind: 'created',
        contract: VAULT,
        durability: 'persistent',
        key: ['Vault', [ALICE, 'USD']],
        value: {
          account: ALICE,
          denomination: 'USD',
          index: 5_000_000_000n,
          next_key: ['None'],
          total_collateral: 5_000_0000000n,
          total_debt: 1_000_0000000n,
        },
      },
      { kind: 'removed', contract: VAULT, durability: 'persistent', key: ['Vault', [ALICE, 'EUR']] },
    ])
  })

  it('decodes watched contract events', () => {
    expect(decoded.transactions[0]!.events).toEqual([
      {
        contract: ORACLE,
        topics: ['REFLECTOR', 'update', 1_700_000_000_000n],
        data: [
          [XLM, 12_000_000_000_000n],
          ['EUR', 108_000_000_000_000n],
        ],
      },
    ])
  })

  it('lists a failed transaction with nothing in it', () => {
    expect(decoded.transactions[1]).toEqual({
      hash: txHashHex('failed'),
      successful: false,
      events: [],
      contractDataChanges: [],
    })
  })
})

describe('decodeLedgerCloseMeta on an empty ledger', () => {
  it('returns no transactions', () => {
    const bytes = buildLedgerCloseMeta({ sequence: 7, closeTime: 35, version: 2, transactions: [] })
    expect(decodeLedgerCloseMeta(bytes, watched)).toEqual({
      sequence: 7,
      hash: ledgerHashHex(7),
      closeTime: 35,
      transactions: [],
    })
  })

  it('rejects bytes that are not a LedgerCloseMeta', () => {
    expect(() => decodeLedgerCloseMeta(new Uint8Array([0, 0, 0, 9]), watched)).toThrow()
  })
})
