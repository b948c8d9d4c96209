import { xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseNetworkConfig } from '../../src/chain/load-network.ts'
import {
  ACTIONS,
  assets,
  chain,
  closeTimeOf,
  fieldNames,
  keyTag,
  ledgers,
  loadBlendLedgers,
  oracle,
  POOL_CONFIG_FIELDS,
  type Positions,
  pools,
  poolTxs,
  RESERVE_CONFIG_FIELDS,
  RESERVE_DATA_FIELDS,
  S7,
  S12,
  START,
  sym,
} from './blend-layout-support.ts'
import { ceilDiv, expectedAccrual, type ResConfig, type ResData } from './blend-reference.ts'

// Blend v2 pools (blend-capital/blend-contracts-v2, pool/src), checked on the XDR decoded with the
// SDK; the formulas are written again here from the contract source, not taken from the devnet.
beforeAll(loadBlendLedgers)

describe('the devnet writes Blend v2 pools as blend-contracts-v2 does', () => {
  it('describes both pools and the USDC and EURC feeds in a network description that validates', () => {
    const net = parseNetworkConfig(JSON.parse(JSON.stringify(chain.network)), 'devnet')
    expect(net.contracts.lendingprotocol).toHaveLength(2)
    for (const p of net.contracts.lendingprotocol) {
      expect(p).toMatchObject({
        protocol: 'lendingprotocol',
        kind: 'blend-pool-v2',
        version: '2',
        position_types: ['supply', 'collateral', 'borrow'],
        start_ledger: START,
      })
    }
    for (const id of assets.slice(1)) {
      expect(net.assets[id]!.price_feed).toEqual({ oracle, asset: id })
      expect(id.startsWith('C')).toBe(true)
    }
  })

  it('deploys each pool: instance storage, ResList, ResConfig and ResData as the constructor and set_reserve write them', () => {
    const first = ledgers[0]!
    for (const pool of pools) {
      const txs = first.txs.filter((t) => t.changes.some((c) => c.contract === pool))
      expect(txs.map((t) => t.fn)).toEqual([
        '__constructor',
        ...assets.flatMap(() => ['queue_set_reserve', 'set_reserve']),
        'set_status',
        'set_emissions_config',
        'gulp_emissions',
        // The liquidator's collateral buffer.
        'submit',
      ])
      const instances = txs
        .flatMap((t) => t.changes)
        .filter((c) => c.contract === pool && c.key === 'instance')
      const last = instances.at(-1)!
      expect(last.durability).toBe('persistent')
      const storage = last.val as [string, unknown][]
      // Host order of Symbol keys is bytewise: 'BLNDTkn' sorts before 'Backstop'.
      expect(storage.map(([k]) => k)).toEqual(['Admin', 'BLNDTkn', 'Backstop', 'Config', 'Name'])
      const wire = last.valWire as Extract<xdr.ScValWire, { type: 19 }>
      const nameVal = wire.instance.storage!.find(
        (e) => e.key.type === 15 && e.key.sym.toString() === 'Name',
      )!
      expect(nameVal.val.type).toBe(14) // String, not Symbol
      const configWire = wire.instance.storage!.find(
        (e) => e.key.type === 15 && e.key.sym.toString() === 'Config',
      )!
      expect(fieldNames(configWire.val)).toEqual(POOL_CONFIG_FIELDS)
      const config = Object.fromEntries(storage).Config as Record<string, unknown>
      expect(config.oracle).toBe(oracle)
      expect(config.status).toBe(0)
      expect(Object.fromEntries(storage).Name).toBe(
        chain.network.contracts.lendingprotocol[pools.indexOf(pool)]!.name,
      )
      // Status 6 (setup) until the admin opens the pool.
      expect(
        (Object.fromEntries(instances[0]!.val as [string, unknown][]).Config as { status: number }).status,
      ).toBe(6)

      const changes = txs.flatMap((t) => t.changes).filter((c) => c.contract === pool)
      const list = changes.filter((c) => c.key === 'ResList' && c.kind !== 'state').at(-1)!
      expect(list.durability).toBe('persistent')
      expect(list.val).toEqual(assets)
      assets.forEach((asset, index) => {
        const cfg = changes.find((c) => keyTag(c) === 'ResConfig' && (c.key as unknown[])[1] === asset)!
        expect(cfg.durability).toBe('persistent')
        expect(fieldNames(cfg.valWire)).toEqual(RESERVE_CONFIG_FIELDS)
        expect(cfg.val).toMatchObject({ index, decimals: 7, enabled: true })
        const data = changes.find((c) => keyTag(c) === 'ResData' && (c.key as unknown[])[1] === asset)!
        expect(data.durability).toBe('persistent')
        expect(fieldNames(data.valWire)).toEqual(RESERVE_DATA_FIELDS)
        expect(data.val).toEqual({
          b_rate: S12,
          d_rate: S12,
          ir_mod: S7,
          b_supply: 0n,
          d_supply: 0n,
          backstop_credit: 0n,
          last_time: BigInt(first.closeTime),
        })
        const inits = changes.filter((c) => keyTag(c) === 'ResInit' && (c.key as unknown[])[1] === asset)
        expect(inits.map((c) => [c.kind, c.durability])).toEqual([
          ['created', 'temporary'],
          ['state', 'temporary'],
          ['removed', 'temporary'],
        ])
      })
      const setReserve = txs.filter((t) => t.fn === 'set_reserve').map((t) => t.events)
      expect(setReserve.map((e) => e.map((x) => x.topics.map(sym)))).toEqual(
        assets.map(() => [['set_reserve']]),
      )
      expect(setReserve.map((e) => sym(e[0]!.value))).toEqual(assets.map((a, i) => [a, i]))
    }
  })

  it('accrues every touched reserve as calc_accrual does: rates only grow, supplies move by the events', () => {
    let checked = 0
    let grew = 0
    for (const pool of pools) {
      const configs = new Map<string, ResConfig>()
      let bstopRate = 0n
      const last = new Map<string, ResData>()
      for (const tx of poolTxs(pool)) {
        if (!tx.successful) continue
        for (const c of tx.changes) {
          if (c.contract !== pool) continue
          if (c.key === 'instance' && c.kind !== 'state')
            bstopRate = BigInt(
              (Object.fromEntries(c.val as [string, unknown][]).Config as { bstop_rate: number }).bstop_rate,
            )
          if (keyTag(c) === 'ResConfig' && c.kind === 'created')
            configs.set((c.key as string[])[1]!, c.val as ResConfig)
        }
        const now = closeTimeOf.get(tx.ledger)!
        for (let i = 0; i < tx.changes.length; i++) {
          const c = tx.changes[i]!
          if (c.contract !== pool || keyTag(c) !== 'ResData') continue
          const asset = (c.key as string[])[1]!
          if (c.kind === 'created') {
            last.set(asset, c.val as ResData)
            continue
          }
          if (c.kind !== 'updated') continue
          const before = tx.changes[i - 1]!
          expect(before.kind).toBe('state')
          expect(before.val).toEqual(last.get(asset))
          const prev = before.val as ResData
          const next = c.val as ResData
          const expected = expectedAccrual(prev, configs.get(asset)!, bstopRate, now)
          expect({ ...next, b_supply: 0n, d_supply: 0n }).toEqual({ ...expected, b_supply: 0n, d_supply: 0n })
          expect(next.b_rate >= prev.b_rate && next.d_rate >= prev.d_rate).toBe(true)
          if (next.d_rate > prev.d_rate) grew++
          // b/d supplies move by exactly the tokens the events minted and burnt for this asset.
          let db = 0n
          let dd = 0n
          for (const e of tx.events.filter((x) => x.contractId === pool)) {
            const [name, evAsset] = e.topics.map(sym) as [string, string]
            if (evAsset !== asset) continue
            const shares = (sym(e.value) as bigint[])[1]!
            if (name === 'supply' || name === 'supply_collateral') db += shares
            if (name === 'withdraw' || name === 'withdraw_collateral') db -= shares
            if (name === 'borrow') dd += shares
            if (name === 'repay') dd -= shares
          }
          expect(next.b_supply - prev.b_supply).toBe(db)
          expect(next.d_supply - prev.d_supply).toBe(dd)
          last.set(asset, next)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
    expect(grew).toBeGreaterThan(20)
  })

  it('writes one event per request before the transfers, and Positions moves by exactly the minted and burnt tokens', () => {
    let submits = 0
    const kinds = new Set<string>()
    for (const pool of pools) {
      const positions = new Map<string, Positions>()
      for (const tx of poolTxs(pool)) {
        if (!tx.successful || tx.fn !== 'submit') continue
        const poolEvents = tx.events.filter((e) => e.contractId === pool)
        if (poolEvents.some((e) => sym(e.topics[0]!) === 'fill_auction')) {
          // Fills are checked on their own; here only their Positions writes are followed.
          for (const c of tx.changes)
            if (keyTag(c) === 'Positions' && c.kind === 'updated')
              positions.set((c.key as string[])[1]!, c.val as Positions)
            else if (keyTag(c) === 'Positions' && c.kind === 'created')
              positions.set((c.key as string[])[1]!, c.val as Positions)
          continue
        }
        submits++
        const firstTransfer = tx.events.findIndex((e) => e.contractId !== pool)
        expect(poolEvents.length).toBeGreaterThan(0)
        expect(tx.events.slice(0, poolEvents.length)).toEqual(poolEvents)
        expect(firstTransfer).toBe(poolEvents.length)
        const posChanges = tx.changes.filter((c) => keyTag(c) === 'Positions')
        const written = posChanges.at(-1)!
        // ResData writes come before the Positions write.
        expect(tx.changes.indexOf(written)).toBe(tx.changes.length - 1)
        expect(written.durability).toBe('persistent')
        expect(fieldNames(written.valWire)).toEqual(['collateral', 'liabilities', 'supply'])
        const user = (written.key as string[])[1]!
        const before = posChanges.length === 2 ? (posChanges[0]!.val as Positions) : null
        expect(before).toEqual(positions.get(user) ?? null)
        const expected: Positions = structuredClone(before ?? { collateral: {}, liabilities: {}, supply: {} })
        const net = new Map<string, bigint>()
        const resData = new Map<string, ResData>()
        for (const c of tx.changes)
          if (keyTag(c) === 'ResData' && c.kind === 'updated')
            resData.set((c.key as string[])[1]!, c.val as ResData)
        for (const e of poolEvents) {
          const [name, asset, from] = e.topics.map(sym) as [string, string, string]
          expect(e.topicsWire.map((t) => t.type)).toEqual([15, 18, 18])
          expect(ACTIONS).toContain(name)
          expect(from).toBe(user)
          kinds.add(name)
          const [tokens, shares] = sym(e.value) as [bigint, bigint]
          const index = String(assets.indexOf(asset))
          const field = name.includes('collateral')
            ? 'collateral'
            : name === 'borrow' || name === 'repay'
              ? 'liabilities'
              : 'supply'
          const sign = name.startsWith('withdraw') || name === 'repay' ? -1n : 1n
          expected[field][index] = (expected[field][index] ?? 0n) + sign * shares
          if (expected[field][index] === 0n) delete expected[field][index]
          net.set(
            asset,
            (net.get(asset) ?? 0n) +
              (name === 'supply' || name === 'supply_collateral' || name === 'repay' ? tokens : -tokens),
          )
          const d = resData.get(asset)!
          // actions.rs: supply mints floor(x/b_rate), borrow mints ceil(x/d_rate).
          if (name === 'supply' || name === 'supply_collateral')
            expect(shares).toBe((tokens * S12) / d.b_rate)
          if (name === 'borrow') expect(shares).toBe(ceilDiv(tokens * S12, d.d_rate))
        }
        expect(written.val).toEqual(expected)
        for (const m of Object.values(written.val as Positions))
          for (const v of Object.values(m)) expect(v > 0n).toBe(true)
        // The SAC transfers net out to the tokens the events name.
        const transfers = new Map<string, bigint>()
        for (const e of tx.events.slice(poolEvents.length)) {
          const [name, from, to] = e.topics.map(sym) as [string, string, string]
          expect(name).toBe('transfer')
          const amount = sym(e.value) as bigint
          if (to === pool) transfers.set(e.contractId, (transfers.get(e.contractId) ?? 0n) + amount)
          else {
            expect(from).toBe(pool)
            expect(to).toBe(user)
            transfers.set(e.contractId, (transfers.get(e.contractId) ?? 0n) - amount)
          }
        }
        for (const [asset, amount] of net) expect(transfers.get(asset) ?? 0n).toBe(amount)
        positions.set(user, written.val as Positions)
      }
    }
    expect(submits).toBeGreaterThan(100)
    expect([...kinds].sort()).toEqual([...ACTIONS].sort())
  })

  it('configures emissions: PoolEmis shares, EmisData per token from each gulp, reserve_emission_update events', () => {
    let gulps = 0
    for (const pool of pools) {
      const txs = poolTxs(pool)
      const poolEmis = txs.flatMap((t) => t.changes).find((c) => c.contract === pool && c.key === 'PoolEmis')!
      expect(poolEmis.durability).toBe('persistent')
      const entries = (poolEmis.valWire as Extract<xdr.ScValWire, { type: 17 }>).map!
      expect(entries.map((e) => [e.key.type, e.val.type])).toEqual(entries.map(() => [3, 5]))
      const ids = entries.map((e) => (e.key as Extract<xdr.ScValWire, { type: 3 }>).u32)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      const shares = new Map(
        entries.map((e) => [(e.key as { u32: number }).u32, (e.val as { u64: bigint }).u64]),
      )
      const total = [...shares.values()].reduce((a, b) => a + b, 0n)
      const emis = new Map<number, { eps: bigint; expiration: bigint; index: bigint; last_time: bigint }>()
      for (const tx of txs) {
        if (!tx.successful) continue
        for (const c of tx.changes)
          if (
            c.contract === pool &&
            keyTag(c) === 'EmisData' &&
            c.kind !== 'state' &&
            tx.fn !== 'gulp_emissions'
          )
            emis.set((c.key as [string, number])[1], c.val as never)
        if (tx.fn !== 'gulp_emissions') continue
        gulps++
        const now = closeTimeOf.get(tx.ledger)!
        const events = tx.events.map((e) => [e.topics.map(sym), sym(e.value)])
        const amount = events.at(-1)![1] as bigint
        expect(events.at(-1)![0]).toEqual(['gulp_emissions'])
        expect(events.slice(0, -1).map((e) => e[0])).toEqual(ids.map(() => ['reserve_emission_update']))
        ids.forEach((id, k) => {
          const written = tx.changes.find(
            (c) => keyTag(c) === 'EmisData' && (c.key as unknown[])[1] === id && c.kind !== 'state',
          )!
          expect(written.durability).toBe('persistent')
          expect(fieldNames(written.valWire)).toEqual(['eps', 'expiration', 'index', 'last_time'])
          const prev = emis.get(id)
          // manager.rs: share of the new emissions, plus what the old eps had left to emit, over a week.
          let left = (((shares.get(id)! * S7) / total) * amount) / S7
          let index = 0n
          if (prev) {
            index = prev.index
            if (prev.last_time < prev.expiration && prev.eps > 0n && now !== prev.last_time)
              expect(written.kind).toBe('updated')
            if (prev.expiration > now) left += (prev.eps * (prev.expiration - now)) / S7
          }
          const v = written.val as { eps: bigint; expiration: bigint; index: bigint; last_time: bigint }
          expect(v.eps).toBe((left * S7) / 604_800n)
          expect(v.expiration).toBe(now + 604_800n)
          expect(v.last_time).toBe(now)
          if (!prev) expect(v.index).toBe(index)
          else expect(v.index >= index).toBe(true)
          expect(events[k]![1]).toEqual([id, v.eps, v.expiration])
          emis.set(id, v)
        })
      }
    }
    expect(gulps).toBeGreaterThan(4)
  })

  it('brings EmisData and UserEmis up to date on every balance change, and claim pays out and resets accrued', () => {
    let userUpdates = 0
    let claims = 0
    for (const pool of pools) {
      const emis = new Map<number, { eps: bigint; expiration: bigint; index: bigint; last_time: bigint }>()
      const userEmis = new Map<string, { accrued: bigint; index: bigint }>()
      const positions = new Map<string, Positions>()
      const resData = new Map<string, ResData>()
      for (const tx of poolTxs(pool)) {
        if (!tx.successful) continue
        const now = closeTimeOf.get(tx.ledger)!
        const posState = (who: string) =>
          tx.changes.find(
            (c) => keyTag(c) === 'Positions' && c.kind === 'state' && (c.key as string[])[1] === who,
          )
        let claimed = 0n
        for (const c of tx.changes) {
          if (c.contract !== pool || c.kind === 'state' || c.kind === 'removed') continue
          const tag = keyTag(c)
          if (tag === 'EmisData' && tx.fn !== 'gulp_emissions') {
            const id = (c.key as [string, number])[1]
            const prev = emis.get(id)!
            const v = c.val as typeof prev
            const asset = assets[id >> 1]!
            const supply = id % 2 === 0 ? resData.get(asset)!.d_supply : resData.get(asset)!.b_supply
            const until = now > prev.expiration ? prev.expiration : now
            // distributor.rs update_emission_data, with the supply before the transaction.
            expect(v.index).toBe(prev.index + ((until - prev.last_time) * prev.eps * S7) / supply)
            expect(v.last_time).toBe(until)
          }
          if (tag === 'UserEmis') {
            const k = (c.key as [string, { reserve_id: number; user: string }])[1]
            const keyWire = xdr.ScVal.fromXDR(c.keyXdr, 'base64').toXdrObject() as Extract<
              xdr.ScValWire,
              { type: 16 }
            >
            expect(fieldNames(keyWire.vec![1]!)).toEqual(['reserve_id', 'user'])
            expect(fieldNames(c.valWire)).toEqual(['accrued', 'index'])
            const v = c.val as { accrued: bigint; index: bigint }
            const id = k.reserve_id
            const current = tx.changes.find(
              (x) => keyTag(x) === 'EmisData' && (x.key as unknown[])[1] === id && x.kind === 'updated',
            )
            const index = current ? (current.val as { index: bigint }).index : emis.get(id)!.index
            expect(v.index).toBe(index)
            const p = (posState(k.user)?.val as Positions | undefined) ?? positions.get(k.user)
            const i = String(id >> 1)
            const balance = p
              ? id % 2 === 0
                ? (p.liabilities[i] ?? 0n)
                : (p.collateral[i] ?? 0n) + (p.supply[i] ?? 0n)
              : 0n
            const prev = userEmis.get(`${k.user}|${id}`)
            const due = (prev?.accrued ?? 0n) + (balance * (index - (prev?.index ?? 0n))) / (S7 * S7)
            if (tx.fn === 'claim') {
              expect(v.accrued).toBe(0n)
              claimed += due
            } else expect(v.accrued).toBe(due)
            userEmis.set(`${k.user}|${id}`, v)
            userUpdates++
          }
        }
        if (tx.fn === 'claim') {
          claims++
          const events = tx.events.map((e) => [e.contractId, e.topics.map(sym), sym(e.value)] as const)
          const last = events.at(-1)!
          expect(last[1][0]).toBe('claim')
          expect((last[2] as [number[], bigint])[1]).toBe(claimed)
          if (claimed > 0n) {
            // BLND moves from the backstop (a contract, not the pool) to the claimer, before the claim event.
            const [name, from, to] = events[0]![1] as string[]
            expect([name, to]).toEqual(['transfer', last[1][1]])
            expect(from!.startsWith('C') && from !== pool).toBe(true)
            expect(events[0]![2]).toBe(claimed)
          }
        }
        for (const c of tx.changes) {
          if (c.contract !== pool || (c.kind !== 'created' && c.kind !== 'updated')) continue
          if (keyTag(c) === 'EmisData') emis.set((c.key as [string, number])[1], c.val as never)
          if (keyTag(c) === 'ResData') resData.set((c.key as string[])[1]!, c.val as ResData)
          if (keyTag(c) === 'Positions') positions.set((c.key as string[])[1]!, c.val as Positions)
        }
      }
    }
    expect(userUpdates).toBeGreaterThan(100)
    expect(claims).toBeGreaterThan(0)
  })
})
