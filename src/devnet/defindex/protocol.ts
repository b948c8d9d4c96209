import type { xdr } from '@stellar/stellar-sdk'
import type { Blend } from '../blend/protocol.ts'
import { buildContractDataEntry, buildInstanceEntry } from '../ledger/contract-layout.ts'
import { createSacEvents } from '../ledger/sac-events.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildBool,
  buildContractAddress,
  buildI128,
  buildString,
  buildStruct,
  buildSymbol,
  buildU32,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'
import type { SimulatedProtocol } from '../simulated-protocol.ts'
import { DEFINDEX_VAULTS, type DevnetIdentities } from '../world/identities.ts'
import { createRng } from '../world/prng.ts'
import type { SimTx, WorldState } from '../world/world-state.ts'
import {
  deposit,
  distributeFees,
  harvest,
  lockFees,
  rebalanceInvest,
  rebalanceUnwind,
  reportStrategies,
  transferShares,
  withdraw,
} from './calls-vault.ts'
import {
  buildReportValue,
  buildSacBalanceValue,
  buildStrategyInstanceStorage,
  type StrategyConfigValue,
  type VaultSettings,
} from './layout.ts'
import { type Call, holderKey, Trap, type VaultState, vaultInstance, type Wasm } from './state.ts'
import { createTxChanges } from './tx-changes.ts'

/**
 * DeFindex vaults on the devnet (paltalabs/defindex at 32c8169b): three single-asset vaults, each
 * investing through one Blend strategy into the matching reserve of the devnet's Fixed pool, the
 * strategy a user of that pool through the pool's own `submit`. Holders deposit, withdraw and pass
 * df-tokens to one another; the manager rebalances and distributes fees; the keeper harvests.
 * Activity comes from its own random stream (`<seed>:yield`). Layouts and choices: docs/devnet.md.
 */

export interface DefindexOptions {
  /** Probability that a holder acts in a given ledger. */
  activity: number
}

/** Vault fee (bps of gains) per vault, and the protocol's share of it (the mainnet fixture's vault: 50 and 2,000). */
const VAULT_FEE_BPS = [1_000, 500, 2_000]
const PROTOCOL_FEE_BPS = 2_000
/** Above any BLND a strategy gathers here: the Soroswap swap of rewards is not simulated (see harvest). */
const REWARD_THRESHOLD = 10n ** 30n
const UNIT = 10_000_000n
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

export function createDefindex(
  ids: DevnetIdentities,
  accounts: number,
  blend: Blend,
  options: DefindexOptions,
): SimulatedProtocol {
  const rng = createRng(`${ids.seed}:yield`)
  const wasm: Wasm = { vault: ids.defindexVaultWasm, strategy: ids.defindexStrategyWasm }
  const assetOf = { USDC: ids.usdcContract, EURC: ids.eurcContract, XLM: ids.xlmContract }
  const sacName = {
    USDC: `USDC:${ids.usdcIssuerAddress}`,
    EURC: `EURC:${ids.eurcIssuerAddress}`,
    XLM: 'native',
  }
  const manager = buildAccountAddress(ids.defindexManager)
  const keeper = buildAccountAddress(ids.defindexKeeper)
  const vaults: VaultState[] = DEFINDEX_VAULTS.map((spec, i) => {
    const asset = assetOf[spec.asset]
    const settings: VaultSettings = {
      name: spec.name,
      symbol: spec.symbol,
      asset,
      strategy: ids.defindexStrategies[i]!,
      strategyName: spec.strategyName,
      vaultFeeBps: VAULT_FEE_BPS[i]!,
      protocolFeeBps: PROTOCOL_FEE_BPS,
      manager,
      feeReceiver: manager,
      protocolFeeReceiver: buildAccountAddress(ids.defindexProtocolFeeReceiver),
      router: ids.defindexRouter,
    }
    const config: StrategyConfigValue = {
      asset,
      pool: ids.blendPools[0]!,
      reserveId: spec.reserve,
      blendToken: ids.blndContract,
      router: ids.defindexRouter,
      claimIds: [spec.reserve * 2 + 1],
      rewardThreshold: REWARD_THRESHOLD,
    }
    return {
      index: i,
      id: ids.defindexVaults[i]!,
      strategy: ids.defindexStrategies[i]!,
      settings,
      config,
      keeper,
      pool: 0,
      reserve: spec.reserve,
      user: blend.addContractUser(ids.defindexStrategies[i]!),
      assetSac: createSacEvents(asset, sacName[spec.asset]),
      blndSac: createSacEvents(ids.blndContract, `BLND:${ids.blndIssuerAddress}`),
      totalSupply: null,
      instanceModified: 0,
      balances: new Map(),
      report: null,
      reportModified: 0,
      vaultPos: null,
      vaultPosModified: 0,
      reserves: null,
      strategyModified: 0,
      sacBalances: new Map(),
    }
  })
  // Who holds what: about a third of the accounts use one vault; some start asleep, a few are whales.
  const vaultOf = new Int8Array(accounts).fill(-1)
  const dormantUntil = new Int32Array(accounts)
  const size = new Uint8Array(accounts)
  for (let a = 0; a < accounts; a++) {
    if (rng.chance(0.35)) vaultOf[a] = rng.nextInt(vaults.length)
    size[a] = rng.chance(0.03) ? 40 : 1
    dormantUntil[a] = rng.chance(0.25) ? rng.nextRange(0, 6_000) : 0
  }
  let started = 0
  const holder = (a: number) => buildAccountAddress(ids.accountKey(a))

  /** One call: its effects, or a failed transaction that changed nothing when the contract traps. */
  const run = (
    w: WorldState,
    v: VaultState,
    source: Uint8Array,
    contract: Uint8Array,
    fn: string,
    args: ScVal[],
    body: (c: Call) => void,
  ): SimTx => {
    const undoPool = blend.savepoint(v.pool, v.user)
    const saved = { ...v, balances: new Map(v.balances), sacBalances: new Map(v.sacBalances) }
    const c: Call = { w, v, tx: createTxChanges(w.sequence), events: [] }
    try {
      body(c)
    } catch (error) {
      if (!(error instanceof Trap)) throw error
      undoPool()
      Object.assign(v, saved)
      return { source, contract, fn, args, successful: false, changes: [], events: [] }
    }
    return { source, contract, fn, args, successful: true, changes: c.tx.build(), events: c.events }
  }

  const deployTxs = (w: WorldState): SimTx[] => {
    started = w.sequence
    const txs: SimTx[] = []
    for (const v of vaults) {
      v.strategyModified = w.sequence
      txs.push({
        source: ids.defindexManager,
        contract: v.strategy,
        fn: '__constructor',
        args: [
          buildAddressVal(buildContractAddress(v.config.asset)),
          buildVec([
            buildAddressVal(buildContractAddress(v.config.pool)),
            buildAddressVal(buildContractAddress(v.config.blendToken)),
            buildAddressVal(buildContractAddress(v.config.router)),
            buildI128(v.config.rewardThreshold),
            buildAddressVal(keeper),
          ]),
        ],
        successful: true,
        changes: [{ type: 0, created: strategyInstanceEntry(v) }],
        events: [],
      })
      v.instanceModified = w.sequence
      const roles: [number, xdr.ScAddressWire][] = [
        [0, manager],
        [1, v.settings.feeReceiver],
        [2, manager],
        [3, manager],
      ]
      txs.push({
        source: ids.defindexManager,
        contract: v.id,
        fn: '__constructor',
        args: [
          buildVec([
            buildStruct({
              address: buildAddressVal(buildContractAddress(v.config.asset)),
              strategies: buildVec([
                buildStruct({
                  address: buildAddressVal(buildContractAddress(v.strategy)),
                  name: buildString(v.settings.strategyName),
                  paused: buildBool(false),
                }),
              ]),
            }),
          ]),
          { type: 17, map: roles.map(([k, a]) => ({ key: buildU32(k), val: buildAddressVal(a) })) },
          buildU32(v.settings.vaultFeeBps),
          buildAddressVal(v.settings.protocolFeeReceiver),
          buildU32(v.settings.protocolFeeBps),
          buildAddressVal(buildContractAddress(v.settings.router)),
          {
            type: 17,
            map: [
              { key: buildString('name'), val: buildString(v.settings.name) },
              { key: buildString('symbol'), val: buildString(v.settings.symbol) },
            ],
          },
          buildBool(true),
        ],
        successful: true,
        changes: [{ type: 0, created: vaultInstanceEntry(v) }],
        events: [],
      })
    }
    return txs
  }

  const vaultInstanceEntry = (v: VaultState) =>
    buildInstanceEntry(v.id, wasm.vault, vaultInstance(v), v.instanceModified)
  const strategyInstanceEntry = (v: VaultState) =>
    buildInstanceEntry(
      v.strategy,
      wasm.strategy,
      buildStrategyInstanceStorage(v.config, v.keeper, v.reserves),
      v.strategyModified,
    )

  /** An amount of the vault's asset an account might put in, in stroops. */
  const amountOf = (v: VaultState, account: number): bigint => {
    const units = v.reserve === 0 ? rng.nextRange(200, 20_000) : rng.nextRange(20, 3_000)
    return BigInt(units * size[account]!) * UNIT + BigInt(rng.nextInt(10_000_000))
  }

  const depositTx = (w: WorldState, v: VaultState, a: number, amount: bigint) => {
    const from = holder(a)
    return run(
      w,
      v,
      ids.accountKey(a),
      v.id,
      'deposit',
      [buildVec([buildI128(amount)]), buildVec([buildI128(amount)]), buildAddressVal(from), buildBool(true)],
      (c) => deposit(c, blend, wasm, from, amount),
    )
  }

  const withdrawTx = (w: WorldState, v: VaultState, a: number, shares: bigint) => {
    const from = holder(a)
    return run(
      w,
      v,
      ids.accountKey(a),
      v.id,
      'withdraw',
      [buildI128(shares), buildVec([buildI128(0n)]), buildAddressVal(from)],
      (c) => {
        withdraw(c, blend, wasm, from, shares)
      },
    )
  }

  const holderTx = (w: WorldState, a: number): SimTx | null => {
    const v = vaults[vaultOf[a]!]!
    const held = v.balances.get(holderKey(holder(a)))?.amount ?? 0n
    if (held === 0n) return depositTx(w, v, a, amountOf(v, a))
    const roll = rng.nextInt(100)
    if (roll < 40) return depositTx(w, v, a, amountOf(v, a))
    if (roll < 65) return withdrawTx(w, v, a, (held * BigInt(rng.nextRange(100_000, 900_000))) / 1_000_000n)
    if (roll < 75) return withdrawTx(w, v, a, held)
    if (roll < 88) {
      // Shares change hands: the receiver becomes a holder of this vault if it held none.
      const to = rng.nextInt(accounts)
      if (to === a) return null
      if (vaultOf[to] === -1) vaultOf[to] = v.index
      const amount = rng.chance(0.3) ? held : (held * BigInt(rng.nextRange(100_000, 900_000))) / 1_000_000n
      const from = holder(a)
      const receiver = holder(to)
      return run(
        w,
        v,
        ids.accountKey(a),
        v.id,
        'transfer',
        [buildAddressVal(from), buildAddressVal(receiver), buildI128(amount)],
        (c) => transferShares(c, from, receiver, amount),
      )
    }
    // More than it holds: the vault refuses (InsufficientBalance) and the transaction fails.
    if (roll < 91) return withdrawTx(w, v, a, held + 1n)
    return depositTx(w, v, a, amountOf(v, a))
  }

  const managerTx = (w: WorldState, v: VaultState, fn: string, args: ScVal[], body: (c: Call) => void) =>
    run(w, v, ids.defindexManager, v.id, fn, args, body)

  const rebalanceArgs = (v: VaultState, kind: string, amount: bigint) => [
    buildAddressVal(manager),
    buildVec([
      buildVec([buildSymbol(kind), buildAddressVal(buildContractAddress(v.strategy)), buildI128(amount)]),
    ]),
  ]

  /** The manager's and the keeper's scheduled calls for one vault. */
  const scheduledTxs = (w: WorldState, v: VaultState, offset: number): SimTx[] => {
    const txs: SimTx[] = []
    const idle = v.sacBalances.get(`${hex(v.config.asset)}:${hex(v.id)}`)?.amount ?? 0n
    const invested = (v.vaultPos ?? 0n) > 0n
    if (offset % 20 === v.index * 5 + 3 && idle >= 10n * UNIT) {
      txs.push(
        managerTx(w, v, 'rebalance', rebalanceArgs(v, 'Invest', idle), (c) =>
          rebalanceInvest(c, blend, wasm, idle),
        ),
      )
    }
    if (!invested) return txs
    if (offset % 1_500 === 400 + 97 * v.index) {
      // Part of the position comes back to the vault for a while; the next rebalance reinvests it.
      const balance = v.report?.prevBalance ?? 0n
      const amount = (balance * BigInt(rng.nextRange(10, 30))) / 100n
      txs.push(
        managerTx(w, v, 'rebalance', rebalanceArgs(v, 'Unwind', amount), (c) =>
          rebalanceUnwind(c, blend, wasm, amount),
        ),
      )
    }
    if (offset % 720 === 200 + 50 * v.index) {
      txs.push(
        run(w, v, ids.defindexKeeper, v.strategy, 'harvest', [buildAddressVal(keeper), { type: 1 }], (c) =>
          harvest(c, blend),
        ),
      )
    }
    if (offset % 1_000 === 600 + 30 * v.index)
      txs.push(
        managerTx(w, v, 'distribute_fees', [buildAddressVal(manager)], (c) => distributeFees(c, blend, wasm)),
      )
    if (offset % 900 === 450 + 11 * v.index)
      txs.push(managerTx(w, v, 'report', [], (c) => reportStrategies(c, blend)))
    if (offset % 900 === 460 + 11 * v.index)
      txs.push(managerTx(w, v, 'lock_fees', [{ type: 1 }], (c) => lockFees(c)))
    return txs
  }

  const ledgerTxs = (w: WorldState): SimTx[] => {
    if (started === 0 || w.sequence <= started) return []
    const offset = w.sequence - started
    const txs: SimTx[] = []
    for (const v of vaults) txs.push(...scheduledTxs(w, v, offset))
    const expected = accounts * options.activity * (0.5 + rng.nextFloat())
    const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
    for (let k = 0; k < picks; k++) {
      const a = rng.nextInt(accounts)
      if (vaultOf[a]! < 0 || dormantUntil[a]! > offset) continue
      const tx = holderTx(w, a)
      if (tx) txs.push(tx)
      // Dormant holders: their df-tokens sit still while the strategy's position earns interest.
      if (rng.chance(0.1)) dormantUntil[a] = offset + rng.nextRange(300, 8_000)
    }
    return txs
  }

  const lookupEntry = (contract: Uint8Array, key: ScVal, durability: number): xdr.LedgerEntryWire | null => {
    if (started === 0 || durability !== 1) return null
    const id = Buffer.from(contract)
    const isInstance = key.type === 20
    const parts = key.type === 16 ? (key.vec ?? []) : []
    const tag = parts[0]?.type === 15 ? parts[0].sym.toString() : ''
    const arg = parts[1]
    const address = parts.length === 2 && arg?.type === 18 ? arg.address : null
    for (const v of vaults) {
      if (id.equals(v.id)) {
        if (isInstance) return vaultInstanceEntry(v)
        if (tag === 'Balance' && address) {
          const held = v.balances.get(holderKey(address))
          return held ? buildContractDataEntry(v.id, key, buildI128(held.amount), held.modified) : null
        }
        if (
          tag === 'Report' &&
          address?.type === 1 &&
          v.report &&
          Buffer.from(address.contractId).equals(v.strategy)
        )
          return buildContractDataEntry(v.id, key, buildReportValue(v.report), v.reportModified)
        return null
      }
      if (id.equals(v.strategy)) {
        if (isInstance) return strategyInstanceEntry(v)
        if (
          tag === 'VaultPos' &&
          address?.type === 1 &&
          Buffer.from(address.contractId).equals(v.id) &&
          v.vaultPos !== null
        )
          return buildContractDataEntry(v.strategy, key, buildI128(v.vaultPos), v.vaultPosModified)
        return null
      }
    }
    // An asset contract's Balance of a vault or a strategy (the only SAC balances the devnet writes).
    if (tag !== 'Balance' || address?.type !== 1) return null
    for (const v of vaults) {
      const held = v.sacBalances.get(`${hex(contract)}:${hex(address.contractId)}`)
      if (held) return buildContractDataEntry(contract, key, buildSacBalanceValue(held.amount), held.modified)
    }
    return null
  }

  return {
    name: 'defindex',
    actsInDeployLedger: false,
    deployTxs,
    ledgerTxs,
    // No entry here: another protocol may answer (as it always could behind DeFindex).
    lookupEntry: (_w, contract, key, durability) => lookupEntry(contract, key, durability) ?? undefined,
  }
}
