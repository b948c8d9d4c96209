// The reference of the Soroswap and DeFindex cross-protocol test's activities: every action of the
// devnet read independently from its envelopes and events with the SDK, with what each moved.
import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import { type AmmModel, pairStateAt } from './amm-reference-model.ts'
import { decimal } from './reference-model.ts'

/** Blend pool requests, whose second topic is the account (blend-contracts-v2 pool/src/events.rs). */
export const REQUESTS = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']

/** One action as read here from the XDR: protocol, type, the account it is listed under, where it sits. */
export interface RefAction {
  protocol: string
  type: string
  account: string
  ledger: number
  txHash: string
  txIndex: number
  eventIndex: number
  /** Some of the protocol's own fields the activity's `details` must carry (integers as decimal strings). */
  details?: Record<string, string>
  /** Another account whose activities list it: a transfer's receiver, a fill's filler, a debt's new owner. */
  also?: string
  /** What it moved, read from the event (AMM and yield actions). */
  legs?: RefLeg[]
}

/** One token an action moved, from its account's side, as its event states it. */
export interface RefLeg {
  role: 'asset' | 'shares'
  direction: 'sent' | 'received' | 'minted' | 'burnt'
  asset: string
  raw: bigint
}

/**
 * Every action of the devnet from the envelopes and events, decoded with the SDK: pool events
 * (Blend), pair events (Soroswap pair/src/event.rs, token transfers between accounts), vault
 * events (DeFindex vault/src/events.rs, df-token transfers), FxDAO calls (0.6.0 signatures).
 * `eventIndex` counts the watched contracts' events of the transaction.
 */
export function buildActivityRefs(devnet: Devnet, amm: AmmModel): RefAction[] {
  const network = devnet.chain.network
  const watch = buildNetworkWatchList(network)
  const watched = new Set(watch.strkeys.filter((_, i) => watch.holders[i] === null))
  const pools = new Set(network.contracts.lendingprotocol.map((p) => p.address))
  const pairs = new Set(
    network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair').map((c) => c.address),
  )
  const vaults = new Set(
    network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault').map((c) => c.address),
  )
  const fxdao = network.contracts.vaultprotocol.address
  const out: RefAction[] = []
  for (const ledger of decodeLedgers(devnet.chain)) {
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      const where = { ledger: ledger.sequence, txHash: tx.hash, txIndex: tx.index }
      const events = tx.events.filter((e) => watched.has(e.contractId))
      events.forEach((event, eventIndex) => {
        const topics = event.topics.map((x) => scValToNative(xdr.ScVal.fromXDR(x, 'base64')))
        const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64'))
        const push = (
          protocol: string,
          type: string,
          account: string,
          details?: Record<string, string>,
          also?: string,
          legs?: RefLeg[],
        ) =>
          out.push({
            protocol,
            type,
            account,
            eventIndex,
            ...where,
            ...(details ? { details } : {}),
            ...(also ? { also } : {}),
            ...(legs ? { legs } : {}),
          })
        if (pools.has(event.contractId)) {
          const name = topics[0] as string
          if (name === 'fill_auction')
            push('lendingprotocol', name, topics[2] as string, undefined, (data as unknown[])[0] as string)
          else if (REQUESTS.includes(name) || name === 'new_auction')
            push('lendingprotocol', name, topics[2] as string)
          else if (name === 'claim') push('lendingprotocol', name, topics[1] as string)
        } else if (pairs.has(event.contractId)) {
          // The pair's tokens as its own instance entry names them.
          const state = pairStateAt(amm, event.contractId, ledger.sequence)!
          const [t0, t1] = [state.token0, state.token1]
          if (topics[0] === 'SoroswapPair' && (topics[1] === 'deposit' || topics[1] === 'withdraw')) {
            const add = topics[1] === 'deposit'
            const lp: RefLeg = {
              role: 'shares',
              direction: add ? 'minted' : 'burnt',
              asset: event.contractId,
              raw: data.liquidity,
            }
            const tokens: RefLeg[] = [
              { role: 'asset', direction: add ? 'sent' : 'received', asset: t0, raw: data.amount_0 },
              { role: 'asset', direction: add ? 'sent' : 'received', asset: t1, raw: data.amount_1 },
            ]
            push(
              'ammprotocol',
              add ? 'add_liquidity' : 'remove_liquidity',
              data.to,
              undefined,
              undefined,
              add ? [...tokens, lp] : [lp, ...tokens],
            )
          } else if (topics[0] === 'SoroswapPair' && topics[1] === 'swap') {
            const legs: RefLeg[] = []
            for (const [key, asset, direction] of [
              ['amount_0_in', t0, 'sent'],
              ['amount_1_in', t1, 'sent'],
              ['amount_0_out', t0, 'received'],
              ['amount_1_out', t1, 'received'],
            ] as const)
              if (data[key] > 0n) legs.push({ role: 'asset', direction, asset, raw: data[key] })
            push('ammprotocol', 'swap', data.to, undefined, undefined, legs)
          } else if (
            topics[0] === 'transfer' &&
            topics[1] !== event.contractId &&
            topics[2] !== event.contractId
          )
            push(
              'ammprotocol',
              'lp_transfer',
              topics[1] as string,
              { to: topics[2] as string },
              topics[2] as string,
            )
        } else if (vaults.has(event.contractId)) {
          if (topics[0] === 'transfer' && topics.length === 3)
            push(
              'yieldprotocol',
              'transfer',
              topics[1] as string,
              { to: topics[2] as string },
              topics[2] as string,
            )
          else if (topics[0] === 'DeFindexVault' && (topics[1] === 'deposit' || topics[1] === 'withdraw')) {
            // Amounts in the vault's asset order, which the event's managed funds name.
            const deposit = topics[1] === 'deposit'
            const assets = (data.total_managed_funds_before as Array<{ asset: string }>).map((f) => f.asset)
            const amounts = (deposit ? data.amounts : data.amounts_withdrawn) as bigint[]
            const underlying = amounts.map(
              (raw, i): RefLeg => ({
                role: 'asset',
                direction: deposit ? 'sent' : 'received',
                asset: assets[i]!,
                raw,
              }),
            )
            const shares: RefLeg = {
              role: 'shares',
              direction: deposit ? 'minted' : 'burnt',
              asset: event.contractId,
              raw: deposit ? data.df_tokens_minted : data.df_tokens_burned,
            }
            push(
              'yieldprotocol',
              topics[1] as string,
              deposit ? data.depositor : data.withdrawer,
              { total_supply_before: decimal(data.total_supply_before, 7) },
              undefined,
              deposit ? [...underlying, shares] : [shares, ...underlying],
            )
          } else if (topics[0] === 'DeFindexVault' && topics[1] === 'rebalance')
            push('yieldprotocol', 'rebalance', event.contractId)
        }
      })
      if (tx.contract !== fxdao) continue
      const base = events.length
      const push = (type: string, i: number, account: string, also?: string) =>
        out.push({
          protocol: 'vaultprotocol',
          type,
          account,
          eventIndex: base + i,
          ...where,
          ...(also ? { also } : {}),
        })
      // biome-ignore lint/suspicious/noExplicitAny: native ScVal arguments of several shapes
      const a = tx.args as any[]
      if (tx.fn === 'new_vault' || tx.fn === 'redeem') push(tx.fn, 0, tx.fn === 'redeem' ? a[0] : a[1])
      else if (['increase_collateral', 'withdraw_collateral', 'increase_debt', 'pay_debt'].includes(tx.fn))
        push(tx.fn, 0, a[1].account)
      else if (tx.fn === 'transfer_debt') push(tx.fn, 0, a[1].account, a[2])
      else if (tx.fn === 'liquidate') {
        push('liquidate', 0, a[0])
        const removed = tx.changes.filter(
          (c) => c.kind === 'removed' && Array.isArray(c.key) && (c.key as unknown[])[0] === 'Vault',
        )
        for (const [i, c] of removed.entries())
          push('liquidated', 1 + i, ((c.key as unknown[])[1] as string[])[0]!)
      }
    }
  }
  return out
}
