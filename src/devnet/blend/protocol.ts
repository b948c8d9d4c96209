import type { xdr } from '@stellar/stellar-sdk'
import type { SimulatedProtocol } from '../simulated-protocol.ts'
import type { DevnetIdentities } from '../world/identities.ts'
import type { SimTx, WorldState } from '../world/world-state.ts'
import { ledgerTxs as ledgerTxsOf } from './activity.ts'
import { deployTxs as deployTxsOf } from './calls-deploy.ts'
import { claimTx } from './calls-emissions.ts'
import { submit } from './calls-submit.ts'
import type { ReserveDataValue } from './layout.ts'
import { lookupEntry as lookupEntryOf } from './lookup.ts'
import { accrueReserve } from './math.ts'
import { createBlendSim, type Req } from './state.ts'

/**
 * Two Blend v2 lending pools (blend-capital/blend-contracts-v2, pool/), simulated: deployment and
 * reserve set-up, and `submit` with requests 0-5 following pool/src/pool/{submit,actions,reserve,
 * interest,health_factor,user}.rs: every touched reserve is accrued to the ledger's time, b/d tokens
 * are minted and burnt with the contract's rounding, health and utilization are checked (a failed
 * check fails the transaction, which then changes nothing), and the effects come in the contract's
 * order. No emissions are configured, so no `EmisData`/`UserEmis` is written (the contract writes
 * none while `EmisData` is absent). Activity comes from its own random stream, so the rest of the
 * world is unchanged by it. Layouts and choices: docs/devnet.md.
 */

/** Options of the simulated pools. */
export interface BlendOptions {
  /** Probability that a given lending account submits in a given ledger. */
  activity: number
}

/** The Blend pools as a simulated protocol, and what DeFindex's strategies call in them. */
export interface Blend extends SimulatedProtocol {
  /** Makes a contract (a DeFindex strategy) a user of a pool; returns its user number. */
  addContractUser(contract: Uint8Array): number
  /**
   * `submit(user, user, to, requests)` called by a contract user inside its own transaction: the
   * pool's changes and events (successful) or nothing (failed), for the caller to place in its tx.
   */
  contractSubmit(w: WorldState, pool: number, user: number, requests: Req[], to: xdr.ScAddressWire): SimTx
  /** `claim(user, ids, user)` by a contract user (its own `claim_ids`). */
  contractClaim(w: WorldState, pool: number, user: number, ids: number[]): SimTx
  /** `get_reserve(asset).data`: the reserve accrued to this ledger's time, not stored. */
  loadReserve(w: WorldState, pool: number, reserve: number): ReserveDataValue
  /** A user's b-tokens supplied (not collateral) to a reserve, as its `Positions` entry says. */
  suppliedOf(pool: number, user: number, reserve: number): bigint
  /**
   * What a contract user's submits can change in a pool (reserves, its positions, emissions), kept
   * so that a transaction failing after one of them can be undone; returns the undo.
   */
  savepoint(pool: number, user: number): () => void
}

/** The two pools as a simulated protocol (see `Blend`). */
export function createBlend(ids: DevnetIdentities, accounts: number, options: BlendOptions): Blend {
  const s = createBlendSim(ids, accounts, options.activity)
  const deployTxs = (w: WorldState) => deployTxsOf(s, w)
  const ledgerTxs = (w: WorldState) => ledgerTxsOf(s, w)
  const lookupEntry: SimulatedProtocol['lookupEntry'] = (_w, contract, key, durability, accountOf) =>
    lookupEntryOf(s, contract, key, durability, accountOf)
  return {
    name: 'blend',
    actsInDeployLedger: false,
    deployTxs,
    ledgerTxs,
    lookupEntry,
    addContractUser: (contract) => {
      const user = s.accounts + 1 + s.contractUsers.size
      s.contractUsers.set(user, contract)
      return user
    },
    contractSubmit: (w, p, user, requests, to) => submit(s, w, s.pools[p]!, user, requests, to),
    contractClaim: (w, p, user, claimIds) => claimTx(s, w, s.pools[p]!, user, claimIds)!,
    loadReserve: (w, p, i) => {
      const r = s.pools[p]!.reserves[i]!
      return accrueReserve(r.config, r.data, s.pools[p]!.config.bstopRate, BigInt(w.closeTime))
    },
    suppliedOf: (p, user, i) => s.pools[p]!.users.get(user)?.positions.supply.get(i) ?? 0n,
    savepoint: (p, user) => {
      const pool = s.pools[p]!
      // Entries are replaced, never mutated in place, so shallow copies are a faithful snapshot.
      const reserves = pool.reserves.map((r) => ({ data: r.data, modified: r.modified }))
      const state = pool.users.get(user)
      const saved = state ? { ...state } : null
      const emis = new Map(pool.emis)
      const userEmis = new Map(pool.userEmis)
      return () => {
        for (const [i, r] of pool.reserves.entries()) Object.assign(r, reserves[i])
        if (saved) pool.users.set(user, saved)
        else pool.users.delete(user)
        pool.emis = emis
        pool.userEmis = userEmis
      }
    },
  }
}
