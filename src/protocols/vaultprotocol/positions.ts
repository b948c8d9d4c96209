import type { NetworkConfig } from '../../chain/network.ts'
import { divHalfEven, formatUnits, pow10 } from '../../positions/amounts.ts'
import { historyComplete } from '../../positions/coverage.ts'
import { judgePrice, type Priced, toUsd, USD_DECIMALS } from '../../positions/valuation.ts'
import type { PositionsDeps, PositionsQuery } from '../protocol-module.ts'
import { type StoredVault, VAULT_PROTOCOL } from './stored-vault.ts'

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

export interface AssetObject {
  decimals: number
  price_source: string | null
  price_usd: string | null
  symbol: string
  tags: string[]
}

export interface ContractObject {
  name: string
  position_types: string[]
  protocol: string
  status: string
  version: string
}

export interface VaultPositionsResponse {
  data: { address: string; vaults: VaultObject[] }
  enrichment: { assets: Record<string, AssetObject>; contracts: Record<string, ContractObject> }
  meta: {
    requested_ledger: number | bigint | null
    as_of_ledger: number | null
    attribution_confidence: number
    data_staleness_seconds: number | null
    last_indexed_ledger: number | null
    indexed_from_ledger: number | null
    oracle_staleness_seconds: number
    partial_result: boolean
    response_time_ms: number
    sources: string[]
  }
}

/**
 * Answers "which vaults did this address hold at ledger P": the latest snapshot at or before P,
 * never interpolated, never carried forward, absent as empty.
 */
export async function getVaultPositions(
  deps: PositionsDeps,
  query: PositionsQuery,
): Promise<VaultPositionsResponse> {
  const { reader, network } = deps
  const head = await reader.head()
  const last = head.lastIndexedLedger
  const meta: VaultPositionsResponse['meta'] = {
    requested_ledger: query.pin,
    as_of_ledger: null,
    attribution_confidence: 1,
    data_staleness_seconds: head.lastCloseTime === null ? null : Math.max(0, deps.nowS - head.lastCloseTime),
    last_indexed_ledger: last,
    indexed_from_ledger: head.firstIndexedLedger,
    oracle_staleness_seconds: 0,
    // Ledgers above the checkpoint are unknown, not empty: say so.
    partial_result: last === null || (query.pin !== null && BigInt(query.pin) > BigInt(last)),
    response_time_ms: 0,
    sources: network ? [`ledgers:${network.name}`] : [],
  }
  const response: VaultPositionsResponse = {
    data: { address: query.address, vaults: [] },
    enrichment: { assets: {}, contracts: {} },
    meta,
  }
  if (last === null || network === null) return response

  const effective = query.pin === null || BigInt(query.pin) > BigInt(last) ? last : Number(query.pin)
  // Ledgers of the contract's history before the store's first one were never read: say so.
  if (!historyComplete(network.contracts.vaultprotocol, head.firstIndexedLedger, effective)) {
    meta.partial_result = true
  }
  const snapshot = await reader.snapshotAt(VAULT_PROTOCOL, query.address, effective)
  if (!snapshot) return response
  meta.as_of_ledger = snapshot.ledger
  const stored = JSON.parse(snapshot.positions) as StoredVault[]
  if (stored.length === 0) return response

  // Snapshot amounts are valued at the snapshot's own ledger; the /at surface at the pin.
  const valuationLedger = query.atPin ? effective : snapshot.ledger
  const closeTime = query.atPin ? await reader.closeTime(valuationLedger) : snapshot.close_time
  const prices = new Map<string, Promise<Priced>>()
  /** The USD price of an asset of the network description, through the feed it names. */
  const priceOf = (asset: string | null): Promise<Priced> => {
    if (asset === null) return Promise.resolve(ONE_USD)
    let priced = prices.get(asset)
    if (!priced) {
      const feed = network.assets[asset]?.price_feed ?? null
      priced = feed
        ? reader
            .priceAt(feed.oracle, feed.asset, valuationLedger)
            .then((row) => judgePrice(row, feed.oracle, closeTime, deps.maxPriceAgeS))
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
    if (query.atPin) object.rate_ledger = null
    response.data.vaults.push(object)
    addAsset(response, network, collateralAsset, collateralPrice)
    if (denomination) addAsset(response, network, denomination.debt_asset, debtPrice)
  }
  response.enrichment.contracts[vaultContract.address] = {
    name: vaultContract.name,
    position_types: vaultContract.position_types,
    protocol: vaultContract.protocol,
    status: vaultContract.status,
    version: vaultContract.version,
  }

  const used = await Promise.all(prices.values())
  const timestamps = used.flatMap((p) => (p.row ? [Math.floor(p.row.timestamp_ms / 1000)] : []))
  for (const feed of new Set(used.flatMap((p) => (p.row && p.feed ? [p.feed] : [])))) {
    meta.sources.push(`oracle:${feed}`)
  }
  if (timestamps.length > 0 && closeTime !== null) {
    meta.oracle_staleness_seconds = Math.max(0, closeTime - Math.min(...timestamps))
  }
  return response
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

function addAsset(
  response: VaultPositionsResponse,
  network: NetworkConfig,
  asset: string,
  priced: Priced,
): void {
  if (response.enrichment.assets[asset]) return
  const info = network.assets[asset]
  response.enrichment.assets[asset] = {
    decimals: info?.decimals ?? 7,
    price_source: priced.row ? priced.feed : null,
    price_usd: priced.problem === 'price_missing' ? null : formatUnits(priced.price, priced.decimals),
    symbol: info?.symbol ?? asset,
    tags: info?.tags ?? [],
  }
}
