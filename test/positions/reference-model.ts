import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/chain/devnet/index.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'

/**
 * A second, deliberately plain reading of the devnet's ledgers, straight from their XDR, that
 * computes what the positions endpoint must answer. It shares no code with the indexer or the API.
 */
export interface RefVault {
  totalCollateral: bigint
  totalDebt: bigint
  index: bigint
  /** Ledger at which this vault's values last changed. */
  changedAt: number
}

export interface RefSnapshot {
  ledger: number
  vaults: Map<string, RefVault>
}

export interface ReferenceModel {
  first: number
  last: number
  snapshots: Map<string, RefSnapshot[]>
  rates: Map<string, Array<{ ledger: number; rate: bigint }>>
  prices: Map<string, Array<{ ledger: number; price: bigint; tsMs: number }>>
  closeTimes: Map<number, number>
}

export function buildReferenceModel(chain: DevnetChain): ReferenceModel {
  const vaultContract = chain.network.contracts.vaultprotocol.address
  const oracle = chain.network.contracts.oracle.address
  const current = new Map<string, Map<string, RefVault>>()
  const model: ReferenceModel = {
    first: chain.oldestLedger(),
    last: chain.latestLedger(),
    snapshots: new Map(),
    rates: new Map(),
    prices: new Map(),
    closeTimes: new Map(),
  }
  for (const ledger of decodeLedgers(chain)) {
    model.closeTimes.set(ledger.sequence, ledger.closeTime)
    const before = new Map<string, string>()
    const touched = new Set<string>()
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      for (const change of tx.changes) {
        if (change.contract !== vaultContract || change.kind === 'state') continue
        const key = change.key as [string, unknown]
        if (key[0] === 'VaultsInfo') {
          const denomination = String(key[1])
          const rate = BigInt((change.val as { debt_rate: bigint }).debt_rate)
          const list = model.rates.get(denomination) ?? []
          if (list.at(-1)?.rate !== rate) {
            if (list.at(-1)?.ledger === ledger.sequence) list.pop()
            list.push({ ledger: ledger.sequence, rate })
          }
          model.rates.set(denomination, list)
          continue
        }
        if (key[0] !== 'Vault') continue
        const [account, denomination] = key[1] as [string, string]
        const vaults = current.get(account) ?? new Map<string, RefVault>()
        if (!before.has(account)) before.set(account, fingerprint(vaults))
        touched.add(account)
        if (change.kind === 'removed') vaults.delete(denomination)
        else {
          const v = change.val as { total_collateral: bigint; total_debt: bigint; index: bigint }
          const previous = vaults.get(denomination)
          const same =
            previous &&
            previous.totalCollateral === BigInt(v.total_collateral) &&
            previous.totalDebt === BigInt(v.total_debt) &&
            previous.index === BigInt(v.index)
          if (!same) {
            vaults.set(denomination, {
              totalCollateral: BigInt(v.total_collateral),
              totalDebt: BigInt(v.total_debt),
              index: BigInt(v.index),
              changedAt: ledger.sequence,
            })
          }
        }
        current.set(account, vaults)
      }
      for (const event of tx.events) {
        if (event.contractId !== oracle) continue
        const topics = event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64')))
        if (topics[0] !== 'REFLECTOR' || topics[1] !== 'update') continue
        const tsMs = Number(topics[2])
        const updates = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64')) as Array<[string, bigint]>
        for (const [asset, price] of updates) {
          const list = model.prices.get(asset) ?? []
          list.push({ ledger: ledger.sequence, price: BigInt(price), tsMs })
          model.prices.set(asset, list)
        }
      }
    }
    for (const account of touched) {
      const vaults = current.get(account) ?? new Map()
      if (fingerprint(vaults) === before.get(account)) continue
      const list = model.snapshots.get(account) ?? []
      list.push({ ledger: ledger.sequence, vaults: new Map([...vaults].map(([d, v]) => [d, { ...v }])) })
      model.snapshots.set(account, list)
    }
  }
  return model
}

function fingerprint(vaults: Map<string, RefVault>): string {
  return [...vaults]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([d, v]) => `${d}:${v.totalCollateral}:${v.totalDebt}:${v.index}`)
    .join('|')
}

/** The latest entry at or before `ledger` of a list sorted by ledger. */
export function latestAtOrBefore<T extends { ledger: number }>(
  list: readonly T[] | undefined,
  ledger: number,
): T | undefined {
  let found: T | undefined
  for (const item of list ?? []) {
    if (item.ledger > ledger) break
    found = item
  }
  return found
}

/** Decimal text of a scaled integer, written independently of the API's formatter. */
export function decimal(value: bigint, decimals: number): string {
  const sign = value < 0n ? '-' : ''
  const abs = value < 0n ? -value : value
  const scale = 10n ** BigInt(decimals)
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(decimals, '0')}`
}

/** Half-even rounding of a / b for b > 0, via the remainder compared with half of b. */
export function roundHalfEven(a: bigint, b: bigint): bigint {
  const q = a >= 0n ? a / b : -((-a + b - 1n) / b)
  const r = a - q * b
  if (2n * r > b) return q + 1n
  if (2n * r === b) return q % 2n === 0n ? q : q + 1n
  return q
}

export interface ExpectedVault {
  collateral: string
  collateral_usd: string | null
  collateralization_ratio: string | null
  debt: string
  debt_usd: string | null
  denomination: string
  ledger: number
  net_usd: string | null
  usd_unavailable_reason: string | null
  vault_index: string
  rate_ledger?: number
}

/** What the endpoint must say for one vault, valued with prices at `valuationLedger`. */
export function expectVault(
  model: ReferenceModel,
  chain: DevnetChain,
  denomination: string,
  vault: RefVault,
  options: { valuationLedger: number; rateLedger: number; maxPriceAgeS: number; accrue: boolean },
): ExpectedVault {
  const rateRow = latestAtOrBefore(model.rates.get(denomination), options.rateLedger)
  const rate = rateRow?.rate ?? 10n ** 12n
  const product = vault.totalDebt * rate
  const debt = product / 10n ** 12n + (product % 10n ** 12n === 0n ? 0n : 1n)
  const xlm = chain.network.vaultprotocol.collateral_asset
  const priceAsset = chain.network.vaultprotocol.denominations[denomination]?.price_asset ?? null
  const closeTime = model.closeTimes.get(options.valuationLedger)!
  const judge = (asset: string | null) => {
    if (asset === null) return { price: 10n ** 14n, problem: null }
    const row = latestAtOrBefore(model.prices.get(asset), options.valuationLedger)
    if (!row) return { price: 0n, problem: 'price_missing' }
    return {
      price: row.price,
      problem: closeTime - Math.floor(row.tsMs / 1000) > options.maxPriceAgeS ? 'price_stale' : null,
    }
  }
  const c = judge(xlm)
  const d = judge(priceAsset)
  const problem = c.problem ?? d.problem
  const cUsd = problem ? null : roundHalfEven(vault.totalCollateral * c.price, 10n ** 14n)
  const dUsd = problem ? null : roundHalfEven(debt * d.price, 10n ** 14n)
  const expected: ExpectedVault = {
    collateral: decimal(vault.totalCollateral, 7),
    collateral_usd: cUsd === null ? null : decimal(cUsd, 7),
    collateralization_ratio:
      problem || debt === 0n
        ? null
        : decimal(roundHalfEven(vault.totalCollateral * c.price * 10_000n, debt * d.price), 4),
    debt: decimal(debt, 7),
    debt_usd: dUsd === null ? null : decimal(dUsd, 7),
    denomination,
    ledger: vault.changedAt,
    net_usd: cUsd === null || dUsd === null ? null : decimal(cUsd - dUsd, 7),
    usd_unavailable_reason: problem,
    vault_index: vault.index.toString(),
  }
  if (options.accrue) expected.rate_ledger = rateRow?.ledger ?? vault.changedAt
  return expected
}
