import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { buildWatchedContracts, decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import {
  buildLedgerCloseMeta,
  instanceChange,
  ledgerHashHex,
  oracleUpdateEvent,
  reflectorV2Price,
  sha256,
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
const watched = buildWatchedContracts([VAULT, ORACLE], [VAULT])
const INFO_BEFORE = { debt: 0n, col: 0n, vaults: 0n }
const INFO_AFTER = { debt: 1_000_0000000n, col: 5_000_0000000n, vaults: 1n }
const GBP_VAULT = { account: ALICE, denomination: 'GBP', collateral: 30n, debt: 10n }

describe.each([1, 2] as const)('decodeLedgerCloseMeta (LedgerCloseMeta v%i)', (version) => {
  const bytes = buildLedgerCloseMeta({
    sequence: 1234,
    closeTime: 1_700_000_000,
    version,
    transactions: [
      {
        id: 'open',
        changes: [
          instanceChange(VAULT, [[vaultsInfoKey('USD'), vaultsInfoValue('USD', INFO_BEFORE)]], 'state'),
          instanceChange(VAULT, [[vaultsInfoKey('USD'), vaultsInfoValue('USD', INFO_AFTER)]]),
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
          { kind: 'restored', contract: VAULT, key: vaultKey(ALICE, 'GBP'), val: vaultValue(GBP_VAULT) },
          { kind: 'created', contract: OTHER, key: vaultKey(ALICE, 'USD'), val: vaultValue(GBP_VAULT) },
          reflectorV2Price(ORACLE, 1_700_000_000_000n, 2, 99n),
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
        changes: [instanceChange(OTHER, [[vaultsInfoKey('X'), vaultsInfoValue('X', INFO_AFTER)]])],
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
    expect(decoded.previousHash).toBe(ledgerHashHex(1233))
    expect(decoded.closeTime).toBe(1_700_000_000)
  })

  it('keeps only transactions touching watched contracts, in apply order', () => {
    expect(decoded.transactions.map((t) => t.hash)).toEqual([txHashHex('open'), txHashHex('failed')])
  })

  it('decodes watched contract-data changes, removals and restores included, and skips pre-images and other contracts', () => {
    const [open] = decoded.transactions
    expect(open!.successful).toBe(true)
    expect(open!.contractDataChanges).toEqual([
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
      {
        kind: 'restored',
        contract: VAULT,
        durability: 'persistent',
        key: ['Vault', [ALICE, 'GBP']],
        value: expect.objectContaining({ total_collateral: 30n, total_debt: 10n }),
      },
      {
        kind: 'created',
        contract: ORACLE,
        durability: 'temporary',
        key: (1_700_000_000_000n << 64n) | 2n,
        value: 99n,
      },
    ])
  })

  it('decodes instance storage only for the contracts asked for', () => {
    const withoutInstances = decodeLedgerCloseMeta(bytes, buildWatchedContracts([VAULT, ORACLE]))
    expect(withoutInstances.transactions[0]!.instanceChanges).toEqual([])
  })

  it("decodes the instance entry's storage (FxDAO's VaultsInfo lives there), post-image only", () => {
    const [open] = decoded.transactions
    expect(open!.instanceChanges.map((c) => [c.kind, c.contract])).toEqual([['updated', VAULT]])
    expect(open!.instanceChanges[0]!.storage).toEqual([
      {
        key: ['VaultsInfo', 'USD'],
        value: {
          denomination: 'USD',
          lowest_key: ['None'],
          min_col_rate: 11_000_000n,
          min_debt_creation: 50_000_000n,
          opening_col_rate: 11_500_000n,
          total_col: 5_000_0000000n,
          total_debt: 1_000_0000000n,
          total_vaults: 1n,
        },
      },
    ])
  })

  it('decodes watched contract events', () => {
    expect(decoded.transactions[0]!.events).toEqual([
      {
        contract: ORACLE,
        topics: ['REFLECTOR', 'update', 1_700_000_000_000n],
        data: {
          update_data: [
            [XLM, 12_000_000_000_000n],
            ['EUR', 108_000_000_000_000n],
          ],
        },
      },
    ])
  })

  it('lists a failed transaction with nothing in it', () => {
    expect(decoded.transactions[1]).toEqual({
      hash: txHashHex('failed'),
      successful: false,
      feeCharged: 100n,
      feeAccount: null,
      sourceAccount: null,
      invoked: null,
      events: [],
      contractDataChanges: [],
      instanceChanges: [],
    })
  })
})

describe('decodeLedgerCloseMeta on an empty ledger', () => {
  it('returns no transactions', () => {
    const bytes = buildLedgerCloseMeta({ sequence: 7, closeTime: 35, version: 2, transactions: [] })
    expect(decodeLedgerCloseMeta(bytes, watched)).toEqual({
      sequence: 7,
      hash: ledgerHashHex(7),
      previousHash: ledgerHashHex(6),
      closeTime: 35,
      transactions: [],
    })
  })

  it('reports the previous-ledger hash the header states, so a broken chain can be refused', () => {
    const previousHash = sha256('another network')
    const bytes = buildLedgerCloseMeta({
      sequence: 8,
      closeTime: 40,
      version: 1,
      transactions: [],
      previousHash,
    })
    expect(decodeLedgerCloseMeta(bytes, watched).previousHash).toBe(previousHash.toString('hex'))
  })

  it('rejects bytes that are not a LedgerCloseMeta', () => {
    expect(() => decodeLedgerCloseMeta(new Uint8Array([0, 0, 0, 9]), watched)).toThrow()
  })
})
