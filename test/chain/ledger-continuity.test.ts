import { describe, expect, it } from 'vitest'
import {
  checkNextLedger,
  checkServedAs,
  isRetriableContinuity,
  LedgerContinuityError,
} from '../../src/chain/ledger-continuity.ts'

const HASH_100 = 'aa'.repeat(32)
const OTHER_HASH = 'bb'.repeat(32)

/** The error a check throws, or null when it passes. */
function thrown(check: () => void): LedgerContinuityError | null {
  try {
    check()
    return null
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerContinuityError)
    return error as LedgerContinuityError
  }
}

describe('checkNextLedger', () => {
  it('lets any ledger start an empty store, and passes the ledger that follows', () => {
    expect(thrown(() => checkNextLedger(null, { sequence: 7, previousHash: OTHER_HASH }))).toBeNull()
    expect(
      thrown(() =>
        checkNextLedger({ sequence: 100, hash: HASH_100 }, { sequence: 101, previousHash: HASH_100 }),
      ),
    ).toBeNull()
  })

  it('refuses a hole, a repeat and a step back as a sequence error, naming the stream', () => {
    for (const [got, expected] of [
      [102, 'ledger gap: expected ledger 101, got 102'],
      [100, 'ledger gap: expected ledger 101, got 100'],
      [99, 'ledger gap: expected ledger 101, got 99'],
    ] as const) {
      const error = thrown(() => checkNextLedger({ sequence: 100 }, { sequence: got }))
      expect(error).toMatchObject({ kind: 'sequence', message: expected, name: 'LedgerContinuityError' })
    }
    const named = thrown(() =>
      checkNextLedger({ sequence: 4 }, { sequence: 6 }, 'ledger source out of sequence'),
    )
    expect(named?.message).toBe('ledger source out of sequence: expected ledger 5, got 6')
  })

  it('refuses a ledger naming another predecessor than the one held, or one held nowhere', () => {
    const forked = thrown(() =>
      checkNextLedger({ sequence: 100, hash: HASH_100 }, { sequence: 101, previousHash: OTHER_HASH }),
    )
    expect(forked).toMatchObject({
      kind: 'previous-hash',
      message: `ledger 101 does not continue this store's chain: it names ${OTHER_HASH} as ledger 100's hash, the store holds ${HASH_100} (is the source another network?)`,
    })
    const missing = thrown(() =>
      checkNextLedger({ sequence: 100, hash: null }, { sequence: 101, previousHash: OTHER_HASH }),
    )
    expect(missing).toMatchObject({
      kind: 'previous-hash',
      message: `ledger 101 does not continue this store's chain: it names ${OTHER_HASH} as ledger 100's hash, the store holds no such ledger (is the source another network?)`,
    })
  })

  it('checks the sequence before the hash, and the hash only when both sides give one', () => {
    const both = thrown(() =>
      checkNextLedger({ sequence: 100, hash: HASH_100 }, { sequence: 105, previousHash: OTHER_HASH }),
    )
    expect(both?.kind).toBe('sequence')
    expect(
      thrown(() => checkNextLedger({ sequence: 100 }, { sequence: 101, previousHash: OTHER_HASH })),
    ).toBeNull()
    expect(thrown(() => checkNextLedger({ sequence: 100, hash: HASH_100 }, { sequence: 101 }))).toBeNull()
  })
})

describe('checkServedAs', () => {
  it('passes the ledger served, whatever the case of the hash the source stated', () => {
    expect(
      thrown(() =>
        checkServedAs({ sequence: 9, hash: HASH_100.toUpperCase() }, { sequence: 9, hash: HASH_100 }),
      ),
    ).toBeNull()
    expect(
      thrown(() => checkServedAs({ sequence: 9, hash: null }, { sequence: 9, hash: HASH_100 })),
    ).toBeNull()
  })

  it('refuses metadata of another sequence or another hash than served', () => {
    const message = 'ledger 9: metadata does not match the ledger it was served as'
    expect(
      thrown(() => checkServedAs({ sequence: 9, hash: null }, { sequence: 10, hash: HASH_100 })),
    ).toMatchObject({
      kind: 'served-as',
      message,
    })
    expect(
      thrown(() => checkServedAs({ sequence: 9, hash: OTHER_HASH }, { sequence: 9, hash: HASH_100 })),
    ).toMatchObject({
      kind: 'served-as',
      message,
    })
  })
})

describe('isRetriableContinuity', () => {
  it('gives up only on another chain: a hole or a bad response may pass', () => {
    expect(isRetriableContinuity(new LedgerContinuityError('previous-hash', 'x'))).toBe(false)
    expect(isRetriableContinuity(new LedgerContinuityError('sequence', 'x'))).toBe(true)
    expect(isRetriableContinuity(new LedgerContinuityError('served-as', 'x'))).toBe(true)
  })
})
