import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildInstanceEntry, TEMPORARY } from '../ledger/contract-layout.ts'
import { buildAccountAddress, buildI128, buildU64, buildVec } from '../ledger/scval.ts'
import { ORACLE_RESOLUTION_MS, type SimTx, type WorldState } from '../world/world-state.ts'
import {
  buildReflectorInstanceStorage,
  buildReflectorUpdateEvent,
  buildReflectorV2PriceKey,
  buildReflectorV3Record,
  type ReflectorSettings,
} from './layout.ts'
import { ORACLE_DECIMALS, type OracleState } from './state.ts'

const PERIOD_MS = 86_400_000n

function settings(w: WorldState, oracle: OracleState): ReflectorSettings {
  return {
    admin: buildAccountAddress(w.ids.oracleAdmin),
    baseAsset: { symbol: 'USD' },
    decimals: ORACLE_DECIMALS,
    resolution: ORACLE_RESOLUTION_MS,
    period: PERIOD_MS,
    assets: oracle.assets,
    lastTimestampMs: oracle.lastTimestampMs,
  }
}

export function buildOracleInstanceEntry(w: WorldState, oracle: OracleState): xdr.LedgerEntryWire {
  return buildInstanceEntry(
    w.ids.oracleContract,
    w.ids.oracleWasm,
    buildReflectorInstanceStorage(settings(w, oracle)),
    oracle.instanceModified,
  )
}

/** The deploy and `config` of the first ledger: the instance entry with its settings and asset list. */
export function deployOracleTx(w: WorldState, oracle: OracleState): SimTx {
  oracle.instanceModified = w.sequence
  return {
    source: w.ids.oracleAdmin,
    contract: w.ids.oracleContract,
    fn: 'config',
    args: [],
    successful: true,
    changes: [{ type: 0, created: buildOracleInstanceEntry(w, oracle) }],
    events: [],
  }
}

/** `set_price(updates, timestamp)`: one price per asset, in the order of the asset list. */
export function setPriceTx(w: WorldState, oracle: OracleState, prices: bigint[]): SimTx {
  // Timestamps are the ledger time in ms, normalised to the resolution, as the contract requires.
  const timestampMs =
    ((BigInt(w.closeTime) * 1000n) / BigInt(ORACLE_RESOLUTION_MS)) * BigInt(ORACLE_RESOLUTION_MS)
  const v3 = w.sequence >= oracle.v3Ledger
  const instanceBefore = buildOracleInstanceEntry(w, oracle)
  oracle.lastTimestampMs = timestampMs
  oracle.instanceModified = w.sequence
  const changes: xdr.LedgerEntryChangeWire[] = []
  const events: xdr.ContractEventWire[] = []
  if (v3) {
    const [key, val] = buildReflectorV3Record(timestampMs, prices)
    changes.push({
      type: 0,
      created: buildContractDataEntry(w.ids.oracleContract, key, val, w.sequence, TEMPORARY),
    })
    events.push(
      buildReflectorUpdateEvent(
        w.ids.oracleContract,
        timestampMs,
        prices.map((price, i) => ({ asset: oracle.assets[i]!, price })),
      ),
    )
  } else {
    prices.forEach((price, i) => {
      const key = buildReflectorV2PriceKey(timestampMs, i)
      changes.push({
        type: 0,
        created: buildContractDataEntry(w.ids.oracleContract, key, buildI128(price), w.sequence, TEMPORARY),
      })
    })
  }
  changes.push({ type: 3, state: instanceBefore }, { type: 1, updated: buildOracleInstanceEntry(w, oracle) })
  return {
    source: w.ids.oracleAdmin,
    contract: w.ids.oracleContract,
    fn: 'set_price',
    args: [buildVec(prices.map(buildI128)), buildU64(timestampMs)],
    successful: true,
    changes,
    events,
  }
}
