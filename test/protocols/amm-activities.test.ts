import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { ammProtocol } from '../../src/protocols/ammprotocol/index.ts'
import type { ProtocolActivity } from '../../src/protocols/kit/protocol-module.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'

/**
 * The AMM adapter's actions against the devnet's pair events, each decoded here from the XDR with
 * the SDK (soroswap/core contracts/pair/src/event.rs and soroban-token-sdk 20's `transfer` give
 * every shape).
 */
describe('AMM actions from the pair events', () => {
  let chain: DevnetChain
  let actual: ProtocolActivity[]
  let expected: Record<string, unknown>[]

  beforeAll(() => {
    chain = createDevnetChain({
      seed: 'amm-actions',
      ledgers: 600,
      accounts: 200,
      activity: 0.005,
      ammActivity: 0.2,
      lendingActivity: 0,
      yieldActivity: 0,
      startLedger: 3000,
    })
    const network = chain.network
    const adapter = ammProtocol.createAdapter(network)
    const watch = buildNetworkWatchList(network)
    actual = []
    for (let s = chain.oldestLedger(); s <= chain.latestLedger(); s++) {
      actual.push(
        ...(adapter.adaptLedger(decodeLedgerCloseMeta(chain.ledgerMetaXdr(s), watch)).activities ?? []),
      )
    }
    const pairs = new Set(
      network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair').map((c) => c.address),
    )
    const watched = new Set([...watch.strkeys])
    expected = []
    for (const ledger of decodeLedgers(chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        const events = tx.events.filter((e) => watched.has(e.contractId))
        events.forEach((event, index) => {
          if (!pairs.has(event.contractId)) return
          const topics = event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64')))
          const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64'))
          const where = {
            protocol: 'ammprotocol',
            contract: event.contractId,
            ledger: ledger.sequence,
            tx_hash: tx.hash,
            operation: 0,
            event_index: index,
          }
          if (topics[0] === 'SoroswapPair' && (topics[1] === 'deposit' || topics[1] === 'withdraw')) {
            expected.push({
              ...where,
              type: topics[1] === 'deposit' ? 'add_liquidity' : 'remove_liquidity',
              account: data.to,
              amount_0: data.amount_0,
              amount_1: data.amount_1,
              liquidity: data.liquidity,
              reserve_0: data.new_reserve_0,
              reserve_1: data.new_reserve_1,
            })
          } else if (topics[0] === 'SoroswapPair' && topics[1] === 'swap') {
            const { to, ...amounts } = data
            expected.push({ ...where, type: 'swap', account: to, ...amounts })
          } else if (
            topics[0] === 'transfer' &&
            topics[1] !== event.contractId &&
            topics[2] !== event.contractId
          ) {
            expected.push({
              ...where,
              type: 'lp_transfer',
              account: topics[1],
              // The receiver sees it in its activities too.
              counterparties: [topics[2]],
              to: topics[2],
              amount: data,
            })
          }
        })
      }
    }
  }, 120_000)

  it('decodes every deposit, withdrawal, swap and LP transfer between accounts, in order', () => {
    expect(actual).toEqual(expected)
    const types = new Set(actual.map((a) => a.type))
    for (const type of ['add_liquidity', 'remove_liquidity', 'swap', 'lp_transfer'])
      expect(types, type).toContain(type)
  })

  it('keeps amounts as BigInt and leaves the withdrawal transfer into the pair to the withdrawal', () => {
    const swap = actual.find((a) => a.type === 'swap') as ProtocolActivity & { amount_0_in: bigint }
    expect(typeof swap.amount_0_in).toBe('bigint')
    const transfers = actual.filter((a) => a.type === 'lp_transfer') as Array<
      ProtocolActivity & { to: string }
    >
    expect(transfers.every((t) => t.to !== t.contract && t.account !== t.contract)).toBe(true)
  })
})
