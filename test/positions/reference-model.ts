import { Address, scValToNative, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/devnet/devnet.ts'

/**
 * A second, deliberately plain reading of the devnet's ledgers, straight from their XDR with the
 * SDK's classes, that computes what the positions endpoint must answer. It shares no code with the
 * indexer or the API, and follows the real contracts' layouts (FxDAO vaults 0.6.0, Reflector v2/v3):
 * - a position is a persistent `Vault((account, denomination))` entry: plain debt, no rate;
 * - `next_key` is list bookkeeping, a restored entry is the same entry: neither changes a position;
 * - prices are Reflector v3 `update` events (`Map{update_data}`) or v2 temporary `U128` records named
 *   through the instance storage's `assets`, with the feed's own `decimals`.
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

export interface RefPrice {
  ledger: number
  price: bigint
  decimals: number
  tsMs: number
}

/** A successful invocation of the vault contract, with what its entries did. */
export interface RefInvocation {
  ledger: number
  fn: string
  /** Accounts whose Vault entry the transaction wrote (created, updated or removed). */
  written: Set<string>
  /** Accounts whose Vault entry it rewrote with only `next_key` changed. */
  relinked: Set<string>
  /** Accounts whose Vault entry it restored from the archive. */
  restored: Set<string>
  removed: Set<string>
  created: Set<string>
}

export interface ReferenceModel {
  first: number
  last: number
  snapshots: Map<string, RefSnapshot[]>
  /** By `oracle|asset`, in ledger order. */
  prices: Map<string, RefPrice[]>
  /** Where each price came from: v2 storage or v3 events, by ledger. */
  priceForms: Map<number, 'v2' | 'v3'>
  closeTimes: Map<number, number>
  invocations: RefInvocation[]
  /** Ledgers whose LedgerCloseMeta lists evicted keys of the vault contract. */
  evictions: number[]
  metaVersions: Set<number>
}

type Entry = { contract: string; durability: string; key: xdr.ScVal; val: xdr.ScVal | null }

function entryOf(change: xdr.LedgerEntryChange): { kind: string; entry: Entry } | null {
  if (change.type === 'ledgerEntryRemoved') {
    const key = change.removed
    if (key.type !== 'contractData') return null
    const data = key.contractData
    return {
      kind: 'removed',
      entry: {
        contract: Address.fromScAddress(data.contract).toString(),
        durability: data.durability.name,
        key: data.key,
        val: null,
      },
    }
  }
  const ledgerEntry =
    change.type === 'ledgerEntryCreated'
      ? change.created
      : change.type === 'ledgerEntryUpdated'
        ? change.updated
        : change.type === 'ledgerEntryRestored'
          ? change.restored
          : change.type === 'ledgerEntryState'
            ? change.state
            : null
  if (ledgerEntry?.data.type !== 'contractData') return null
  const data = ledgerEntry.data.contractData
  return {
    kind: change.type.replace('ledgerEntry', '').toLowerCase(),
    entry: {
      contract: Address.fromScAddress(data.contract).toString(),
      durability: data.durability.name,
      key: data.key,
      val: data.val,
    },
  }
}

function vaultOwner(key: xdr.ScVal): [string, string] | null {
  const native = scValToNative(key) as unknown
  if (!Array.isArray(native) || native[0] !== 'Vault') return null
  const inner = native[1] as [string, string]
  return [inner[0], inner[1]]
}

/** The contract function a transaction invoked, read from its envelope. */
function invocationName(envelope: xdr.TransactionEnvelope): string {
  const wire = envelope.toXdrObject()
  if (wire.type !== 2) return ''
  const body = wire.v1.tx.operations[0]?.body
  if (body?.type !== 24 || body.invokeHostFunctionOp.hostFunction.type !== 0) return ''
  return body.invokeHostFunctionOp.hostFunction.invokeContract.functionName.toString()
}

export function buildReferenceModel(chain: DevnetChain): ReferenceModel {
  const vaultContract = chain.network.contracts.vaultprotocol.address
  const oracles = new Set(chain.network.contracts.oracles.map((o) => o.address))
  const oracleSettings = new Map<string, { assets: string[]; decimals: number }>()
  const current = new Map<string, Map<string, RefVault>>()
  const model: ReferenceModel = {
    first: chain.oldestLedger(),
    last: chain.latestLedger(),
    snapshots: new Map(),
    prices: new Map(),
    priceForms: new Map(),
    closeTimes: new Map(),
    invocations: [],
    evictions: [],
    metaVersions: new Set(),
  }
  const addPrice = (key: string, row: RefPrice) => {
    const list = model.prices.get(key) ?? []
    if (list.at(-1)?.ledger === row.ledger) list.pop()
    list.push(row)
    model.prices.set(key, list)
  }

  for (let sequence = model.first; sequence <= model.last; sequence++) {
    const lcm = xdr.LedgerCloseMeta.fromXDR(chain.ledgerMetaXdr(sequence))
    if (lcm.type === 'v0') throw new Error('a v0 ledger')
    model.metaVersions.add(lcm.type === 'v2' ? 2 : 1)
    const body = lcm.type === 'v2' ? lcm.v2 : lcm.v1
    model.closeTimes.set(sequence, Number(body.ledgerHeader.header.scpValue.closeTime))
    if (lcm.type === 'v2') {
      const evicted = lcm.v2.evictedKeys.some(
        (k) =>
          k.type === 'contractData' &&
          Address.fromScAddress(k.contractData.contract).toString() === vaultContract,
      )
      if (evicted) model.evictions.push(sequence)
    }
    // Function names by transaction hash, from the envelopes of the transaction set.
    const names = new Map<string, string>()
    if (body.txSet.type !== 'v1TxSet') throw new Error('a classic transaction set')
    for (const phase of body.txSet.v1TxSet.phases) {
      if (phase.type !== 'v0Components') continue
      for (const component of phase.v0Components) {
        for (const envelope of component.txsMaybeDiscountedFee.txs) {
          const tx = TransactionBuilder.fromXDR(
            Buffer.from(envelope.toXdr()).toString('base64'),
            chain.passphrase,
          )
          names.set(Buffer.from(tx.hash()).toString('hex'), invocationName(envelope))
        }
      }
    }

    const before = new Map<string, string>()
    const touched = new Set<string>()
    for (const result of body.txProcessing) {
      const code = result.result.result.result.type
      if (code !== 'txSuccess' && code !== 'txFeeBumpInnerSuccess') continue
      const hash = result.result.transactionHash.toXdr('hex')
      const meta = result.txApplyProcessing
      if (meta.type !== 'v3' && meta.type !== 'v4') continue
      const ops = meta.type === 'v4' ? meta.v4.operations : meta.v3.operations
      const events =
        meta.type === 'v4'
          ? meta.v4.operations.flatMap((op) => op.events)
          : (meta.v3.sorobanMeta?.events ?? [])
      const invocation: RefInvocation = {
        ledger: sequence,
        fn: names.get(hash) ?? '',
        written: new Set(),
        relinked: new Set(),
        restored: new Set(),
        removed: new Set(),
        created: new Set(),
      }
      const preImages = new Map<string, xdr.ScVal>()
      const txOracleV2: { oracle: string; key: bigint; price: bigint }[] = []
      for (const op of ops) {
        for (const change of op.changes) {
          const read = entryOf(change)
          if (!read) continue
          const { kind, entry } = read
          if (oracles.has(entry.contract)) {
            if (
              entry.key.type === 'scvLedgerKeyContractInstance' &&
              entry.val?.type === 'scvContractInstance' &&
              kind !== 'state'
            ) {
              const settings = { assets: [] as string[], decimals: 0 }
              for (const item of entry.val.instance.storage ?? []) {
                const k = scValToNative(item.key)
                if (k === 'assets')
                  settings.assets = (scValToNative(item.val) as [string, string][]).map((a) => a[1])
                if (k === 'decimals') settings.decimals = scValToNative(item.val) as number
              }
              oracleSettings.set(entry.contract, { ...oracleSettings.get(entry.contract), ...settings })
            } else if (
              entry.durability === 'temporary' &&
              entry.key.type === 'scvU128' &&
              entry.val &&
              (kind === 'created' || kind === 'updated')
            ) {
              txOracleV2.push({
                oracle: entry.contract,
                key: scValToNative(entry.key) as bigint,
                price: scValToNative(entry.val) as bigint,
              })
            }
            continue
          }
          if (entry.contract !== vaultContract || entry.durability !== 'persistent') continue
          const owner = vaultOwner(entry.key)
          if (!owner) continue
          const [account, denomination] = owner
          const id = `${account}|${denomination}`
          if (kind === 'state') {
            if (entry.val) preImages.set(id, entry.val)
            continue
          }
          if (kind === 'restored') {
            invocation.restored.add(account)
            continue
          }
          const vaults = current.get(account) ?? new Map<string, RefVault>()
          if (!before.has(account)) before.set(account, fingerprint(vaults))
          touched.add(account)
          invocation.written.add(account)
          if (kind === 'removed') {
            invocation.removed.add(account)
            vaults.delete(denomination)
          } else {
            if (kind === 'created') invocation.created.add(account)
            const v = scValToNative(entry.val!) as {
              total_collateral: bigint
              total_debt: bigint
              index: bigint
              next_key: unknown
            }
            const previous = vaults.get(denomination)
            const same =
              previous !== undefined &&
              previous.totalCollateral === v.total_collateral &&
              previous.totalDebt === v.total_debt &&
              previous.index === v.index
            const pre = preImages.get(id)
            if (same && pre && JSON.stringify(scValToNative(pre), jsonBig) !== JSON.stringify(v, jsonBig)) {
              invocation.relinked.add(account)
            }
            if (!same) {
              vaults.set(denomination, {
                totalCollateral: v.total_collateral,
                totalDebt: v.total_debt,
                index: v.index,
                changedAt: sequence,
              })
            }
          }
          current.set(account, vaults)
        }
      }
      for (const { oracle, key, price } of txOracleV2) {
        const settings = oracleSettings.get(oracle)
        const asset = settings?.assets[Number(key & ((1n << 64n) - 1n))]
        if (!settings || asset === undefined) throw new Error(`v2 price without an asset list at ${sequence}`)
        addPrice(`${oracle}|${asset}`, {
          ledger: sequence,
          price,
          decimals: settings.decimals,
          tsMs: Number(key >> 64n),
        })
        model.priceForms.set(sequence, 'v2')
      }
      for (const event of events) {
        const wire = event.toXdrObject()
        if (!wire.contractId) continue
        const contract = Address.contract(Buffer.from(wire.contractId)).toString()
        if (!oracles.has(contract)) continue
        const topics = wire.body.v0.topics.map((t) => scValToNative(xdr.ScVal.fromXdrObject(t)))
        if (topics[0] !== 'REFLECTOR' || topics[1] !== 'update') continue
        const data = scValToNative(xdr.ScVal.fromXdrObject(wire.body.v0.data)) as {
          update_data: [string, bigint][]
        }
        const decimals = oracleSettings.get(contract)?.decimals
        if (decimals === undefined) throw new Error(`v3 price before the feed's decimals at ${sequence}`)
        for (const [asset, price] of data.update_data) {
          addPrice(`${contract}|${asset}`, { ledger: sequence, price, decimals, tsMs: Number(topics[2]) })
        }
        model.priceForms.set(sequence, 'v3')
      }
      if (invocation.fn !== '' && (invocation.written.size > 0 || invocation.restored.size > 0)) {
        model.invocations.push(invocation)
      }
    }
    for (const account of touched) {
      const vaults = current.get(account) ?? new Map()
      if (fingerprint(vaults) === before.get(account)) continue
      const list = model.snapshots.get(account) ?? []
      list.push({ ledger: sequence, vaults: new Map([...vaults].map(([d, v]) => [d, { ...v }])) })
      model.snapshots.set(account, list)
    }
  }
  return model
}

const jsonBig = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)

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

/** The snapshot of an account in force at `ledger`. */
export function snapshotAt(model: ReferenceModel, account: string, ledger: number): RefSnapshot | undefined {
  return latestAtOrBefore(model.snapshots.get(account), ledger)
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
  rate_ledger?: null
}

/** The price row the network description names for an asset (null: declared pegged to USD, exactly one). */
export function priceOf(model: ReferenceModel, chain: DevnetChain, asset: string | null, ledger: number) {
  if (asset === null || chain.network.assets[asset]?.price_peg === 'USD') return null
  const feed = chain.network.assets[asset]?.price_feed
  if (!feed) return undefined
  return latestAtOrBefore(model.prices.get(`${feed.oracle}|${feed.asset}`), ledger)
}

/**
 * The oldest timestamp (epoch seconds) of the prices a vault snapshot is valued with at a ledger
 * (each vault's collateral and debt token price; a USD peg needs none); null when none is used.
 * `oracle_staleness_seconds` is the close time of the ledger asked about minus this.
 */
export function oldestVaultPriceS(
  model: ReferenceModel,
  chain: DevnetChain,
  snapshot: RefSnapshot,
  valuationLedger: number,
): number | null {
  const xlm = chain.network.vaultprotocol.collateral_asset
  let oldest: number | null = null
  for (const denomination of snapshot.vaults.keys()) {
    // The debt token is priced through its own entry (a forex feed, or a USD peg that has no time).
    const debtAsset = chain.network.vaultprotocol.denominations[denomination]?.debt_asset ?? null
    for (const asset of [xlm, debtAsset]) {
      const row = priceOf(model, chain, asset, valuationLedger)
      if (!row) continue
      const s = Math.floor(row.tsMs / 1000)
      if (oldest === null || s < oldest) oldest = s
    }
  }
  return oldest
}

/** What the endpoint must say for one vault, valued with prices at `valuationLedger`. */
export function expectVault(
  model: ReferenceModel,
  chain: DevnetChain,
  denomination: string,
  vault: RefVault,
  options: { valuationLedger: number; maxPriceAgeS: number; at: boolean },
): ExpectedVault {
  const xlm = chain.network.vaultprotocol.collateral_asset
  // The debt is worth what its stablecoin is worth, priced as the description says for that token.
  const priceAsset = chain.network.vaultprotocol.denominations[denomination]?.debt_asset ?? null
  const closeTime = model.closeTimes.get(options.valuationLedger)!
  // Collateral and debt both carry 7 decimals; a price of d decimals scales USD by 10^d.
  const judge = (asset: string | null) => {
    const row = priceOf(model, chain, asset, options.valuationLedger)
    if (row === null) return { price: 1n, decimals: 0, problem: null }
    if (!row) return { price: 0n, decimals: 0, problem: 'price_missing' }
    return {
      price: row.price,
      decimals: row.decimals,
      problem: closeTime - Math.floor(row.tsMs / 1000) > options.maxPriceAgeS ? 'price_stale' : null,
    }
  }
  const c = judge(xlm)
  const d = judge(priceAsset)
  const problem = c.problem ?? d.problem
  const debt = vault.totalDebt
  const cUsd = problem ? null : roundHalfEven(vault.totalCollateral * c.price, 10n ** BigInt(c.decimals))
  const dUsd = problem ? null : roundHalfEven(debt * d.price, 10n ** BigInt(d.decimals))
  const expected: ExpectedVault = {
    collateral: decimal(vault.totalCollateral, 7),
    collateral_usd: cUsd === null ? null : decimal(cUsd, 7),
    collateralization_ratio:
      problem || debt === 0n
        ? null
        : decimal(
            roundHalfEven(
              vault.totalCollateral * c.price * 10_000n * 10n ** BigInt(d.decimals),
              debt * d.price * 10n ** BigInt(c.decimals),
            ),
            4,
          ),
    debt: decimal(debt, 7),
    debt_usd: dUsd === null ? null : decimal(dUsd, 7),
    denomination,
    ledger: vault.changedAt,
    net_usd: cUsd === null || dUsd === null ? null : decimal(cUsd - dUsd, 7),
    usd_unavailable_reason: problem,
    vault_index: vault.index.toString(),
  }
  if (options.at) expected.rate_ledger = null
  return expected
}
