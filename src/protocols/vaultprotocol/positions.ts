import type { NetworkConfig } from '../../chain/network.ts'
import { divHalfEven, formatUnits, pow10 } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, SnapshotRow, Valuation } from '../kit/protocol-module.ts'
import {
  addPricedAsset,
  describePrices,
  judgePrice,
  type Priced,
  toUsd,
  USD_DECIMALS,
} from '../kit/valuation.ts'
import type { StoredVault } from './stored-vault.ts'

/** Ratios are reported with 4 decimals. */
const RATIO_DECIMALS = 4
/** USD is exactly one dollar: the one denomination priced without an oracle. */
const ONE_USD: Priced = { price: 1n, decimals: 0, row: null, feed: null, problem: null }

export interface VaultObject {
  collateral: string
  collateral_usd: string | null
  collateralization_ratio: string | null
  contract_address: string
  debt: string
  debt_usd: string | null
  denomination: string
  ledger: number
  net_usd: string | null
  usd_unavailable_reason: 'price_missing' | 'price_stale' | null
  vault_index: string
  /** Only on the `/at` surface: always null, FxDAO debt is stored plainly and does not accrue. */
  rate_ledger?: null
}

/**
 * Values one snapshot of an account's vaults: amounts as FxDAO stores them (plain debt, nothing to
 * accrue), USD with the prices at the valuation ledger (the snapshot's own on the snapshot surface,
 * the pin on `/at`).
 */
export async function renderVaultSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
): Promise<Rendered> {
  const { reader } = deps
  const data: { address: string; vaults: VaultObject[] } = { address, vaults: [] }
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const rendered: Rendered = { data, enrichment, oracleStalenessS: 0, sources: [], partial: false }
  const stored = JSON.parse(snapshot.positions) as StoredVault[]
  if (stored.length === 0) return rendered

  const valuationLedger = valuation.ledger
  const closeTime = valuation.closeTime
  const prices = new Map<string, Promise<Priced>>()
  /** The USD price of an asset of the network description, through the feed it names. */
  const priceOf = (asset: string | null): Promise<Priced> => {
    if (asset === null) return Promise.resolve(ONE_USD)
    let priced = prices.get(asset)
    if (!priced) {
      const feed = network.assets[asset]?.price_feed ?? null
      priced = feed
        ? Promise.resolve(reader.priceAt(feed.oracle, feed.asset, valuationLedger)).then((row) =>
            judgePrice(row, feed.oracle, closeTime, deps.maxPriceAgeS),
          )
        : Promise.resolve({ price: 0n, decimals: 0, row: null, feed: null, problem: 'price_missing' })
      prices.set(asset, priced)
    }
    return priced
  }

  const vaultContract = network.contracts.vaultprotocol
  const collateralAsset = network.vaultprotocol.collateral_asset
  for (const vault of stored) {
    const denomination = network.vaultprotocol.denominations[vault.denomination]
    const collateral = BigInt(vault.total_collateral)
    const debt = BigInt(vault.total_debt)
    const collateralDecimals = decimalsOf(network, collateralAsset)
    const debtDecimals = decimalsOf(network, denomination?.debt_asset)
    const collateralPrice = await priceOf(collateralAsset)
    const debtPrice = await priceOf(denomination?.price_asset ?? null)
    const problem = denomination ? (collateralPrice.problem ?? debtPrice.problem) : 'price_missing'
    const collateralUsd = problem ? null : toUsd(collateral, collateralDecimals, collateralPrice)
    const debtUsd = problem ? null : toUsd(debt, debtDecimals, debtPrice)
    const object: VaultObject = {
      collateral: formatUnits(collateral, collateralDecimals),
      collateral_usd: collateralUsd === null ? null : formatUnits(collateralUsd, USD_DECIMALS),
      collateralization_ratio:
        problem || debt === 0n
          ? null
          : formatUnits(
              ratio(collateral, collateralDecimals, collateralPrice, debt, debtDecimals, debtPrice),
              RATIO_DECIMALS,
            ),
      contract_address: vaultContract.address,
      debt: formatUnits(debt, debtDecimals),
      debt_usd: debtUsd === null ? null : formatUnits(debtUsd, USD_DECIMALS),
      denomination: vault.denomination,
      ledger: vault.ledger,
      net_usd:
        collateralUsd === null || debtUsd === null
          ? null
          : formatUnits(collateralUsd - debtUsd, USD_DECIMALS),
      usd_unavailable_reason: problem,
      vault_index: vault.index,
    }
    if (valuation.atPin) object.rate_ledger = null
    data.vaults.push(object)
    addPricedAsset(enrichment, network, collateralAsset, collateralPrice)
    if (denomination) addPricedAsset(enrichment, network, denomination.debt_asset, debtPrice)
  }
  enrichment.contracts[vaultContract.address] = {
    name: vaultContract.name,
    position_types: vaultContract.position_types,
    protocol: vaultContract.protocol,
    status: vaultContract.status,
    version: vaultContract.version,
  }

  const { stalenessS, sources } = describePrices(await Promise.all(prices.values()), closeTime)
  rendered.oracleStalenessS = stalenessS
  rendered.sources = sources
  return rendered
}

/** (collateral value) / (debt value) with RATIO_DECIMALS decimals, from unrounded values, half-even. */
function ratio(
  collateral: bigint,
  collateralDecimals: number,
  collateralPrice: Priced,
  debt: bigint,
  debtDecimals: number,
  debtPrice: Priced,
): bigint {
  // c·pc / 10^(dc+ppc) ÷ d·pd / 10^(dd+ppd) = c·pc·10^(dd+ppd) / (d·pd·10^(dc+ppc))
  const numerator =
    collateral * collateralPrice.price * pow10(RATIO_DECIMALS + debtDecimals + debtPrice.decimals)
  const denominator = debt * debtPrice.price * pow10(collateralDecimals + collateralPrice.decimals)
  return divHalfEven(numerator, denominator)
}

function decimalsOf(network: NetworkConfig, asset: string | undefined): number {
  if (asset === undefined) return 7
  return network.assets[asset]?.decimals ?? 7
}
