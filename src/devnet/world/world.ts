import { StrKey, type xdr } from '@stellar/stellar-sdk'
import { createBlend } from '../blend/blend.ts'
import { createDefindex } from '../defindex/protocol.ts'
import {
  buildVaultEntry,
  buildVaultIndexEntry,
  buildVaultInstanceEntry,
  deployVaultsTx,
  evictExpired,
  simulateAccountAction,
  simulateLiquidation,
  simulateRedeem,
} from '../fxdao/calls.ts'
import { buildInstanceKey } from '../ledger/contract-layout.ts'
import { createSacEvents } from '../ledger/sac-events.ts'
import { compareScVal } from '../ledger/scval.ts'
import { buildOracleInstanceEntry, deployOracleTx, type OracleState, setPriceTx } from '../reflector/calls.ts'
import type { OracleAsset } from '../reflector/layout.ts'
import { createSoroswap } from '../soroswap/protocol.ts'
import { createBackground } from './background.ts'
import { DENOMINATIONS, type DevnetIdentities } from './identities.ts'
import { createRng } from './prng.ts'
import {
  EPOCH_S,
  LEDGER_INTERVAL_S,
  ORACLE_INTERVAL_LEDGERS,
  PRICE_ONE,
  type SimLedger,
  type SimTx,
  VAULT_TTL_LEDGERS,
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
  /** Ledgers from this one on are protocol 23 (CAP-67 events, eviction); null: all of them. */
  protocolSwitchLedger?: number | null
  /** The oracle is Reflector v3 (events) from this ledger on, v2 (storage only) before; null: v3 throughout. */
  reflectorV3Ledger?: number | null
  /** Ledgers a written vault entry stays live before it is archived (FxDAO: 28 days). */
  vaultTtlLedgers?: number
  /** Unwatched transactions per ledger (other contracts' transfers), for mainnet-shaped ledgers. */
  backgroundTxs?: number
  /** Probability that a lending account submits to its Blend pool in a given ledger; 0: no pools. */
  lendingActivity?: number
  /** Probability that an account acts on Soroswap in a given ledger; 0: no Soroswap. */
  ammActivity?: number
  /** Probability that a DeFindex holder acts in a given ledger (default `activity`); 0, or no pools: no vaults. */
  yieldActivity?: number
}

/** The simulated world: steps one ledger at a time, each step a pure function of the seed and the past. */
export interface World {
  stepLedger(): SimLedger
  /** An account holding an open vault right now, or null when no vault is open. */
  sampleVaultHolder(): string | null
  /** The current entry under a contract-data key, or null when it does not exist or is archived (now). */
  lookupEntry(key: xdr.LedgerKeyWire): xdr.LedgerEntryWire | null
}

/** Redeems happen now and then, on the lowest vault of a denomination. */
const REDEEM_CHANCE = 0.01
const INITIAL_PRICES = { xlm: 30_000_000_000_000n, EUR: 108_000_000_000_000n, GBP: 127_000_000_000_000n }

function stellarAssetName(code: string, issuer: Uint8Array): string {
  return `${code}:${StrKey.encodeEd25519PublicKey(issuer)}`
}

export function createWorld(options: WorldOptions): World {
  const { ids, accounts } = options
  const rng = createRng(`${ids.seed}:world`)
  const genesis = options.genesisCloseTimeS ?? EPOCH_S
  const switchLedger = options.protocolSwitchLedger ?? null
  const w: WorldState = {
    ids,
    rng,
    accounts,
    sequence: options.startLedger - 1,
    closeTime: genesis - LEDGER_INTERVAL_S,
    xlmPrice: INITIAL_PRICES.xlm,
    denoms: DENOMINATIONS.map((name, i) => ({
      name,
      price: name === 'USD' ? PRICE_ONE : INITIAL_PRICES[name],
      totalCol: 0n,
      totalDebt: 0n,
      totalVaults: 0n,
      list: [],
      sac: createSacEvents(ids.debtContracts[i]!, stellarAssetName(`${name}x`, ids.stableIssuer)),
    })),
    vaults: new Map(),
    open: [],
    dormantUntil: new Int32Array(accounts),
    preferences: new Uint8Array(accounts),
    scale: new Uint8Array(accounts),
    xlmSac: createSacEvents(ids.xlmContract, 'native'),
    protocol23: switchLedger === null || options.startLedger >= switchLedger,
    ttlLedgers: options.vaultTtlLedgers ?? VAULT_TTL_LEDGERS,
    vaultInstanceModified: options.startLedger,
    expiries: new Map(),
  }
  // The feed quotes XLM by its asset contract and the fiat denominations by ticker.
  // USDC and EURC (the lending pools' reserves) are quoted by their asset contracts too.
  const oracleAssets: OracleAsset[] = [
    { contract: ids.xlmContract },
    { symbol: 'EUR' },
    { symbol: 'GBP' },
    { contract: ids.usdcContract },
    { contract: ids.eurcContract },
  ]
  const oracle: OracleState = {
    assets: oracleAssets,
    lastTimestampMs: 0n,
    instanceModified: options.startLedger,
    // Absent: v3 throughout, every update is at or above ledger 0.
    v3Ledger: options.reflectorV3Ledger ?? 0,
  }
  for (let a = 0; a < accounts; a++) {
    const roll = rng.nextInt(100)
    w.preferences[a] = roll < 70 ? 0b001 : roll < 85 ? 0b011 : roll < 90 ? 0b010 : roll < 95 ? 0b100 : 0b111
    w.scale[a] = rng.chance(0.02) ? 50 : 1
    // Part of the population starts asleep: dormant accounts are the point-in-time API's hard case.
    w.dormantUntil[a] = rng.chance(0.3) ? options.startLedger + rng.nextInt(5_000) : 0
  }

  const background = options.backgroundTxs ? createBackground(ids.seed) : null
  const lendingActivity = options.lendingActivity ?? options.activity
  const blend = lendingActivity > 0 ? createBlend(ids, accounts, { activity: lendingActivity }) : null
  const ammActivity = options.ammActivity ?? options.activity
  const soroswap = ammActivity > 0 ? createSoroswap(ids, accounts, { activity: ammActivity }) : null
  // DeFindex strategies lend into the Blend pools, so the vaults exist only with the pools.
  const yieldActivity = options.yieldActivity ?? options.activity
  const defindex =
    blend && yieldActivity > 0 ? createDefindex(ids, accounts, blend, { activity: yieldActivity }) : null

  const stepLedger = (): SimLedger => {
    w.sequence += 1
    w.closeTime += LEDGER_INTERVAL_S
    w.protocol23 = switchLedger === null || w.sequence >= switchLedger
    const offset = w.sequence - options.startLedger
    const txs: SimTx[] = []
    const evictedKeys = evictExpired(w)
    if (offset === 0) txs.push(deployOracleTx(w, oracle), deployVaultsTx(w))
    if (offset % ORACLE_INTERVAL_LEDGERS === 0) {
      movePrices(w)
      // USDC is quoted at one dollar, EURC at the EUR price.
      const eur = w.denoms[1]!.price
      txs.push(setPriceTx(w, oracle, [w.xlmPrice, eur, w.denoms[2]!.price, PRICE_ONE, eur]))
      for (let denom = 0; denom < w.denoms.length; denom++) {
        const tx = simulateLiquidation(w, denom)
        if (tx) txs.push(tx)
      }
    }
    if (offset > 0 && rng.chance(REDEEM_CHANCE)) {
      const tx = simulateRedeem(w, rng.nextInt(w.denoms.length))
      if (tx) txs.push(tx)
    }
    const expected = accounts * options.activity * (0.5 + rng.nextFloat())
    const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
    for (let i = 0; i < picks; i++) {
      const account = rng.nextInt(accounts)
      if (w.dormantUntil[account]! > w.sequence) continue
      txs.push(simulateAccountAction(w, account))
      if (rng.chance(0.15)) w.dormantUntil[account] = w.sequence + rng.nextRange(100, 10_000)
    }
    if (blend) {
      if (offset === 0) txs.push(...blend.deployTxs(w))
      else txs.push(...blend.ledgerTxs(w))
    }
    if (defindex) txs.push(...(offset === 0 ? defindex.deployTxs(w) : defindex.ledgerTxs(w)))
    if (soroswap) {
      if (offset === 0) txs.push(...soroswap.deployTxs(w))
      else txs.push(...soroswap.ledgerTxs(w))
    }
    if (background) txs.push(...background.ledgerTxs(w.sequence, options.backgroundTxs!))
    return { sequence: w.sequence, closeTime: w.closeTime, txs, evictedKeys }
  }

  // Answering from the world's own state costs nothing per generated change, unlike a key-value
  // copy of every entry; built on first use because benchmarks never read entries.
  let accountIndex: Map<string, number> | null = null
  const accountOf = (address: xdr.ScValWire | undefined): number | undefined => {
    if (address?.type !== 18 || address.address.type !== 0) return undefined
    if (!accountIndex) {
      accountIndex = new Map()
      for (let a = 0; a < accounts; a++) accountIndex.set(Buffer.from(ids.accountKey(a)).toString('hex'), a)
    }
    return accountIndex.get(Buffer.from(address.address.accountId.ed25519).toString('hex'))
  }
  const lookupEntry = (key: xdr.LedgerKeyWire): xdr.LedgerEntryWire | null => {
    if (key.type !== 6) return null
    const { contract, key: scKey } = key.contractData
    if (contract.type !== 1 || w.sequence < options.startLedger) return null
    const id = Buffer.from(contract.contractId)
    const amm = soroswap?.lookupEntry(id, scKey, key.contractData.durability, accountOf)
    if (amm !== undefined) return amm
    const yieldEntry = defindex?.lookupEntry(id, scKey, key.contractData.durability)
    if (yieldEntry) return yieldEntry
    if (blend && ids.blendPools.some((p) => id.equals(p))) {
      return blend.lookupEntry(id, scKey, key.contractData.durability, accountOf)
    }
    if (key.contractData.durability !== 1) return null
    if (compareScVal(scKey, buildInstanceKey()) === 0 && scKey.type === 20) {
      if (id.equals(ids.vaultContract)) return buildVaultInstanceEntry(w)
      if (id.equals(ids.oracleContract)) return buildOracleInstanceEntry(w, oracle)
      return null
    }
    if (!id.equals(ids.vaultContract)) return null
    const parts = scKey.type === 16 ? scKey.vec : null
    const tag = parts?.[0]
    if (parts?.length !== 2 || tag?.type !== 15) return null
    const arg = parts[1]!
    const name = tag.sym.toString()
    let account: number | undefined
    let denomination: string | undefined
    if (name === 'Vault' && arg.type === 16 && arg.vec?.length === 2 && arg.vec[1]?.type === 15) {
      account = accountOf(arg.vec[0])
      denomination = arg.vec[1].sym.toString()
    } else if (name === 'VaultIndex' && arg.type === 17) {
      for (const entry of arg.map ?? []) {
        const field = entry.key.type === 15 ? entry.key.sym.toString() : ''
        if (field === 'user') account = accountOf(entry.val)
        if (field === 'denomination' && entry.val.type === 15) denomination = entry.val.sym.toString()
      }
    }
    const denom = w.denoms.findIndex((d) => d.name === denomination)
    const vault = account === undefined || denom < 0 ? undefined : w.vaults.get(vaultMapKey(account, denom))
    if (!vault) return null
    // An archived entry is not live: the RPC answers for live entries only.
    if (name === 'Vault') return vault.vaultArchived ? null : buildVaultEntry(w, vault)
    return vault.indexArchived ? null : buildVaultIndexEntry(w, vault)
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
  if (rng.chance(0.06)) xlmPpm = -rng.nextRange(50_000, 160_000)
  // Pull towards the starting price so long runs stay in a plausible band.
  if (w.xlmPrice > INITIAL_PRICES.xlm * 3n) xlmPpm -= 20_000
  if (w.xlmPrice < INITIAL_PRICES.xlm / 3n) xlmPpm += 20_000
  w.xlmPrice = (w.xlmPrice * BigInt(1_000_000 + xlmPpm)) / 1_000_000n
  for (const d of w.denoms) {
    if (d.name === 'USD') continue
    d.price = (d.price * BigInt(1_000_000 + rng.nextRange(-2_000, 2_000))) / 1_000_000n
  }
}
