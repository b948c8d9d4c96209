import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/devnet/devnet.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import {
  buildReferenceModel,
  decimal,
  latestAtOrBefore,
  type ReferenceModel,
  roundHalfEven,
} from './reference-model.ts'

/**
 * DeFindex vaults read straight from the devnet's XDR with stellar-sdk (test/devnet/decode-ledgers),
 * independently of the indexer: each holder's df-token `Balance` entries, and every entry the price
 * per share needs, versioned by ledger. The vault's accounting (paltalabs/defindex vault/src/
 * {funds,report}.rs, strategies/blend/src/utils.rs) is written again in `expectYield`.
 */

const S12 = 1_000_000_000_000n

export interface Versioned {
  ledger: number
  value: unknown
}

export interface RefYieldItem {
  vault: string
  shares: bigint
  changedAt: number
}

export interface RefYieldSnapshot {
  ledger: number
  items: RefYieldItem[]
}

export interface RefVaultEvent {
  ledger: number
  txHash: string
  vault: string
  name: 'deposit' | 'withdraw'
  data: Record<string, unknown>
}

export interface YieldModel {
  base: ReferenceModel
  vaults: string[]
  state: Map<string, Versioned[]>
  snapshots: Map<string, RefYieldSnapshot[]>
  events: RefVaultEvent[]
}

const big = (_: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)
const tag = (key: unknown) => (Array.isArray(key) ? String(key[0]) : String(key))

export function buildYieldModel(chain: DevnetChain): YieldModel {
  const base = buildReferenceModel(chain)
  const yieldContracts = chain.network.contracts.yieldprotocol
  const vaults = yieldContracts.filter((c) => c.kind === 'defindex-vault').map((c) => c.address)
  const vaultSet = new Set(vaults)
  const strategies = new Set(yieldContracts.filter((c) => c.kind !== 'defindex-vault').map((c) => c.address))
  const assets = new Set(yieldContracts.flatMap((c) => c.assets ?? []))
  const pools = new Set(chain.network.contracts.lendingprotocol.map((p) => p.address))
  const model: YieldModel = { base, vaults, state: new Map(), snapshots: new Map(), events: [] }
  const current = new Map<string, Map<string, RefYieldItem>>()
  const put = (key: string, ledger: number, value: unknown) => {
    const list = model.state.get(key) ?? []
    if (list.at(-1)?.ledger === ledger) list.pop()
    if (JSON.stringify(list.at(-1)?.value, big) !== JSON.stringify(value, big)) list.push({ ledger, value })
    model.state.set(key, list)
  }
  for (const ledger of decodeLedgers(chain)) {
    const touched = new Map<string, string>()
    const fingerprint = (items: Map<string, RefYieldItem>) =>
      JSON.stringify(
        [...items.values()].map((i) => [i.vault, i.shares]),
        big,
      )
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      for (const c of tx.changes) {
        if (c.kind !== 'created' && c.kind !== 'updated' && c.kind !== 'removed') continue
        const key = c.key as unknown[]
        if (c.key === 'instance') {
          const storage = (c.val ?? []) as [unknown, unknown][]
          for (const [k, v] of storage) {
            const name = tag(k)
            if (vaultSet.has(c.contract)) {
              if (['TotalSupply', 'TotalAssets', 'VaultFee', 'DeFindexProtocolFeeRate'].includes(name))
                put(`${c.contract}|${name}`, ledger.sequence, v)
              else if (name === 'AssetStrategySet')
                put(`${c.contract}|AssetStrategySet/${(k as unknown[])[1]}`, ledger.sequence, v)
              else if (name === 'METADATA') put(`${c.contract}|METADATA`, ledger.sequence, v)
            } else if (strategies.has(c.contract) && (name === 'Reserves' || name === 'Config'))
              put(`${c.contract}|${name}`, ledger.sequence, v)
          }
          continue
        }
        if (!Array.isArray(key) || c.durability !== 'persistent') continue
        const name = String(key[0])
        const arg = key[1] as string
        if (vaultSet.has(c.contract) && name === 'Balance') {
          const items = current.get(arg) ?? new Map<string, RefYieldItem>()
          current.set(arg, items)
          if (!touched.has(arg)) touched.set(arg, fingerprint(items))
          const shares = c.kind === 'removed' ? 0n : (c.val as bigint)
          const was = items.get(c.contract)
          if (shares === 0n) items.delete(c.contract)
          else if (was?.shares !== shares)
            items.set(c.contract, { vault: c.contract, shares, changedAt: ledger.sequence })
        } else if (vaultSet.has(c.contract) && name === 'Report' && c.kind !== 'removed')
          put(`${c.contract}|Report/${arg}`, ledger.sequence, c.val)
        else if (strategies.has(c.contract) && name === 'VaultPos')
          put(`${c.contract}|VaultPos/${arg}`, ledger.sequence, c.kind === 'removed' ? 0n : c.val)
        else if (assets.has(c.contract) && name === 'Balance' && vaultSet.has(arg))
          put(
            `${c.contract}|Balance/${arg}`,
            ledger.sequence,
            c.kind === 'removed' ? 0n : (c.val as { amount: bigint }).amount,
          )
        else if (pools.has(c.contract) && name === 'ResData' && c.kind !== 'removed')
          put(`${c.contract}|ResData/${arg}`, ledger.sequence, c.val)
      }
      for (const e of tx.events) {
        if (!vaultSet.has(e.contractId)) continue
        const [first, second] = e.topicsWire
        if (first?.type !== 14 || first.str.toString() !== 'DeFindexVault' || second?.type !== 15) continue
        const name = second.sym.toString()
        if (name !== 'deposit' && name !== 'withdraw') continue
        const data = scValToNative(xdr.ScVal.fromXDR(e.value, 'base64')) as Record<string, unknown>
        model.events.push({ ledger: ledger.sequence, txHash: tx.hash, vault: e.contractId, name, data })
      }
    }
    for (const [account, before] of touched) {
      const items = current.get(account)!
      if (fingerprint(items) === before) continue
      const list = model.snapshots.get(account) ?? []
      const sorted = [...items.values()].sort((a, b) => (a.vault < b.vault ? -1 : 1)).map((i) => ({ ...i }))
      list.push({ ledger: ledger.sequence, items: sorted })
      model.snapshots.set(account, list)
    }
  }
  return model
}

export function stateAt(model: YieldModel, key: string, ledger: number): Versioned | undefined {
  return latestAtOrBefore(model.state.get(key), ledger)
}

export function yieldSnapshotAt(model: YieldModel, account: string, ledger: number) {
  return latestAtOrBefore(model.snapshots.get(account), ledger)
}

/** The vault's funds at `ledger`, as `fetch_total_managed_funds` computes them with the stored b_rate. */
export function vaultFundsAt(model: YieldModel, vault: string, ledger: number) {
  let last: number | null = null
  const read = (key: string) => {
    const v = stateAt(model, key, ledger)
    if (v && (last === null || v.ledger > last)) last = v.ledger
    return v
  }
  const supply = (read(`${vault}|TotalSupply`)?.value as bigint | undefined) ?? 0n
  const fee = BigInt(read(`${vault}|VaultFee`)!.value as number)
  read(`${vault}|DeFindexProtocolFeeRate`)
  read(`${vault}|TotalAssets`)
  const set = read(`${vault}|AssetStrategySet/0`)!.value as {
    address: string
    strategies: { address: string }[]
  }
  const asset = set.address
  const strategy = set.strategies[0]!.address
  const idle = (read(`${asset}|Balance/${vault}`)?.value as bigint | undefined) ?? 0n
  const pos = (read(`${strategy}|VaultPos/${vault}`)?.value as bigint | undefined) ?? 0n
  const reserves = read(`${strategy}|Reserves`)?.value as Record<string, bigint> | undefined
  const config = stateAt(model, `${strategy}|Config`, ledger)!.value as { pool: string }
  let balance = 0n
  if (pos !== 0n && reserves && reserves.total_shares !== 0n && reserves.total_b_tokens !== 0n) {
    const bRate = (read(`${config.pool}|ResData/${asset}`)!.value as { b_rate: bigint }).b_rate
    balance = (((pos * reserves.total_b_tokens!) / reserves.total_shares!) * bRate) / S12
  }
  const report = (read(`${vault}|Report/${strategy}`)?.value as Record<string, bigint> | undefined) ?? {
    gains_or_losses: 0n,
    locked_fee: 0n,
    prev_balance: 0n,
  }
  const prev = report.prev_balance === 0n ? balance : report.prev_balance!
  const gains = report.gains_or_losses! + balance - prev
  const locked = report.locked_fee! + (gains > 0n ? (gains * fee) / 10_000n : 0n)
  return { asset, supply, total: idle + balance - locked, rateLedger: last as number | null }
}

export interface Valuing {
  at: boolean
  ledger: number
  maxPriceAgeS: number
}

/** The `data` the positions endpoint must answer for one snapshot. */
export function expectYield(
  model: YieldModel,
  chain: DevnetChain,
  address: string,
  snap: RefYieldSnapshot,
  v: Valuing,
) {
  const positions = snap.items.map((item) => {
    const funds = vaultFundsAt(model, item.vault, v.at ? v.ledger : item.changedAt)
    const amount = funds.supply === 0n ? null : (item.shares * funds.total) / funds.supply
    const feed = chain.network.assets[funds.asset]?.price_feed
    const row = feed
      ? latestAtOrBefore(model.base.prices.get(`${feed.oracle}|${feed.asset}`), v.ledger)
      : undefined
    const close = model.base.closeTimes.get(v.ledger)!
    const problem = !row
      ? 'price_missing'
      : close - Math.floor(row.tsMs / 1000) > v.maxPriceAgeS
        ? 'price_stale'
        : null
    const usd =
      problem || amount === null ? null : roundHalfEven(amount * row!.price, 10n ** BigInt(row!.decimals))
    return {
      protocol: 'yieldprotocol',
      contract_address: item.vault,
      position_type: 'vault_share',
      asset: funds.asset,
      shares: decimal(item.shares, 7),
      amount: amount === null ? null : decimal(amount, 7),
      amount_usd: usd === null ? null : decimal(usd, 7),
      price_per_share: funds.supply === 0n ? null : decimal((funds.total * S12) / funds.supply, 12),
      total_managed_funds: decimal(funds.total, 7),
      total_supply: decimal(funds.supply, 7),
      rate_ledger: funds.rateLedger,
      ledger: item.changedAt,
      usd_unavailable_reason: amount === null ? 'rate_missing' : problem,
    }
  })
  // One group per vault (the devnet's vaults hold one asset each): the row's value and the share of the supply.
  const groups = snap.items.map((item, i) => {
    const funds = vaultFundsAt(model, item.vault, v.at ? v.ledger : item.changedAt)
    const row = positions[i]!
    return {
      contract_address: item.vault,
      shares: decimal(item.shares, 7),
      total_supply: decimal(funds.supply, 7),
      share_of_pool: funds.supply === 0n ? null : decimal((item.shares * 10n ** 18n) / funds.supply, 18),
      value_usd: row.amount_usd,
      rate_ledger: funds.rateLedger,
      usd_unavailable_reason: row.usd_unavailable_reason,
    }
  })
  return { address, positions, groups }
}
