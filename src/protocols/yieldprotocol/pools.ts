import type { NetworkConfig, YieldContractInfo } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import { ledgerClosedBy } from '../kit/ledger-times.ts'
import type { Enrichment, PositionsDeps, Rendered, StateQuery } from '../kit/protocol-module.ts'
import { addPricedAsset, createPriceLookup, describePrices } from '../kit/valuation.ts'
import { YIELD_STATE } from './adapt-ledger.ts'
import { APY_DECIMALS, APY_WINDOWS, annualize, WINDOW_SECONDS } from './apy.ts'
import {
  PRICE_DECIMALS,
  pricePerShare,
  readVaultFunds,
  SHARE_DECIMALS,
  type VaultFunds,
  vaultHistoryComplete,
} from './funds.ts'
import { decimalsOf, yieldContractObject } from './positions.ts'

const vaultsOf = (network: NetworkConfig) =>
  network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault')

/** Why an APY is null: the store's ledgers or the vault's shares do not reach back; a price per share is unknown. */
export type ApyProblem = 'history_missing' | 'rate_missing'

export interface VaultApy {
  apy: string | null
  from_ledger: number | null
  to_ledger: number
  unavailable_reason: ApyProblem | null
}

/** The vault's funds at `ledger`, knowing whether the store holds its whole history up to it. */
async function fundsAt(
  deps: PositionsDeps,
  network: NetworkConfig,
  vault: YieldContractInfo,
  ledger: number,
) {
  const complete = await vaultHistoryComplete(deps.reader, vault, ledger)
  return readVaultFunds(deps.reader, network, vault, ledger, complete)
}

const ppsOf = (funds: VaultFunds, index: number, decimals: number): bigint | null => {
  const a = funds.assets[index]
  if (!a || a.total === null || funds.totalSupply === null) return null
  return pricePerShare(a.total, funds.totalSupply, decimals)
}

/**
 * Per asset of the vault, the APY over each window ending at the pin: its price per share at the pin
 * against the one at the latest ledger closed at least the window earlier, compounded to a year.
 */
async function apysOf(
  deps: PositionsDeps,
  network: NetworkConfig,
  vault: YieldContractInfo,
  now: VaultFunds,
  query: StateQuery,
): Promise<Array<Record<string, VaultApy>>> {
  const first = (await deps.reader.head()).firstIndexedLedger
  const out = now.assets.map(() => ({}) as Record<string, VaultApy>)
  for (const days of APY_WINDOWS) {
    const from =
      first === null || query.closeTime === null
        ? null
        : await ledgerClosedBy(deps.reader, first, query.ledger, query.closeTime - WINDOW_SECONDS(days))
    const [then, fromClose] =
      from === null
        ? [null, null]
        : await Promise.all([fundsAt(deps, network, vault, from), deps.reader.closeTime(from)])
    for (const [i, a] of now.assets.entries()) {
      const d = decimalsOf(network, a.asset)
      const to = ppsOf(now, i, d)
      const before = then && then.assets[i]?.asset === a.asset ? ppsOf(then, i, d) : null
      let apy: bigint | null = null
      let reason: ApyProblem | null = null
      // A price per share is unknown when an entry behind it was never seen (rate_missing), absent
      // when the vault had issued no shares yet (its history does not reach back).
      if (from === null || then === null || fromClose === null || query.closeTime === null)
        reason = 'history_missing'
      else if (to === null) reason = now.partial ? 'rate_missing' : 'history_missing'
      else if (before === null) reason = then.partial ? 'rate_missing' : 'history_missing'
      else {
        apy = annualize(before, to, query.closeTime - fromClose)
        if (apy === null) reason = 'history_missing'
      }
      out[i]![`apy_${days}d`] = {
        apy: apy === null ? null : formatUnits(apy, APY_DECIMALS),
        from_ledger: from,
        to_ledger: query.ledger,
        unavailable_reason: reason,
      }
    }
  }
  return out
}

async function renderVault(
  deps: PositionsDeps,
  network: NetworkConfig,
  vault: YieldContractInfo,
  query: StateQuery,
) {
  const ledger = query.ledger
  const funds = await fundsAt(deps, network, vault, ledger)
  const metaRow = await deps.reader.stateAt(vault.address, YIELD_STATE.metadata, ledger)
  const meta: unknown = metaRow ? JSON.parse(metaRow.value) : null
  const field = (name: string) =>
    typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)[name] === 'string'
      ? ((meta as Record<string, unknown>)[name] as string)
      : null
  const fmt = (v: bigint | null, d: number) => (v === null ? null : formatUnits(v, d))
  const apys = await apysOf(deps, network, vault, funds, query)
  const object = {
    contract_address: vault.address,
    name: vault.name,
    share_symbol: field('symbol'),
    total_supply: fmt(funds.totalSupply, SHARE_DECIMALS),
    vault_fee_bps: funds.vaultFeeBps === null ? null : Number(funds.vaultFeeBps),
    protocol_fee_bps: funds.protocolFeeBps === null ? null : Number(funds.protocolFeeBps),
    assets: funds.assets.map((a, i) => {
      const d = decimalsOf(network, a.asset)
      return {
        asset: a.asset,
        idle: fmt(a.idle, d),
        invested: fmt(a.invested, d),
        total_managed_funds: fmt(a.total, d),
        price_per_share: fmt(ppsOf(funds, i, d), PRICE_DECIMALS),
        apy_7d: apys[i]!.apy_7d!,
        apy_30d: apys[i]!.apy_30d!,
        strategies: a.strategies.map((s) => ({
          contract_address: s.address,
          name: s.name,
          paused: s.paused,
          pool: s.pool,
          shares: fmt(s.shares, d),
          b_rate: fmt(s.bRate, 12),
          b_rate_ledger: s.bRateLedger,
          balance: fmt(s.balance, d),
          locked_fee: fmt(s.lockedFee, d),
          invested: fmt(s.invested, d),
        })),
      }
    }),
    rate_ledger: funds.stateLedger,
    unavailable_reason: funds.partial ? ('rate_missing' as const) : null,
  }
  const ledgerOf =
    metaRow && (funds.stateLedger === null || metaRow.ledger > funds.stateLedger)
      ? metaRow.ledger
      : funds.stateLedger
  return { object, partial: funds.partial, asOfLedger: ledgerOf }
}

type PriceLookup = ReturnType<typeof createPriceLookup>

/** The vault's contract and its assets, each with the price every other answer gives it at the ledger. */
async function enrich(
  network: NetworkConfig,
  vault: YieldContractInfo,
  enrichment: Enrichment,
  assets: string[],
  prices: PriceLookup,
) {
  enrichment.contracts[vault.address] = yieldContractObject(vault)
  for (const asset of assets)
    addPricedAsset(enrichment, network, asset, await prices.priceOf(asset), decimalsOf(network, asset))
}

const lookupAt = (deps: PositionsDeps, network: NetworkConfig, query: StateQuery) =>
  createPriceLookup(deps.reader, network, query.ledger, query.closeTime, deps.maxPriceAgeS)

/** One vault at a ledger, each entry as last written at or before it. */
export async function renderYieldPool(
  deps: PositionsDeps,
  network: NetworkConfig,
  pool: YieldContractInfo,
  query: StateQuery,
): Promise<Rendered & { asOfLedger: number | null }> {
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const prices = lookupAt(deps, network, query)
  const { object, partial, asOfLedger } = await renderVault(deps, network, pool, query)
  await enrich(
    network,
    pool,
    enrichment,
    object.assets.map((a) => a.asset),
    prices,
  )
  const { stalenessS, sources } = describePrices(await prices.used(), query.closeTime)
  return { data: object, enrichment, oracleStalenessS: stalenessS, sources, partial, asOfLedger }
}

/** Every vault the network description lists, in its order. */
export async function renderYieldReserves(
  deps: PositionsDeps,
  network: NetworkConfig,
  query: StateQuery,
): Promise<Rendered & { asOfLedger: number | null }> {
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const prices = lookupAt(deps, network, query)
  const vaults: unknown[] = []
  let partial = false
  let asOf: number | null = null
  for (const vault of vaultsOf(network)) {
    const r = await renderVault(deps, network, vault, query)
    vaults.push(r.object)
    partial ||= r.partial
    if (r.asOfLedger !== null && (asOf === null || r.asOfLedger > asOf)) asOf = r.asOfLedger
    await enrich(
      network,
      vault,
      enrichment,
      r.object.assets.map((a) => a.asset),
      prices,
    )
  }
  const { stalenessS, sources } = describePrices(await prices.used(), query.closeTime)
  return { data: { vaults }, enrichment, oracleStalenessS: stalenessS, sources, partial, asOfLedger: asOf }
}

export { fundsAt, vaultsOf }
