import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeLedgerCloseMeta } from '../../src/chain/decode-ledger.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import type { ProtocolActivity } from '../../src/protocols/kit/protocol-module.ts'
import { yieldProtocol } from '../../src/protocols/yieldprotocol/index.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'

/**
 * The yield adapter's actions against the devnet's vault events, each decoded here from the XDR
 * with the SDK (paltalabs/defindex vault/src/events.rs; the df-token's soroban-token-sdk events).
 */
describe('yield actions from the vault events', () => {
  let chain: DevnetChain
  let actual: ProtocolActivity[]
  let expected: Record<string, unknown>[]

  beforeAll(() => {
    chain = createDevnetChain({
      seed: 'yield-actions',
      ledgers: 1500,
      accounts: 60,
      activity: 0.04,
      ammActivity: 0,
      startLedger: 2000,
    })
    const network = chain.network
    const adapter = yieldProtocol.createAdapter(network)
    const watch = buildNetworkWatchList(network)
    actual = []
    for (let s = chain.oldestLedger(); s <= chain.latestLedger(); s++)
      actual.push(
        ...(adapter.adaptLedger(decodeLedgerCloseMeta(chain.ledgerMetaXdr(s), watch)).activities ?? []),
      )
    const vaults = new Set(
      network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault').map((c) => c.address),
    )
    const watched = new Set(watch.strkeys.filter((_, i) => watch.holders[i] === null))
    expected = []
    for (const ledger of decodeLedgers(chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        tx.events
          .filter((e) => watched.has(e.contractId))
          .forEach((event, index) => {
            if (!vaults.has(event.contractId)) return
            const topics = event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64')))
            const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64'))
            const where = {
              protocol: 'yieldprotocol',
              contract: event.contractId,
              ledger: ledger.sequence,
              tx_hash: tx.hash,
              operation: 0,
              event_index: index,
            }
            const funds = (list: Record<string, unknown>[]) =>
              list.map((a) => ({
                asset: a.asset,
                idle_amount: a.idle_amount,
                invested_amount: a.invested_amount,
                total_amount: a.total_amount,
                strategy_allocations: (a.strategy_allocations as Record<string, unknown>[]).map((s) => ({
                  strategy_address: s.strategy_address,
                  amount: s.amount,
                  paused: s.paused,
                })),
              }))
            if (topics[0] === 'transfer' && topics.length === 3)
              expected.push({
                ...where,
                type: 'transfer',
                account: topics[1],
                // The receiver sees it in its activities too.
                counterparties: [topics[2]],
                to: topics[2],
                amount: data,
              })
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'deposit')
              expected.push({
                ...where,
                type: 'deposit',
                account: data.depositor,
                amounts: data.amounts,
                df_tokens_minted: data.df_tokens_minted,
                total_managed_funds_before: funds(data.total_managed_funds_before),
                total_supply_before: data.total_supply_before,
              })
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'withdraw')
              expected.push({
                ...where,
                type: 'withdraw',
                account: data.withdrawer,
                amounts_withdrawn: data.amounts_withdrawn,
                df_tokens_burned: data.df_tokens_burned,
                total_managed_funds_before: funds(data.total_managed_funds_before),
                total_supply_before: data.total_supply_before,
              })
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'rebalance')
              expected.push({
                ...where,
                type: 'rebalance',
                account: event.contractId,
                method: data.rebalance_method,
              })
          })
      }
    }
  })

  it('decodes every deposit, withdrawal, share transfer and rebalance, in order', () => {
    const count = (type: string) => expected.filter((e) => e.type === type).length
    expect(count('deposit')).toBeGreaterThan(20)
    expect(count('withdraw')).toBeGreaterThan(5)
    expect(count('transfer')).toBeGreaterThan(5)
    expect(count('rebalance')).toBeGreaterThan(5)
    expect(actual).toEqual(expected)
  })

  it('keeps amounts as BigInt and names the depositor, withdrawer or sender as the account', () => {
    for (const a of actual as unknown as Record<string, unknown>[]) {
      if (a.type === 'deposit') expect(typeof a.df_tokens_minted).toBe('bigint')
      if (a.type === 'transfer') expect(typeof a.amount).toBe('bigint')
      if (a.type !== 'rebalance') expect(String(a.account)).toMatch(/^G/)
    }
  })
})
