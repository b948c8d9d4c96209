import { StrKey, type xdr } from '@stellar/stellar-sdk'
import { createSacEvents } from '../ledger/sac-events.ts'
import { createProtocols } from '../protocols.ts'
import { createBackground } from './background.ts'
import { DENOMINATIONS, type DevnetIdentities } from './identities.ts'
import { INITIAL_PRICES, movePrices } from './market.ts'
import { createRng } from './prng.ts'
import {
  EPOCH_S,
  LEDGER_INTERVAL_S,
  ORACLE_INTERVAL_LEDGERS,
  PRICE_ONE,
  type SimLedger,
  type SimTx,
  VAULT_TTL_LEDGERS,
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
  for (let a = 0; a < accounts; a++) {
    const roll = rng.nextInt(100)
    w.preferences[a] = roll < 70 ? 0b001 : roll < 85 ? 0b011 : roll < 90 ? 0b010 : roll < 95 ? 0b100 : 0b111
    w.scale[a] = rng.chance(0.02) ? 50 : 1
    // Part of the population starts asleep: dormant accounts are the point-in-time API's hard case.
    w.dormantUntil[a] = rng.chance(0.3) ? options.startLedger + rng.nextInt(5_000) : 0
  }

  const background = options.backgroundTxs ? createBackground(ids.seed) : null
  const protocols = createProtocols({
    ids,
    accounts,
    startLedger: options.startLedger,
    reflectorV3Ledger: options.reflectorV3Ledger ?? null,
    activity: options.activity,
    lendingActivity: options.lendingActivity ?? options.activity,
    ammActivity: options.ammActivity ?? options.activity,
    yieldActivity: options.yieldActivity ?? options.activity,
  })

  const stepLedger = (): SimLedger => {
    w.sequence += 1
    w.closeTime += LEDGER_INTERVAL_S
    w.protocol23 = switchLedger === null || w.sequence >= switchLedger
    const offset = w.sequence - options.startLedger
    const evictedKeys = protocols.flatMap((p) => p.evictExpired?.(w) ?? [])
    const txs: SimTx[] = []
    // The first ledger: the contracts that act in it are deployed before anyone acts.
    if (offset === 0) for (const p of protocols) if (p.actsInDeployLedger) txs.push(...p.deployTxs(w))
    // The market moves, then the oracle publishes it (its own turn below).
    if (offset % ORACLE_INTERVAL_LEDGERS === 0) movePrices(w)
    for (const p of protocols) {
      txs.push(...(offset === 0 && !p.actsInDeployLedger ? p.deployTxs(w) : p.ledgerTxs(w)))
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
    // Later protocols answer first: Soroswap's answer for an asset contract's balance stands even
    // when it is null (a DeFindex vault's balance there is not looked up behind it).
    for (let i = protocols.length - 1; i >= 0; i--) {
      const entry = protocols[i]!.lookupEntry(w, id, scKey, key.contractData.durability, accountOf)
      if (entry !== undefined) return entry
    }
    return null
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
