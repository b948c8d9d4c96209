// The reference of the cross-protocol test's activities: every action of the vault and lending
// protocols read independently from the devnet (FxDAO's calls from the envelopes, Blend's pool
// events from the lending reference model), whom each is listed under, and its USD at its ledger.
import { expect } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import type { LendingModel, RefPoolEvent } from './lending-reference-model.ts'
import { decimal, latestAtOrBefore, roundHalfEven } from './reference-model.ts'

/** The pool events the lending module lists as actions, and whose account each names (blend-contracts-v2 pool/src/events.rs). */
export const REQUESTS = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']
/** A vault action as read from the call (FxDAO publishes no events), shaped like a pool event. */
export type RefAction = RefPoolEvent & {
  vault?: {
    account: string
    asset: string | null
    amount: bigint | null
    also?: string
    /** new_vault: the debt token minted to the caller and its amount. */
    debt?: { asset: string; amount: bigint }
  }
}

export function accountOf(event: RefAction): string | null {
  if (event.vault) return event.vault.account
  const [name, , second] = event.topics as [string, unknown, unknown]
  if (REQUESTS.includes(name) || name === 'new_auction' || name === 'fill_auction') return second as string
  if (name === 'claim') return event.topics[1] as string
  return null
}

/** Every account whose activities list the action: its own, and an auction's filler or a moved debt's new owner. */
export function listedUnder(event: RefAction): string[] {
  const own = accountOf(event)
  if (own === null) return []
  const other = event.vault
    ? event.vault.also
    : event.topics[0] === 'fill_auction'
      ? (event.data as unknown[])[0]
      : undefined
  return typeof other === 'string' && other !== own ? [own, other] : [own]
}

export interface Activity {
  protocol: string
  type: string
  account: string
  ledger: number
  tx_hash: string
  event_index: number
  legs: Array<{
    role: string
    direction: string
    asset: string | null
    amount_raw: string
    amount: string | null
    amount_usd: string | null
    usd_unavailable_reason: string | null
  }>
  amount_usd: string | null
  usd_unavailable_reason: string | null
  closed_at: string | null
}

/**
 * The activities reference of a devnet: its vault actions, every action (vault and lending), an
 * account's actions newest first, the account that acts most in both protocols on both sides of
 * `mid`, the USD of an amount at a ledger, and a check of one answered activity against its action.
 */
export function createActivityReference(
  devnet: Devnet,
  model: LendingModel,
  mid: number,
  maxPriceAgeS: number,
) {
  /** FxDAO's actions from the devnet's envelopes (function and arguments, FxDAO 0.6.0 signatures). */
  const buildVaultRefs = (): RefAction[] => {
    const network = devnet.chain.network
    const vault = network.contracts.vaultprotocol.address
    const watched = new Set([vault, ...model.pools, ...network.contracts.oracles.map((o) => o.address)])
    const xlm = network.vaultprotocol.collateral_asset
    const debtOf = (d: string) => network.vaultprotocol.denominations[d]!.debt_asset
    const refs: RefAction[] = []
    for (const ledger of decodeLedgers(devnet.chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful || tx.contract !== vault) continue
        const base = tx.events.filter((e) => watched.has(e.contractId)).length
        const push = (
          type: string,
          i: number,
          account: string,
          asset: string | null,
          amount: bigint | null,
          also?: string,
          debt?: { asset: string; amount: bigint },
        ) =>
          refs.push({
            ledger: ledger.sequence,
            txHash: tx.hash,
            txIndex: tx.index,
            contract: vault,
            watchedIndex: base + i,
            topics: [type],
            data: null,
            vault: { account, asset, amount, ...(also ? { also } : {}), ...(debt ? { debt } : {}) },
          })
        // biome-ignore lint/suspicious/noExplicitAny: native ScVal arguments of several shapes
        const a = tx.args as any[]
        if (tx.fn === 'new_vault')
          push('new_vault', 0, a[1], xlm, a[3], undefined, { asset: debtOf(a[4]), amount: a[2] })
        else if (tx.fn === 'increase_collateral' || tx.fn === 'withdraw_collateral')
          push(tx.fn, 0, a[1].account, xlm, a[3])
        else if (tx.fn === 'increase_debt' || tx.fn === 'pay_debt')
          push(tx.fn, 0, a[1].account, debtOf(a[1].denomination), a[3])
        else if (tx.fn === 'redeem') push('redeem', 0, a[0], debtOf(a[1]), a[3])
        else if (tx.fn === 'transfer_debt') push('transfer_debt', 0, a[1].account, null, null, a[2])
        else if (tx.fn === 'liquidate') {
          push('liquidate', 0, a[0], null, null)
          const removed = tx.changes.filter(
            (c) => c.kind === 'removed' && Array.isArray(c.key) && (c.key as unknown[])[0] === 'Vault',
          )
          for (const [i, c] of removed.entries())
            push('liquidated', 1 + i, ((c.key as unknown[])[1] as string[])[0]!, null, null)
        }
      }
    }
    return refs
  }
  const vaultRefs = buildVaultRefs()
  const allRefs = (): RefAction[] => [...model.events, ...vaultRefs]

  const referenceActions = (account: string, upTo: number) =>
    allRefs()
      .filter((e) => e.ledger <= upTo && listedUnder(e).includes(account))
      .sort((a, b) => b.ledger - a.ledger || b.txIndex - a.txIndex || b.watchedIndex - a.watchedIndex)

  /** The account with the most actions at or before MID and after it. */
  const busiest = () => {
    const counts = new Map<string, [number, number]>()
    const vaultUsers = new Set(vaultRefs.map((e) => e.vault!.account))
    for (const e of allRefs()) {
      const account = accountOf(e)
      // Accounts acting in both protocols, so the pages interleave them.
      if (!account || !vaultUsers.has(account) || !model.events.some((x) => accountOf(x) === account))
        continue
      const c = counts.get(account) ?? [0, 0]
      c[e.ledger <= mid ? 0 : 1]++
      counts.set(account, c)
    }
    return [...counts].sort(([, a], [, b]) => Math.min(...b) - Math.min(...a))[0]![0]
  }

  /** USD of an amount at a ledger, from the reference model's own reading of Reflector. */
  const expectedUsd = (asset: string, amount: bigint, ledger: number) => {
    const network = devnet.chain.network
    const decimals = network.assets[asset]!.decimals
    // The description's own source for the asset: a declared USD peg, or its feed.
    if (network.assets[asset]?.price_peg === 'USD')
      return { usd: decimal(roundHalfEven(amount, 10n ** BigInt(decimals - 7)), 7), reason: null }
    const feed = network.assets[asset]?.price_feed
    const row = feed
      ? latestAtOrBefore(model.base.prices.get(`${feed.oracle}|${feed.asset}`), ledger)
      : undefined
    if (!row) return { usd: null, reason: 'price_missing' }
    const close = model.base.closeTimes.get(ledger)!
    if (close - Math.floor(row.tsMs / 1000) > maxPriceAgeS) return { usd: null, reason: 'price_stale' }
    return {
      usd: decimal(roundHalfEven(amount * row.price, 10n ** BigInt(decimals + row.decimals - 7)), 7),
      reason: null,
    }
  }

  /** FxDAO: the direction of the call's amount from the caller's side. */
  const VAULT_DIRECTIONS: Record<string, string> = {
    new_vault: 'sent',
    increase_collateral: 'sent',
    withdraw_collateral: 'received',
    increase_debt: 'received',
    pay_debt: 'sent',
    redeem: 'sent',
  }
  /** Blend requests: the underlying's direction, the pool token's and which token it is. */
  const REQUEST_LEGS: Record<string, [string, string, string]> = {
    supply: ['sent', 'minted', 'shares'],
    supply_collateral: ['sent', 'minted', 'shares'],
    withdraw: ['received', 'burnt', 'shares'],
    withdraw_collateral: ['received', 'burnt', 'shares'],
    borrow: ['received', 'minted', 'debt'],
    repay: ['sent', 'burnt', 'debt'],
  }

  const checkActivity = (got: Activity, ref: RefAction) => {
    const [name, first] = ref.topics as [string, unknown]
    const network = devnet.chain.network
    const closedAt = new Date(model.base.closeTimes.get(ref.ledger)! * 1000).toISOString()
    if (ref.vault) {
      const { account, asset, amount, debt } = ref.vault
      expect(got).toMatchObject({
        protocol: 'vaultprotocol',
        type: name,
        account,
        ledger: ref.ledger,
        closed_at: closedAt,
        tx_hash: ref.txHash,
        event_index: ref.watchedIndex,
      })
      const legs: Array<Record<string, unknown>> = []
      if (asset !== null && amount !== null) {
        const { usd, reason } = expectedUsd(asset, amount, ref.ledger)
        legs.push({
          role: 'asset',
          direction: VAULT_DIRECTIONS[name],
          asset,
          amount_raw: amount.toString(),
          amount: decimal(amount, network.assets[asset]!.decimals),
          amount_usd: usd,
          usd_unavailable_reason: reason,
        })
        // The action is worth the amount its call names (new_vault: the collateral it sent).
        expect(got).toMatchObject({ amount_usd: usd, usd_unavailable_reason: reason })
      } else expect(got).toMatchObject({ amount_usd: null, usd_unavailable_reason: 'no_amount' })
      if (debt) {
        const { usd, reason } = expectedUsd(debt.asset, debt.amount, ref.ledger)
        legs.push({
          role: 'asset',
          direction: 'received',
          asset: debt.asset,
          amount_raw: debt.amount.toString(),
          amount_usd: usd,
          usd_unavailable_reason: reason,
        })
      }
      expect(got.legs).toHaveLength(legs.length)
      for (const [i, leg] of legs.entries()) expect(got.legs[i]).toMatchObject(leg)
      return
    }
    expect(got).toMatchObject({
      protocol: 'lendingprotocol',
      type: name,
      account: accountOf(ref),
      ledger: ref.ledger,
      tx_hash: ref.txHash,
      event_index: ref.watchedIndex,
      closed_at: closedAt,
    })
    if (REQUESTS.includes(name)) {
      const [amount, tokens] = ref.data as bigint[]
      const asset = first as string
      const decimals = network.assets[asset]!.decimals
      const { usd, reason } = expectedUsd(asset, amount!, ref.ledger)
      const [direction, tokenDirection, role] = REQUEST_LEGS[name]!
      expect(got.legs).toEqual([
        {
          role: 'asset',
          direction,
          asset,
          symbol: network.assets[asset]!.symbol,
          amount_raw: amount!.toString(),
          amount: decimal(amount!, decimals),
          amount_usd: usd,
          usd_unavailable_reason: reason,
        },
        {
          role,
          direction: tokenDirection,
          asset,
          symbol: network.assets[asset]!.symbol,
          amount_raw: tokens!.toString(),
          amount: decimal(tokens!, decimals),
          amount_usd: null,
          usd_unavailable_reason: 'protocol_token',
        },
      ])
      expect(got).toMatchObject({ amount_usd: usd, usd_unavailable_reason: reason })
    } else if (name === 'claim') {
      // BLND, which the network description does not list: an amount, no price.
      const amount = (ref.data as unknown[])[1] as bigint
      expect(got.legs).toEqual([
        {
          role: 'asset',
          direction: 'received',
          asset: null,
          symbol: null,
          amount_raw: amount.toString(),
          amount: decimal(amount, 7),
          amount_usd: null,
          usd_unavailable_reason: 'asset_unknown',
        },
      ])
      expect(got).toMatchObject({ amount_usd: null, usd_unavailable_reason: 'asset_unknown' })
    } else {
      expect(got).toMatchObject({ legs: [], amount_usd: null, usd_unavailable_reason: 'no_amount' })
    }
  }

  return { vaultRefs, allRefs, referenceActions, busiest, expectedUsd, checkActivity }
}

/** What createActivityReference returns. */
export type ActivityReference = ReturnType<typeof createActivityReference>
