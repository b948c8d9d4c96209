import type { NetworkConfig } from '../../chain/network.ts'
import { divHalfEven, formatUnits, pow10 } from '../kit/amounts.ts'
import type { Enrichment, PositionsDeps, Rendered, SnapshotRow, Valuation } from '../kit/protocol-module.ts'
import {
  addPricedAsset,
  createPriceLookup,
  describePrices,
  type Priced,
  toUsd,
  USD_DECIMALS,
} from '../kit/valuation.ts'
import type { StoredVault } from './stored-vault.ts'

/** Ratios are reported with 4 decimals. */
const RATIO_DECIMALS = 4

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
 * the pin on `/at`). The debt is priced as its stablecoin is in every answer: through the source
 * the network description names for the debt token (EURx the EUR feed, USDx its declared USD peg).
 */
export async function renderVaultSnapshot(
  deps: PositionsDeps,
  network: NetworkConfig,
  address: string,
  snapshot: SnapshotRow,
  valuation: Valuation,
): Promise<Rendered> {
  const data: { address: string; vaults: VaultObject[] } = { address, vaults: [] }
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const rendered: Rendered = { data, enrichment, oracleStalenessS: 0, sources: [], partial: false }
  const stored = JSON.parse(snapshot.positions) as StoredVault[]
  if (stored.length === 0) return rendered

  const closeTime = valuation.closeTime
  const prices = createPriceLookup(deps.reader, network, valuation.ledger, closeTime, deps.maxPriceAgeS)

  const vaultContract = network.contracts.vaultprotocol
  const collateralAsset = network.vaultprotocol.collateral_asset
  for (const vault of stored) {
    const denomination = network.vaultprotocol.denominations[vault.denomination]
    const collateral = BigInt(vault.total_collateral)
    const debt = BigInt(vault.total_debt)
    const collateralDecimals = decimalsOf(network, collateralAsset)
    const debtDecimals = decimalsOf(network, denomination?.debt_asset)
    const collateralPrice = await prices.priceOf(collateralAsset)
    const debtPrice: Priced | null = denomination ? await prices.priceOf(denomination.debt_asset) : null
    const problem = debtPrice ? (collateralPrice.problem ?? debtPrice.problem) : 'price_missing'
    const collateralUsd = problem ? null : toUsd(collateral, collateralDecimals, collateralPrice)
    const debtUsd = problem || !debtPrice ? null : toUsd(debt, debtDecimals, debtPrice)
    const object: VaultObject = {
      collateral: formatUnits(collateral, collateralDecimals),
      collateral_usd: collateralUsd === null ? null : formatUnits(collateralUsd, USD_DECIMALS),
      collateralization_ratio:
        problem || !debtPrice || debt === 0n
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
    if (denomination && debtPrice) addPricedAsset(enrichment, network, denomination.debt_asset, debtPrice)
  }
  enrichment.contracts[vaultContract.address] = {
    name: vaultContract.name,
    position_types: vaultContract.position_types,
    protocol: vaultContract.protocol,
    status: vaultContract.status,
    version: vaultContract.version,
  }

  const { stalenessS, sources } = describePrices(await prices.used(), closeTime)
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
