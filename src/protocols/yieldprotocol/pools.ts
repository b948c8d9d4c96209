import type { NetworkConfig, YieldContractInfo } from '../../chain/network.ts'
import { formatUnits } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, StateQuery } from '../kit/protocol-module.ts'
import { addPricedAsset, createPriceLookup, describePrices } from '../kit/valuation.ts'
import { YIELD_STATE } from './adapt-ledger.ts'
import { PRICE_DECIMALS, pricePerShare, readVaultFunds, SHARE_DECIMALS } from './funds.ts'
import { decimalsOf, yieldContractObject } from './positions.ts'

const vaultsOf = (network: NetworkConfig) =>
  network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault')

async function renderVault(
  deps: PositionsDeps,
  network: NetworkConfig,
  vault: YieldContractInfo,
  ledger: number,
) {
  const funds = await readVaultFunds(deps.reader, network, vault, ledger)
  const metaRow = await deps.reader.stateAt(vault.address, YIELD_STATE.metadata, ledger)
  const meta: unknown = metaRow ? JSON.parse(metaRow.value) : null
  const field = (name: string) =>
    typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)[name] === 'string'
      ? ((meta as Record<string, unknown>)[name] as string)
      : null
  const fmt = (v: bigint | null, d: number) => (v === null ? null : formatUnits(v, d))
  const object = {
    vault: vault.address,
    name: field('name'),
    symbol: field('symbol'),
    total_supply: formatUnits(funds.totalSupply, SHARE_DECIMALS),
    vault_fee_bps: funds.vaultFeeBps === null ? null : Number(funds.vaultFeeBps),
    protocol_fee_bps: funds.protocolFeeBps === null ? null : Number(funds.protocolFeeBps),
    assets: funds.assets.map((a) => {
      const d = decimalsOf(network, a.asset)
      const pps = a.total === null ? null : pricePerShare(a.total, funds.totalSupply, d)
      return {
        asset: a.asset,
        idle: formatUnits(a.idle, d),
        invested: fmt(a.invested, d),
        total_managed_funds: fmt(a.total, d),
        price_per_share: fmt(pps, PRICE_DECIMALS),
        strategies: a.strategies.map((s) => ({
          address: s.address,
          name: s.name,
          paused: s.paused,
          pool: s.pool,
          shares: formatUnits(s.shares, d),
          b_rate: fmt(s.bRate, 12),
          b_rate_ledger: s.bRateLedger,
          balance: fmt(s.balance, d),
          locked_fee: fmt(s.lockedFee, d),
          invested: fmt(s.invested, d),
        })),
      }
    }),
    rate_ledger: funds.stateLedger,
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
  const { object, partial, asOfLedger } = await renderVault(deps, network, pool, query.ledger)
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
    const r = await renderVault(deps, network, vault, query.ledger)
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

export { vaultsOf }
