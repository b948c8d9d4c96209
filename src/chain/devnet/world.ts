import { StrKey, type xdr } from '@stellar/stellar-sdk'
import { buildOracleUpdateEvent, type OraclePrice } from './contract-layout.ts'
import { DENOMINATIONS, type DevnetIdentities } from './identities.ts'
import { createRng } from './prng.ts'
import { buildI128, buildU64, buildVec } from './scval.ts'
import {
  buildVaultEntry,
  buildVaultsInfoEntry,
  createVaultsInfoTx,
  simulateAccountAction,
  simulateLiquidation,
} from './vault-actions.ts'
import {
  EPOCH_S,
  FEE_REVIEW_INTERVAL_LEDGERS,
  LEDGER_INTERVAL_S,
  ORACLE_INTERVAL_LEDGERS,
  PRICE_ONE,
  RATE_ONE,
  type SimLedger,
  type SimTx,
  vaultMapKey,
  type WorldState,
} from './world-state.ts'

export interface WorldOptions {
  ids: DevnetIdentities
  accounts: number
  /** Probability that a given account acts in a given ledger (dormant accounts excepted). */
  activity: number
  startLedger: number
  /** Close time of the first ledger, epoch seconds; a fixed date unless a caller needs "recent". */
  genesisCloseTimeS?: number
}

/** The simulated world: steps one ledger at a time, each step a pure function of the seed and the past. */
export interface World {
  stepLedger(): SimLedger
  /** An account holding an open vault right now, or null when no vault is open. */
  sampleVaultHolder(): string | null
  /** The current entry under a contract-data key, or null when it does not exist (now). */
  lookupEntry(key: xdr.LedgerKeyWire): xdr.LedgerEntryWire | null
}

const LIQUIDATION_SAMPLE = 64
const INITIAL_PRICES = { xlm: 30_000_000_000_000n, EUR: 108_000_000_000_000n, GBP: 127_000_000_000_000n }

export function createWorld(options: WorldOptions): World {
  const { ids, accounts } = options
  const rng = createRng(`${ids.seed}:world`)
  const genesis = options.genesisCloseTimeS ?? EPOCH_S
  const w: WorldState = {
    ids,
    rng,
    accounts,
    sequence: options.startLedger - 1,
    closeTime: genesis - LEDGER_INTERVAL_S,
    xlmPrice: INITIAL_PRICES.xlm,
    denoms: DENOMINATIONS.map((name) => ({
      name,
      debtRate: RATE_ONE,
      feeBps: 100 + rng.nextInt(400),
      lastAccrualS: genesis,
      totalCol: 0n,
      totalDebt: 0n,
      totalVaults: 0n,
      lastModified: options.startLedger,
      price: name === 'USD' ? PRICE_ONE : INITIAL_PRICES[name],
    })),
    vaults: new Map(),
    open: [],
    dormantUntil: new Int32Array(accounts),
    preferences: new Uint8Array(accounts),
    scale: new Uint8Array(accounts),
  }
  for (let a = 0; a < accounts; a++) {
    const roll = rng.nextInt(100)
    w.preferences[a] = roll < 70 ? 0b001 : roll < 85 ? 0b011 : roll < 90 ? 0b010 : roll < 95 ? 0b100 : 0b111
    w.scale[a] = rng.chance(0.02) ? 50 : 1
    // Part of the population starts asleep: dormant accounts are the point-in-time API's hard case.
    w.dormantUntil[a] = rng.chance(0.3) ? options.startLedger + rng.nextInt(5_000) : 0
  }

  const stepLedger = (): SimLedger => {
    w.sequence += 1
    w.closeTime += LEDGER_INTERVAL_S
    const offset = w.sequence - options.startLedger
    const txs: SimTx[] = []
    if (offset === 0) for (const d of w.denoms) txs.push(createVaultsInfoTx(w, d))
    if (offset > 0 && offset % FEE_REVIEW_INTERVAL_LEDGERS === 0) reviewStabilityFees(w)
    if (offset % ORACLE_INTERVAL_LEDGERS === 0) {
      movePrices(w)
      txs.push(buildOracleTx(w))
      sampleLiquidations(w, txs)
    }
    const expected = accounts * options.activity * (0.5 + rng.nextFloat())
    const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
    for (let i = 0; i < picks; i++) {
      const account = rng.nextInt(accounts)
      if (w.dormantUntil[account]! > w.sequence) continue
      txs.push(simulateAccountAction(w, account))
      if (rng.chance(0.15)) w.dormantUntil[account] = w.sequence + rng.nextRange(100, 10_000)
    }
    return { sequence: w.sequence, closeTime: w.closeTime, txs }
  }

  // Answering from the world's own state costs nothing per generated change, unlike a key-value
  // copy of every entry; built on first use because benchmarks never read entries.
  let accountIndex: Map<string, number> | null = null
  const lookupEntry = (key: xdr.LedgerKeyWire): xdr.LedgerEntryWire | null => {
    if (key.type !== 6 || key.contractData.durability !== 1) return null
    const { contract, key: scKey } = key.contractData
    if (contract.type !== 1 || !Buffer.from(contract.contractId).equals(ids.vaultContract)) return null
    const parts = scKey.type === 16 ? scKey.vec : null
    const tag = parts?.[0]
    if (parts?.length !== 2 || tag?.type !== 15) return null
    const arg = parts[1]!
    if (tag.sym.toString() === 'VaultsInfo' && arg.type === 15) {
      const d = w.denoms.find((x) => x.name === arg.sym.toString())
      return d && w.sequence >= options.startLedger ? buildVaultsInfoEntry(w, d) : null
    }
    if (tag.sym.toString() !== 'Vault' || arg.type !== 16 || arg.vec?.length !== 2) return null
    const [address, denomination] = arg.vec
    if (address?.type !== 18 || address.address.type !== 0 || denomination?.type !== 15) return null
    const denom = w.denoms.findIndex((x) => x.name === denomination.sym.toString())
    if (!accountIndex) {
      accountIndex = new Map()
      for (let a = 0; a < accounts; a++) accountIndex.set(Buffer.from(ids.accountKey(a)).toString('hex'), a)
    }
    const account = accountIndex.get(Buffer.from(address.address.accountId.ed25519).toString('hex'))
    const vault = account === undefined ? undefined : w.vaults.get(vaultMapKey(account, denom))
    return vault ? buildVaultEntry(w, vault, vault.lastModified) : null
  }

  return {
    stepLedger,
    lookupEntry,
    sampleVaultHolder: () => {
      const vault = w.open[0]
      return vault ? StrKey.encodeEd25519PublicKey(ids.accountKey(vault.account)) : null
    },
  }
}

/** Random walk in parts per million, with rare sharp drops of XLM so vaults get liquidated. */
function movePrices(w: WorldState): void {
  const { rng } = w
  let xlmPpm = rng.nextRange(-15_000, 15_500)
  if (rng.chance(0.04)) xlmPpm = -rng.nextRange(60_000, 160_000)
  // Pull towards the starting price so long runs stay in a plausible band.
  if (w.xlmPrice > INITIAL_PRICES.xlm * 3n) xlmPpm -= 20_000
  if (w.xlmPrice < INITIAL_PRICES.xlm / 3n) xlmPpm += 20_000
  w.xlmPrice = (w.xlmPrice * BigInt(1_000_000 + xlmPpm)) / 1_000_000n
  for (const d of w.denoms) {
    if (d.name === 'USD') continue
    d.price = (d.price * BigInt(1_000_000 + rng.nextRange(-2_000, 2_000))) / 1_000_000n
  }
}

function reviewStabilityFees(w: WorldState): void {
  for (const d of w.denoms) {
    if (w.rng.chance(0.5)) d.feeBps = Math.min(1_500, Math.max(50, d.feeBps + w.rng.nextRange(-50, 50)))
  }
}

function buildOracleTx(w: WorldState): SimTx {
  const prices: OraclePrice[] = [{ asset: { contract: w.ids.xlmContract }, price: w.xlmPrice }]
  for (const d of w.denoms) if (d.name !== 'USD') prices.push({ asset: { symbol: d.name }, price: d.price })
  const timestampMs = BigInt(w.closeTime) * 1000n
  return {
    source: w.ids.oracleAdmin,
    contract: w.ids.oracleContract,
    fn: 'set_price',
    args: [buildVec(prices.map((p) => buildI128(p.price))), buildU64(timestampMs)],
    successful: true,
    changes: [],
    events: [buildOracleUpdateEvent(w.ids.oracleContract, timestampMs, prices)],
  }
}

function sampleLiquidations(w: WorldState, txs: SimTx[]): void {
  const samples = Math.min(LIQUIDATION_SAMPLE, w.open.length)
  for (let i = 0; i < samples && w.open.length > 0; i++) {
    const tx = simulateLiquidation(w, w.open[w.rng.nextInt(w.open.length)]!)
    if (tx) txs.push(tx)
  }
}
