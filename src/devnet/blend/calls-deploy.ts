import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildContractDataKey, TEMPORARY } from '../ledger/contract-layout.ts'
import {
  buildAddressVal,
  buildContractAddress,
  buildI128,
  buildString,
  buildStruct,
  buildU32,
  buildU64,
  buildVec,
} from '../ledger/scval.ts'
import type { SimTx, WorldState } from '../world/world-state.ts'
import { gulpTx, poolEmisEntry } from './calls-emissions.ts'
import { submit } from './calls-submit.ts'
import {
  buildQueuedReserveInitValue,
  buildQueueSetReserveEvent,
  buildReserveConfigValue,
  buildResInitKey,
  buildSetReserveEvent,
  buildSetStatusAdminEvent,
  type ReserveConfigValue,
} from './layout.ts'
import { RequestType, SCALAR_7, SCALAR_12 } from './math.ts'
import {
  type BlendSim,
  instanceEntry,
  listEntry,
  RESERVE_PARAMS,
  type ReserveState,
  resConfigEntry,
  resDataEntry,
  SUPPLY_CAPS,
} from './state.ts'

/** Deployment and reserve set-up of both pools: the first ledger's transactions. */
export function deployTxs(s: BlendSim, w: WorldState): SimTx[] {
  s.started = w.sequence
  const now = BigInt(w.closeTime)
  const txs: SimTx[] = []
  for (const pool of s.pools) {
    // The factory deploys the pool; its constructor writes the instance (status 6, setup).
    pool.instanceModified = w.sequence
    txs.push({
      source: s.ids.blendAdmin,
      contract: pool.id,
      fn: '__constructor',
      args: [
        buildAddressVal(s.admin),
        buildString(pool.name),
        buildAddressVal(buildContractAddress(s.ids.oracleContract)),
        buildU32(pool.config.bstopRate),
        buildU32(pool.config.maxPositions),
        buildI128(pool.config.minCollateral),
        buildAddressVal(buildContractAddress(s.ids.blendBackstop)),
        buildAddressVal(buildContractAddress(s.ids.blndContract)),
      ],
      successful: true,
      changes: [{ type: 0, created: instanceEntry(s, pool) }],
      events: [],
    })
    s.assets.forEach((asset, index) => {
      const config: ReserveConfigValue = {
        ...RESERVE_PARAMS[index]!,
        index,
        decimals: 7,
        enabled: true,
        supplyCap: SUPPLY_CAPS[index]!,
      }
      // Status 6 (setup): the queued reserve unlocks at once (config.rs `execute_queue_set_reserve`).
      const initKey = buildResInitKey(asset)
      txs.push({
        source: s.ids.blendAdmin,
        contract: pool.id,
        fn: 'queue_set_reserve',
        args: [buildAddressVal(buildContractAddress(asset)), buildReserveConfigValue(config)],
        successful: true,
        changes: [
          {
            type: 0,
            created: buildContractDataEntry(
              pool.id,
              initKey,
              buildQueuedReserveInitValue(config, now),
              w.sequence,
              TEMPORARY,
            ),
          },
        ],
        events: [buildQueueSetReserveEvent(pool.id, s.admin, asset, config)],
      })
      const listBefore = pool.reserves.length > 0 ? listEntry(pool) : null
      const reserve: ReserveState = {
        asset,
        config,
        data: {
          bRate: SCALAR_12,
          dRate: SCALAR_12,
          irMod: SCALAR_7,
          bSupply: 0n,
          dSupply: 0n,
          backstopCredit: 0n,
          lastTime: now,
        },
        modified: w.sequence,
      }
      pool.reserves.push(reserve)
      pool.listModified = w.sequence
      const changes: xdr.LedgerEntryChangeWire[] = [
        {
          type: 3,
          state: buildContractDataEntry(
            pool.id,
            initKey,
            buildQueuedReserveInitValue(config, now),
            w.sequence,
            TEMPORARY,
          ),
        },
        { type: 2, removed: buildContractDataKey(pool.id, initKey, TEMPORARY) },
      ]
      if (listBefore) changes.push({ type: 3, state: listBefore }, { type: 1, updated: listEntry(pool) })
      else changes.push({ type: 0, created: listEntry(pool) })
      changes.push(
        { type: 0, created: resDataEntry(pool, reserve) },
        { type: 0, created: resConfigEntry(pool, reserve, w.sequence) },
      )
      txs.push({
        source: s.ids.blendAdmin,
        contract: pool.id,
        fn: 'set_reserve',
        args: [buildAddressVal(buildContractAddress(asset))],
        successful: true,
        changes,
        events: [buildSetReserveEvent(pool.id, asset, index)],
      })
    })
    // The admin opens the pool (status 0, admin active).
    const before = instanceEntry(s, pool)
    pool.config = { ...pool.config, status: 0 }
    txs.push({
      source: s.ids.blendAdmin,
      contract: pool.id,
      fn: 'set_status',
      args: [buildU32(0)],
      successful: true,
      changes: [
        { type: 3, state: before },
        { type: 1, updated: instanceEntry(s, pool) },
      ],
      events: [buildSetStatusAdminEvent(pool.id, s.admin, 0)],
    })
    // `set_emissions_config` writes PoolEmis (no event); the first gulp creates every EmisData.
    txs.push({
      source: s.ids.blendAdmin,
      contract: pool.id,
      fn: 'set_emissions_config',
      args: [
        buildVec(
          [...pool.shares].map(([id, share]) =>
            buildStruct({
              res_index: buildU32(id >> 1),
              res_type: buildU32(id & 1),
              share: buildU64(share),
            }),
          ),
        ),
      ],
      successful: true,
      changes: [{ type: 0, created: poolEmisEntry(pool, w.sequence) }],
      events: [],
    })
    txs.push(gulpTx(s, w, pool, 2_000n * 10_000_000n))
    // The liquidator's collateral buffer: 10 million USDC, so its fills stay healthy.
    txs.push(
      submit(s, w, pool, s.liquidator, [
        { reserve: 1, amount: 10_000_000n * 10_000_000n, type: RequestType.SupplyCollateral },
      ]),
    )
  }
  return txs
}
