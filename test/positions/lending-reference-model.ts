import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/devnet/devnet.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import { buildReferenceModel, latestAtOrBefore, type ReferenceModel } from './reference-model.ts'

/**
 * A second, plain reading of the devnet's Blend pools straight from the ledgers' XDR with the SDK's
 * classes (test/devnet/decode-ledgers.ts), sharing no code with the indexer or the API:
 * - an account's lending state is its `Positions(user)` entries (b/d-token maps by reserve index)
 *   and its `UserEmis({reserve_id, user})` entries; a snapshot is written at a ledger where that
 *   state differs at the end from the start, each item keeping the ledger it last changed at;
 * - the pools' `ResList`, `ResData`, `ResConfig`, `EmisData`, `PoolEmis` and instance `Config`,
 *   `Name`, `BLNDTkn` are kept per ledger (the last write of a ledger stands);
 * - prices and close times come from the vault reference model's reading of Reflector.
 */

export type Kind = 'collateral' | 'liabilities' | 'supply'
export const KINDS: readonly Kind[] = ['collateral', 'liabilities', 'supply']

export interface RefBalance {
  pool: string
  index: number
  kind: Kind
  tokens: bigint
  changedAt: number
}

export interface RefUserEmis {
  pool: string
  id: number
  accrued: bigint
  index: bigint
  changedAt: number
}

export interface RefLendingSnapshot {
  ledger: number
  balances: RefBalance[]
  emissions: RefUserEmis[]
}

export interface Versioned {
  ledger: number
  // biome-ignore lint/suspicious/noExplicitAny: native ScVal values of several struct shapes
  value: any
}

export interface RefPoolEvent {
  ledger: number
  txHash: string
  /** The transaction's place in its ledger (apply order). */
  txIndex: number
  contract: string
  /** Index among the transaction's events of watched contracts (pools, vaults, oracles). */
  watchedIndex: number
  topics: unknown[]
  data: unknown
}

export interface LendingModel {
  base: ReferenceModel
  pools: string[]
  /** `${pool}|${entry}`: `ResList`, `PoolEmis`, `Config`, `Name`, `BLNDTkn`, `ResData|asset`, `ResConfig|asset`, `EmisData|id`. */
  state: Map<string, Versioned[]>
  snapshots: Map<string, RefLendingSnapshot[]>
  events: RefPoolEvent[]
}

type Item = { json: string; balance?: RefBalance; emis?: RefUserEmis }

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)

export function buildLendingModel(chain: DevnetChain): LendingModel {
  const base = buildReferenceModel(chain)
  const pools = chain.network.contracts.lendingprotocol.map((p) => p.address)
  const poolSet = new Set(pools)
  const watched = new Set([
    ...pools,
    chain.network.contracts.vaultprotocol.address,
    ...chain.network.contracts.oracles.map((o) => o.address),
  ])
  const model: LendingModel = { base, pools, state: new Map(), snapshots: new Map(), events: [] }
  const current = new Map<string, Map<string, Item>>()

  const putState = (key: string, ledger: number, value: unknown) => {
    const list = model.state.get(key) ?? []
    if (list.at(-1)?.ledger === ledger) list.pop()
    if (JSON.stringify(list.at(-1)?.value, big) !== JSON.stringify(value, big)) list.push({ ledger, value })
    model.state.set(key, list)
  }

  for (const ledger of decodeLedgers(chain)) {
    const before = new Map<string, string>()
    const touch = (account: string) => {
      const items = current.get(account) ?? new Map<string, Item>()
      current.set(account, items)
      if (!before.has(account)) before.set(account, fingerprint(items))
      return items
    }
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      let watchedIndex = 0
      for (const event of tx.events) {
        if (!watched.has(event.contractId)) continue
        if (poolSet.has(event.contractId)) {
          model.events.push({
            ledger: ledger.sequence,
            txHash: tx.hash,
            txIndex: tx.index,
            contract: event.contractId,
            watchedIndex,
            topics: event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64'))),
            data: scValToNative(xdr.ScVal.fromXDR(event.value, 'base64')),
          })
        }
        watchedIndex++
      }
      for (const change of tx.changes) {
        if (!poolSet.has(change.contract) || change.kind === 'state' || change.kind === 'restored') continue
        const pool = change.contract
        if (change.key === 'instance') {
          for (const [k, v] of change.val as [unknown, unknown][]) {
            if (k === 'Config' || k === 'Name' || k === 'BLNDTkn')
              putState(`${pool}|${k}`, ledger.sequence, v)
          }
          continue
        }
        if (change.durability !== 'persistent') continue
        if (change.key === 'ResList' || change.key === 'PoolEmis') {
          if (change.kind !== 'removed') putState(`${pool}|${change.key}`, ledger.sequence, change.val)
          continue
        }
        const [tag, arg] = change.key as [string, unknown]
        if (tag === 'Positions') {
          const items = touch(arg as string)
          for (const key of [...items.keys()]) if (key.startsWith(`${pool}|p|`)) items.delete(key)
          if (change.kind === 'removed') continue
          const value = change.val as Record<Kind, Record<string, bigint>>
          for (const kind of KINDS) {
            for (const [index, tokens] of Object.entries(value[kind])) {
              if (tokens === 0n) continue
              const balance = { pool, index: Number(index), kind, tokens, changedAt: ledger.sequence }
              items.set(`${pool}|p|${index.padStart(2, '0')}|${kind}`, { json: `${tokens}`, balance })
            }
          }
        } else if (tag === 'UserEmis') {
          const { reserve_id: id, user } = arg as { reserve_id: number; user: string }
          const items = touch(user)
          const key = `${pool}|e|${String(id).padStart(2, '0')}`
          if (change.kind === 'removed') {
            items.delete(key)
            continue
          }
          const { accrued, index } = change.val as { accrued: bigint; index: bigint }
          items.set(key, {
            json: `${accrued}:${index}`,
            emis: { pool, id, accrued, index, changedAt: ledger.sequence },
          })
        } else if (
          change.kind !== 'removed' &&
          (tag === 'ResData' || tag === 'ResConfig' || tag === 'EmisData')
        ) {
          putState(`${pool}|${tag}|${arg}`, ledger.sequence, change.val)
        }
      }
    }
    for (const [account, fingerprintBefore] of before) {
      const items = current.get(account)!
      const previous = model.snapshots.get(account)?.at(-1)
      // Unchanged items keep the ledger of their own last change.
      for (const [key, item] of items) {
        const old = previous && findItem(previous, key)
        if (old && old.json === item.json) {
          if (item.balance) item.balance.changedAt = old.changedAt
          if (item.emis) item.emis.changedAt = old.changedAt
        }
      }
      if (fingerprint(items) === fingerprintBefore) continue
      const list = model.snapshots.get(account) ?? []
      const sorted = [...items].sort(([a], [b]) => (a < b ? -1 : 1))
      list.push({
        ledger: ledger.sequence,
        balances: sorted.flatMap(([, i]) => (i.balance ? [{ ...i.balance }] : [])),
        emissions: sorted.flatMap(([, i]) => (i.emis ? [{ ...i.emis }] : [])),
      })
      model.snapshots.set(account, list)
    }
  }
  return model
}

function fingerprint(items: Map<string, Item>): string {
  return [...items]
    .map(([k, i]) => `${k}=${i.json}`)
    .sort()
    .join(',')
}

function findItem(
  snapshot: RefLendingSnapshot,
  key: string,
): { json: string; changedAt: number } | undefined {
  const [pool, type, n, kind] = key.split('|')
  if (type === 'p') {
    const b = snapshot.balances.find((x) => x.pool === pool && x.index === Number(n) && x.kind === kind)
    return b && { json: `${b.tokens}`, changedAt: b.changedAt }
  }
  const e = snapshot.emissions.find((x) => x.pool === pool && x.id === Number(n))
  return e && { json: `${e.accrued}:${e.index}`, changedAt: e.changedAt }
}

/** A pool entry's value at or before a ledger. */
export function stateAt(model: LendingModel, key: string, ledger: number): Versioned | undefined {
  return latestAtOrBefore(model.state.get(key), ledger)
}

/** The snapshot of an account in force at a ledger. */
export function lendingSnapshotAt(model: LendingModel, account: string, ledger: number) {
  return latestAtOrBefore(model.snapshots.get(account), ledger)
}
