import { describe, expect, it } from 'vitest'
import type { ContractInfo } from '../../src/chain/network.ts'
import { historyComplete } from '../../src/protocols/kit/coverage.ts'

const contract = (start_ledger: number | null): ContractInfo => ({
  address: 'C',
  protocol: 'vaultprotocol',
  kind: 'fxdao-vaults',
  name: 'v',
  version: '1',
  status: 'active',
  position_types: [],
  start_ledger,
})

describe('historyComplete', () => {
  it.each([
    // [contract start, store's first ledger, pin, complete?]
    [1000, 1000, 1500, true], // the store starts with the contract
    [1000, 900, 1500, true], // the store starts before it
    [1000, 1200, 1500, false], // the contract's first 200 ledgers were never read
    [1000, 1200, 999, true], // before the contract existed there is nothing to miss
    [1000, 1200, 1000, false],
    [null, 1200, 1500, false], // unknown start: never complete...
    [null, 2, 1500, true], // ...unless the store holds everything since genesis
    [1000, null, 1500, false], // nothing ingested yet
  ])('contract from %s, store from %s, ledger %s: %s', (start, first, ledger, expected) => {
    expect(historyComplete(contract(start), first, ledger)).toBe(expected)
  })
})
