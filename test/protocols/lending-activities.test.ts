import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import type { ProtocolActivity } from '../../src/protocols/kit/protocol-module.ts'
import { lendingProtocol } from '../../src/protocols/lendingprotocol/index.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'

/**
 * The lending adapter's actions against the devnet's pool events, each decoded here from the XDR
 * with the SDK (blend-contracts-v2 pool/src/events.rs gives every shape).
 */
const REQUESTS = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']

describe('lending actions from the pool events', () => {
  let chain: DevnetChain
  let actual: ProtocolActivity[]
  let expected: Record<string, unknown>[]

  beforeAll(() => {
    chain = createDevnetChain({
      seed: 'blend',
      ledgers: 2500,
      accounts: 80,
      activity: 0.03,
      startLedger: 2000,
    })
    const network = chain.network
    const adapter = lendingProtocol.createAdapter(network)
    const watch = buildNetworkWatchList(network)
    actual = []
    for (let s = chain.oldestLedger(); s <= chain.latestLedger(); s++) {
      actual.push(
        ...(adapter.adaptLedger(decodeLedgerCloseMeta(chain.ledgerMetaXdr(s), watch)).activities ?? []),
      )
    }
    const pools = new Set(network.contracts.lendingprotocol.map((p) => p.address))
    // `event_index` counts the events of every watched contract whose events are read (not those
    // read only for a few holders' entries, like a vault's asset).
    const watched = new Set(watch.strkeys.filter((_, i) => watch.holders[i] === null))
    expected = []
    for (const ledger of decodeLedgers(chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        const events = tx.events.filter((e) => watched.has(e.contractId))
        events.forEach((event, index) => {
          if (!pools.has(event.contractId)) return
          const topics = event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64')))
          const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64'))
          const where = {
            protocol: 'lendingprotocol',
            contract: event.contractId,
            ledger: ledger.sequence,
            tx_hash: tx.hash,
            operation: 0,
            event_index: index,
          }
          const [name] = topics
          if (REQUESTS.includes(name)) {
            expected.push({
              ...where,
              type: name,
              account: topics[2],
              asset: topics[1],
              amount: data[0],
              tokens: data[1],
            })
          } else if (name === 'new_auction') {
            expected.push({
              ...where,
              type: name,
              account: topics[2],
              auction_type: topics[1],
              percent: data[0],
              ...data[1],
            })
          } else if (name === 'fill_auction') {
            expected.push({
              ...where,
              type: name,
              account: topics[2],
              auction_type: topics[1],
              // The filler sees the fill in its activities too.
              counterparties: [data[0]],
              filler: data[0],
              fill_percent: data[1],
              ...data[2],
            })
          } else if (name === 'claim') {
            expected.push({
              ...where,
              type: name,
              account: topics[1],
              reserve_token_ids: data[0],
              amount: data[1],
            })
          }
        })
      }
    }
  }, 120_000)

  it('decodes every supply, withdraw, collateral, borrow, repay, auction and claim event, in order', () => {
    expect(actual).toEqual(expected)
    const types = new Set(actual.map((a) => a.type))
    for (const type of [
      'supply',
      'supply_collateral',
      'borrow',
      'repay',
      'withdraw_collateral',
      'new_auction',
      'fill_auction',
      'claim',
    ]) {
      expect(types, type).toContain(type)
    }
  })

  it('names the position owner as the account and keeps amounts as BigInt', () => {
    const borrow = actual.find((a) => a.type === 'borrow') as ProtocolActivity & {
      amount: bigint
      tokens: bigint
    }
    expect(typeof borrow.amount).toBe('bigint')
    expect(typeof borrow.tokens).toBe('bigint')
    const fill = actual.find((a) => a.type === 'fill_auction') as ProtocolActivity & { filler: string }
    expect(fill.filler).not.toBe(fill.account)
  })
})
