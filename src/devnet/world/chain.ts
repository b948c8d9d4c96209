import { StrKey, xdr } from '@stellar/stellar-sdk'
import type { NetworkConfig } from '../../chain/network.ts'
import { createLedgerEncoder, type EncodedLedger } from '../ledger/ledger-xdr.ts'
import { buildNetworkConfig, createIdentities, devnetPassphrase } from './identities.ts'
import { createWorld } from './world.ts'
import type { SimTx } from './world-state.ts'

/** The devnet's options. Same seed and options: byte-identical ledgers. */
export interface DevnetOptions {
  seed: string | number
  /** Ledgers generated before the devnet is returned. */
  ledgers: number
  accounts?: number
  startLedger?: number
  /** With a value, a served devnet closes one more ledger every this many milliseconds. */
  closeIntervalMs?: number | null
  /** Probability that a given account acts in a given ledger; 0.02 by default. */
  activity?: number
  /** Share (0..1) of JSON-RPC calls that fail on purpose, for testing clients. */
  faultRate?: number
  /** How long a "timeout" fault holds its response before closing the connection. */
  faultTimeoutMs?: number
  /** Close time of the first ledger, epoch seconds (default 2025-01-01): part of what the seed fixes. */
  genesisCloseTimeS?: number
  /** Ledgers below this one are protocol 22 (LedgerCloseMeta v1); null: all protocol 23. */
  protocolSwitchLedger?: number | null
  /** The oracle is Reflector v3 (events) from this ledger on and v2 (storage records only) before; null: v3 throughout. */
  reflectorV3Ledger?: number | null
  /** Ledgers a vault entry stays live after a write before it is archived (default FxDAO's 28 days). */
  vaultTtlLedgers?: number
  /** The RPC serves only the latest this many ledgers (Stellar RPC keeps about 7 days); all when absent. */
  rpcRetentionLedgers?: number
  /** Unwatched transactions per ledger (transfers on other contracts): mainnet-shaped ledgers. */
  backgroundTxs?: number
  /** Probability that a lending account submits to its Blend pool in a ledger (default: `activity`); 0: no pools. */
  lendingActivity?: number
  /** Probability that an account acts on Soroswap in a ledger (default: `activity`); 0: no Soroswap. */
  ammActivity?: number
  /** Probability that a DeFindex holder acts in a ledger (default: `activity`); 0: no vaults. Needs the pools. */
  yieldActivity?: number
  host?: string
  port?: number
}

/** A contract event as getEvents serves it; positions follow Stellar RPC's TOID numbering. */
export interface StoredEvent {
  ledger: number
  /** 1-based application order of the transaction, as in the TOID. */
  txIndex: number
  opIndex: number
  eventIndex: number
  contractId: string
  topics: string[]
  value: string
  txHash: string
}

export interface StoredLedger {
  sequence: number
  closeTime: number
  hash: Buffer
  protocolVersion: number
  meta: Buffer
  header: Buffer
  txHashes: Buffer
  events: StoredEvent[]
}

export interface StoredEntry {
  /** base64 LedgerEntryData. */
  xdr: string
  lastModifiedLedgerSeq: number
}

/** The simulated chain without any transport: for servers, tests and decode benchmarks. */
export interface DevnetChain {
  network: NetworkConfig
  passphrase: string
  /** The devnet's first ledger: its whole history (what a data lake holds). */
  oldestLedger(): number
  /** The oldest ledger its RPC serves: like Stellar RPC, only a recent window when `rpcRetentionLedgers` is set. */
  servedFrom(): number
  latestLedger(): number
  ledgerCount(): number
  getLedger(sequence: number): StoredLedger | undefined
  /** Raw LedgerCloseMeta XDR of one ledger. */
  ledgerMetaXdr(sequence: number): Buffer
  findTransaction(hashHex: string): { ledger: StoredLedger; index: number } | undefined
  /** Current value of a ledger entry, or undefined when it does not exist at the latest ledger. */
  getEntry(key: xdr.LedgerKeyWire): StoredEntry | undefined
  /** Generates and appends the next ledger; returns its sequence. */
  closeNextLedger(): number
  /** An account that holds an open vault at the latest ledger. */
  sampleVaultHolder(): string
}

export const DEFAULT_ACCOUNTS = 200
export const DEFAULT_ACTIVITY = 0.02
export const DEFAULT_START_LEDGER = 1_000

export function createDevnetChain(options: DevnetOptions): DevnetChain {
  const seed = String(options.seed)
  const startLedger = options.startLedger ?? DEFAULT_START_LEDGER
  const accounts = options.accounts ?? DEFAULT_ACCOUNTS
  requireOptions(options, startLedger, accounts)
  const ids = createIdentities(seed)
  const world = createWorld({
    ids,
    accounts,
    activity: options.activity ?? DEFAULT_ACTIVITY,
    startLedger,
    protocolSwitchLedger: options.protocolSwitchLedger ?? null,
    reflectorV3Ledger: options.reflectorV3Ledger ?? null,
    ...(options.vaultTtlLedgers === undefined ? {} : { vaultTtlLedgers: options.vaultTtlLedgers }),
    ...(options.backgroundTxs === undefined ? {} : { backgroundTxs: options.backgroundTxs }),
    ...(options.lendingActivity === undefined ? {} : { lendingActivity: options.lendingActivity }),
    ...(options.ammActivity === undefined ? {} : { ammActivity: options.ammActivity }),
    ...(options.yieldActivity === undefined ? {} : { yieldActivity: options.yieldActivity }),
    ...(options.genesisCloseTimeS === undefined ? {} : { genesisCloseTimeS: options.genesisCloseTimeS }),
  })
  const encoder = createLedgerEncoder(devnetPassphrase(seed), options.protocolSwitchLedger ?? null)
  const ledgers: StoredLedger[] = []
  // Built lazily: a decode benchmark never looks transactions up and should not pay for the index.
  const txIndex = new Map<string, number>()
  let txIndexedLedgers = 0
  let previousHash: Buffer = Buffer.alloc(32)

  const getLedger = (sequence: number) => ledgers[sequence - startLedger]

  const closeNextLedger = (): number => {
    const sim = world.stepLedger()
    const encoded = encoder.encodeLedger(sim, previousHash)
    previousHash = encoded.hash
    ledgers.push(storeLedger(encoded, sim.txs))
    return sim.sequence
  }

  const findTransaction = (hashHex: string) => {
    for (; txIndexedLedgers < ledgers.length; txIndexedLedgers++) {
      const { txHashes } = ledgers[txIndexedLedgers]!
      for (let i = 0; i * 32 < txHashes.length; i++) {
        txIndex.set(txHashes.subarray(i * 32, i * 32 + 32).toString('hex'), txIndexedLedgers * 65_536 + i)
      }
    }
    const packed = txIndex.get(hashHex.toLowerCase())
    if (packed === undefined) return undefined
    return { ledger: ledgers[Math.floor(packed / 65_536)]!, index: packed % 65_536 }
  }

  for (let i = 0; i < options.ledgers; i++) closeNextLedger()

  return {
    network: buildNetworkConfig(
      ids,
      startLedger,
      options.lendingActivity !== 0,
      options.ammActivity !== 0,
      options.lendingActivity !== 0 && options.yieldActivity !== 0,
    ),
    passphrase: devnetPassphrase(seed),
    oldestLedger: () => startLedger,
    servedFrom: () => {
      const latest = startLedger + ledgers.length - 1
      return options.rpcRetentionLedgers === undefined
        ? startLedger
        : Math.max(startLedger, latest - options.rpcRetentionLedgers + 1)
    },
    latestLedger: () => startLedger + ledgers.length - 1,
    ledgerCount: () => ledgers.length,
    getLedger,
    ledgerMetaXdr: (sequence) => {
      const ledger = getLedger(sequence)
      if (!ledger) throw new RangeError(`ledger ${sequence} is not on this devnet`)
      return ledger.meta
    },
    findTransaction,
    getEntry: (key) => {
      const entry = world.lookupEntry(key)
      if (!entry) return undefined
      return {
        xdr: Buffer.from(xdr.LedgerEntryData.schema.encode(entry.data)).toString('base64'),
        lastModifiedLedgerSeq: entry.lastModifiedLedgerSeq,
      }
    },
    closeNextLedger,
    sampleVaultHolder: () => world.sampleVaultHolder() ?? ids.accountAddress(0),
  }
}

function requireOptions(options: DevnetOptions, startLedger: number, accounts: number): void {
  const problems: string[] = []
  if (!Number.isInteger(options.ledgers) || options.ledgers < 1)
    problems.push('ledgers must be a whole number >= 1')
  if (!Number.isInteger(startLedger) || startLedger < 2)
    problems.push('startLedger must be a whole number >= 2')
  if (!Number.isInteger(accounts) || accounts < 1) problems.push('accounts must be a whole number >= 1')
  if (
    options.vaultTtlLedgers !== undefined &&
    !(Number.isInteger(options.vaultTtlLedgers) && options.vaultTtlLedgers >= 1)
  )
    problems.push('vaultTtlLedgers must be a whole number >= 1')
  const activity = options.activity ?? DEFAULT_ACTIVITY
  if (!(activity >= 0 && activity <= 1)) problems.push('activity must be between 0 and 1')
  const lending = options.lendingActivity ?? activity
  if (!(lending >= 0 && lending <= 1)) problems.push('lendingActivity must be between 0 and 1')
  const amm = options.ammActivity ?? activity
  if (!(amm >= 0 && amm <= 1)) problems.push('ammActivity must be between 0 and 1')
  const yieldActivity = options.yieldActivity ?? activity
  if (!(yieldActivity >= 0 && yieldActivity <= 1)) problems.push('yieldActivity must be between 0 and 1')
  const faultRate = options.faultRate ?? 0
  if (!(faultRate >= 0 && faultRate <= 1)) problems.push('faultRate must be between 0 and 1')
  if (problems.length > 0) throw new RangeError(`invalid devnet options: ${problems.join('; ')}`)
}

function storeLedger(encoded: EncodedLedger, txs: SimTx[]): StoredLedger {
  const events: StoredEvent[] = []
  txs.forEach((tx, i) => {
    if (!tx.successful) return
    const txHash = encoded.txHashes.subarray(i * 32, i * 32 + 32).toString('hex')
    tx.events.forEach((event, eventIndex) => {
      if (event.body.v !== 0) return
      events.push({
        ledger: encoded.sequence,
        txIndex: i + 1,
        opIndex: 0,
        eventIndex,
        contractId: event.contractId ? StrKey.encodeContract(event.contractId) : '',
        topics: event.body.v0.topics.map((t) => encodeScVal(t)),
        value: encodeScVal(event.body.v0.data),
        txHash,
      })
    })
  })
  return {
    sequence: encoded.sequence,
    closeTime: encoded.closeTime,
    hash: encoded.hash,
    protocolVersion: encoded.protocolVersion,
    meta: encoded.meta,
    header: encoded.header,
    txHashes: encoded.txHashes,
    events,
  }
}

function encodeScVal(value: xdr.ScValWire): string {
  return Buffer.from(xdr.ScVal.schema.encode(value)).toString('base64')
}
