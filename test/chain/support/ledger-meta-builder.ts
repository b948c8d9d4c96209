import { createHash } from 'node:crypto'
import { Address, nativeToScVal, xdr } from '@stellar/stellar-sdk'

/**
 * Builds genuine LedgerCloseMeta XDR with the SDK's own types, so decoding tests never depend on
 * the code under test (nor on the devnet) to produce their input.
 */

export type Durability = 'persistent' | 'temporary'

export type ChangeSpec =
  | {
      kind: 'created' | 'updated' | 'restored' | 'state'
      contract: string
      key: xdr.ScVal
      val: xdr.ScVal
      durability?: Durability
    }
  | { kind: 'removed'; contract: string; key: xdr.ScVal; durability?: Durability }

export interface EventSpec {
  contract: string
  topics: xdr.ScVal[]
  data: xdr.ScVal
}

export interface TxSpec {
  /** Seed of the transaction hash (sha256 of it). */
  id: string
  successful?: boolean
  changes?: ChangeSpec[]
  events?: EventSpec[]
}

export interface LedgerSpec {
  sequence: number
  closeTime: number
  version: 1 | 2
  transactions: TxSpec[]
  /** The previous ledger's hash the header states; by default that of `ledgerHashHex(sequence - 1)`. */
  previousHash?: Buffer
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

export function ledgerHashHex(sequence: number): string {
  return sha256(`ledger-${sequence}`).toString('hex')
}

export function txHashHex(id: string): string {
  return sha256(`tx-${id}`).toString('hex')
}

function scAddress(strkey: string): xdr.ScAddress {
  return Address.fromString(strkey).toScAddress()
}

function durabilityOf(durability: Durability | undefined): xdr.ContractDataDurability {
  return durability === 'temporary'
    ? xdr.ContractDataDurability.temporary
    : xdr.ContractDataDurability.persistent
}

function contractDataEntry(
  contract: string,
  key: xdr.ScVal,
  val: xdr.ScVal,
  seq: number,
  durability?: Durability,
): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: seq,
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: xdr.ExtensionPoint.v0(),
        contract: scAddress(contract),
        key,
        durability: durabilityOf(durability),
        val,
      }),
    ),
    ext: xdr.LedgerEntryExt.v0(),
  })
}

function buildChange(change: ChangeSpec, seq: number): xdr.LedgerEntryChange {
  if (change.kind === 'removed') {
    return xdr.LedgerEntryChange.ledgerEntryRemoved(
      xdr.LedgerKey.contractData(
        new xdr.LedgerKeyContractData({
          contract: scAddress(change.contract),
          key: change.key,
          durability: durabilityOf(change.durability),
        }),
      ),
    )
  }
  const entry = contractDataEntry(change.contract, change.key, change.val, seq, change.durability)
  if (change.kind === 'created') return xdr.LedgerEntryChange.ledgerEntryCreated(entry)
  if (change.kind === 'updated') return xdr.LedgerEntryChange.ledgerEntryUpdated(entry)
  if (change.kind === 'restored') return xdr.LedgerEntryChange.ledgerEntryRestored(entry)
  return xdr.LedgerEntryChange.ledgerEntryState(entry)
}

function buildEvent(event: EventSpec): xdr.ContractEvent {
  const contractId = Address.fromString(event.contract).toBuffer()
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(contractId),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics: event.topics, data: event.data })),
  })
}

function buildResultPair(tx: TxSpec): xdr.TransactionResultPair {
  const result =
    tx.successful === false
      ? xdr.TransactionResultResult.txFailed([])
      : xdr.TransactionResultResult.txSuccess([])
  return new xdr.TransactionResultPair({
    transactionHash: sha256(`tx-${tx.id}`),
    result: new xdr.TransactionResult({ feeCharged: 100n, result, ext: xdr.TransactionResultExt.v0() }),
  })
}

function buildMetaV3(tx: TxSpec, seq: number): xdr.TransactionMeta {
  const changes = (tx.changes ?? []).map((c) => buildChange(c, seq))
  return xdr.TransactionMeta.v3(
    new xdr.TransactionMetaV3({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: [new xdr.OperationMeta({ changes })],
      txChangesAfter: [],
      sorobanMeta: new xdr.SorobanTransactionMeta({
        ext: xdr.SorobanTransactionMetaExt.v0(),
        events: (tx.events ?? []).map(buildEvent),
        returnValue: xdr.ScVal.scvVoid(),
        diagnosticEvents: [],
      }),
    }),
  )
}

function buildMetaV4(tx: TxSpec, seq: number): xdr.TransactionMeta {
  const changes = (tx.changes ?? []).map((c) => buildChange(c, seq))
  return xdr.TransactionMeta.v4(
    new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: [
        new xdr.OperationMetaV2({
          ext: xdr.ExtensionPoint.v0(),
          changes,
          events: (tx.events ?? []).map(buildEvent),
        }),
      ],
      txChangesAfter: [],
      sorobanMeta: null,
      events: [],
      diagnosticEvents: [],
    }),
  )
}

function previousHashOf(spec: LedgerSpec): Buffer {
  return spec.previousHash ?? sha256(`ledger-${spec.sequence - 1}`)
}

function buildHeader(spec: LedgerSpec): xdr.LedgerHeaderHistoryEntry {
  const zero = Buffer.alloc(32)
  return new xdr.LedgerHeaderHistoryEntry({
    hash: sha256(`ledger-${spec.sequence}`),
    header: new xdr.LedgerHeader({
      ledgerVersion: spec.version === 2 ? 23 : 22,
      previousLedgerHash: previousHashOf(spec),
      scpValue: new xdr.StellarValue({
        txSetHash: zero,
        closeTime: BigInt(spec.closeTime),
        upgrades: [],
        ext: xdr.StellarValueExt.stellarValueBasic(),
      }),
      txSetResultHash: zero,
      bucketListHash: zero,
      ledgerSeq: spec.sequence,
      totalCoins: 1_000_000_000_000_000_000n,
      feePool: 0n,
      inflationSeq: 0,
      idPool: 0n,
      baseFee: 100,
      baseReserve: 5_000_000,
      maxTxSetSize: 1000,
      skipList: [zero, zero, zero, zero],
      ext: xdr.LedgerHeaderExt.v0(),
    }),
    ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
  })
}

/** One ledger's LedgerCloseMeta as raw XDR bytes. */
export function buildLedgerCloseMeta(spec: LedgerSpec): Uint8Array {
  const txSet = xdr.GeneralizedTransactionSet.v1TxSet(
    new xdr.TransactionSetV1({ previousLedgerHash: previousHashOf(spec), phases: [] }),
  )
  const common = {
    ext: xdr.LedgerCloseMetaExt.v0(),
    ledgerHeader: buildHeader(spec),
    txSet,
    upgradesProcessing: [],
    scpInfo: [],
    totalByteSizeOfLiveSorobanState: 0n,
    evictedKeys: [],
  }
  if (spec.version === 1) {
    const txProcessing = spec.transactions.map(
      (tx) =>
        new xdr.TransactionResultMeta({
          result: buildResultPair(tx),
          feeProcessing: [],
          txApplyProcessing: buildMetaV3(tx, spec.sequence),
        }),
    )
    return xdr.LedgerCloseMeta.v1(new xdr.LedgerCloseMetaV1({ ...common, txProcessing, unused: [] })).toXdr()
  }
  const txProcessing = spec.transactions.map(
    (tx) =>
      new xdr.TransactionResultMetaV1({
        ext: xdr.ExtensionPoint.v0(),
        result: buildResultPair(tx),
        feeProcessing: [],
        txApplyProcessing: buildMetaV4(tx, spec.sequence),
        postTxApplyFeeProcessing: [],
      }),
  )
  return xdr.LedgerCloseMeta.v2(new xdr.LedgerCloseMetaV2({ ...common, txProcessing })).toXdr()
}

/** The vault protocol's `Vault((account, denomination))` key, as DESIGN 7.1 lays it out. */
export function vaultKey(account: string, denomination: string): xdr.ScVal {
  return xdr.ScVal.scvVec([
    xdr.ScVal.scvSymbol('Vault'),
    xdr.ScVal.scvVec([nativeToScVal(account, { type: 'address' }), xdr.ScVal.scvSymbol(denomination)]),
  ])
}

function sortedMap(entries: [string, xdr.ScVal][]): xdr.ScVal {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return xdr.ScVal.scvMap(sorted.map(([k, v]) => new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(k), val: v })))
}

/** FxDAO's `OptionalVaultKey`: `Vec[Sym "None"]` or `Vec[Sym "Some", Map{account, denomination, index}]`. */
export function optionalVaultKey(
  key: { account: string; denomination: string; index: bigint } | null,
): xdr.ScVal {
  if (key === null) return xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('None')])
  return xdr.ScVal.scvVec([
    xdr.ScVal.scvSymbol('Some'),
    sortedMap([
      ['account', nativeToScVal(key.account, { type: 'address' })],
      ['denomination', xdr.ScVal.scvSymbol(key.denomination)],
      ['index', nativeToScVal(key.index, { type: 'u128' })],
    ]),
  ])
}

/** FxDAO 0.6.0's `Vault` struct, from contracts/vaults/src/storage/vaults.rs. */
export function vaultValue(v: {
  account: string
  denomination: string
  collateral: bigint
  debt: bigint
  next?: { account: string; denomination: string; index: bigint } | null
}): xdr.ScVal {
  const index = v.debt === 0n ? 0n : (1_000_000_000n * v.collateral) / v.debt
  return sortedMap([
    ['account', nativeToScVal(v.account, { type: 'address' })],
    ['denomination', xdr.ScVal.scvSymbol(v.denomination)],
    ['index', nativeToScVal(index, { type: 'u128' })],
    ['next_key', optionalVaultKey(v.next ?? null)],
    ['total_collateral', nativeToScVal(v.collateral, { type: 'u128' })],
    ['total_debt', nativeToScVal(v.debt, { type: 'u128' })],
  ])
}

export function vaultsInfoKey(denomination: string): xdr.ScVal {
  return xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('VaultsInfo'), xdr.ScVal.scvSymbol(denomination)])
}

/** FxDAO 0.6.0's `VaultsInfo`: eight fields, no debt rate. */
export function vaultsInfoValue(
  denomination: string,
  totals: { debt: bigint; col: bigint; vaults: bigint },
): xdr.ScVal {
  return sortedMap([
    ['denomination', xdr.ScVal.scvSymbol(denomination)],
    ['lowest_key', optionalVaultKey(null)],
    ['min_col_rate', nativeToScVal(11_000_000n, { type: 'u128' })],
    ['min_debt_creation', nativeToScVal(50_000_000n, { type: 'u128' })],
    ['opening_col_rate', nativeToScVal(11_500_000n, { type: 'u128' })],
    ['total_col', nativeToScVal(totals.col, { type: 'u128' })],
    ['total_debt', nativeToScVal(totals.debt, { type: 'u128' })],
    ['total_vaults', nativeToScVal(totals.vaults, { type: 'u64' })],
  ])
}

/**
 * A contract's instance entry (key `LedgerKeyContractInstance`) holding `storage`, as an `updated`
 * change (or `created`): how Soroban records a write to any instance-storage key.
 */
export function instanceChange(
  contract: string,
  storage: [xdr.ScVal, xdr.ScVal][],
  kind: 'created' | 'updated' | 'restored' | 'state' = 'updated',
): ChangeSpec {
  const instance = new xdr.ScContractInstance({
    executable: xdr.ContractExecutable.contractExecutableWasm(sha256(`wasm-${contract}`)),
    storage: storage.map(([key, val]) => new xdr.ScMapEntry({ key, val })),
  })
  return {
    kind,
    contract,
    key: xdr.ScVal.scvLedgerKeyContractInstance(),
    val: xdr.ScVal.scvContractInstance(instance),
  }
}

/** A Reflector feed's asset: `Asset::Stellar(Address)` for a C... id, else `Asset::Other(Symbol)`. */
function reflectorAsset(asset: string): xdr.ScVal {
  return asset.startsWith('C') && asset.length === 56
    ? xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Stellar'), nativeToScVal(asset, { type: 'address' })])
    : xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Other'), xdr.ScVal.scvSymbol(asset)])
}

/** Reflector's instance storage as v2 writes it (env_extensions.rs): the settings, the asset list and last timestamp. */
export function reflectorInstance(
  oracle: string,
  options: { assets: string[]; decimals: number; lastTimestampMs: bigint },
): ChangeSpec {
  const sym = (s: string) => xdr.ScVal.scvSymbol(s)
  return instanceChange(oracle, [
    [sym('assets'), xdr.ScVal.scvVec(options.assets.map(reflectorAsset))],
    [sym('decimals'), xdr.ScVal.scvU32(options.decimals)],
    [sym('last_timestamp'), nativeToScVal(options.lastTimestampMs, { type: 'u64' })],
    [sym('resolution'), xdr.ScVal.scvU32(300_000)],
  ])
}

/** A Reflector v2 price record: TEMPORARY `U128((timestamp_ms << 64) | asset_index)` -> I128. */
export function reflectorV2Price(
  oracle: string,
  timestampMs: bigint,
  assetIndex: number,
  price: bigint,
): ChangeSpec {
  return {
    kind: 'created',
    contract: oracle,
    durability: 'temporary',
    key: nativeToScVal((timestampMs << 64n) | BigInt(assetIndex), { type: 'u128' }),
    val: nativeToScVal(price, { type: 'i128' }),
  }
}

/** A Reflector v3 `[REFLECTOR, update, U64 timestamp_ms]` event with data `Map{update_data: Vec[Vec[asset, price]]}`. */
export function oracleUpdateEvent(
  oracle: string,
  timestampMs: bigint,
  prices: { asset: string; price: bigint }[],
): EventSpec {
  const rows = prices.map(({ asset, price }) =>
    xdr.ScVal.scvVec([
      asset.startsWith('C') && asset.length === 56
        ? nativeToScVal(asset, { type: 'address' })
        : xdr.ScVal.scvSymbol(asset),
      nativeToScVal(price, { type: 'i128' }),
    ]),
  )
  return {
    contract: oracle,
    topics: [
      xdr.ScVal.scvSymbol('REFLECTOR'),
      xdr.ScVal.scvSymbol('update'),
      nativeToScVal(timestampMs, { type: 'u64' }),
    ],
    data: sortedMap([['update_data', xdr.ScVal.scvVec(rows)]]),
  }
}
