import { Address, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDevnetChain } from '../../src/devnet/devnet.ts'
import {
  assets,
  chain,
  fieldNames,
  keyTag,
  LEDGERS,
  ledgers,
  loadBlendLedgers,
  oracle,
  type Positions,
  pools,
  S7,
  START,
  sym,
} from './blend-layout-support.ts'
import {
  ceilDiv,
  expectedAccrual,
  liabilitiesOf,
  type ResConfig,
  type ResData,
  supplyOf,
} from './blend-reference.ts'
import type { DecodedChange } from './decode-ledgers.ts'

// Blend v2 pools (blend-capital/blend-contracts-v2, pool/src), checked on the XDR decoded with the
// SDK; the formulas are written again here from the contract source, not taken from the devnet.
beforeAll(loadBlendLedgers)

describe('the devnet writes Blend v2 pools as blend-contracts-v2 does: auctions, exits, failures and lookups', () => {
  it('auctions an unhealthy borrower (new_auction, temporary Auction entry) and a liquidator fills it with request 6', () => {
    // Oracle prices by asset, as the Reflector update events publish them.
    const prices = new Map<string, bigint>()
    let auctions = 0
    let fills = 0
    for (const pool of pools) {
      const positions = new Map<string, Positions>()
      const resData = new Map<string, ResData>()
      const configs = new Map<string, ResConfig>()
      let bstopRate = 0n
      const open = new Map<
        string,
        { bid: Record<string, bigint>; block: number; lot: Record<string, bigint> }
      >()
      for (const l of ledgers) {
        for (const tx of l.txs) {
          for (const e of tx.events) {
            if (e.contractId !== oracle) continue
            const update = (sym(e.value) as { update_data: [string, bigint][] }).update_data
            for (const [asset, price] of update) prices.set(asset, price)
          }
          if (!tx.successful) continue
          const now = BigInt(l.closeTime)
          const names = tx.events.filter((e) => e.contractId === pool).map((e) => sym(e.topics[0]!) as string)
          if (names.includes('new_auction')) {
            auctions++
            const e = tx.events.find((x) => x.contractId === pool)!
            expect(e.topicsWire.map((t) => t.type)).toEqual([15, 3, 18])
            const [, type, user] = e.topics.map(sym) as [string, number, string]
            expect(type).toBe(0)
            const dataWire = (e.valueWire as Extract<xdr.ScValWire, { type: 16 }>).vec!
            expect(dataWire[0]!.type).toBe(3)
            expect(fieldNames(dataWire[1]!)).toEqual(['bid', 'block', 'lot'])
            const [, auction] = sym(e.value) as [
              number,
              { bid: Record<string, bigint>; block: number; lot: Record<string, bigint> },
            ]
            expect(auction.block).toBe(l.sequence + 1)
            const entry = tx.changes.find((c) => keyTag(c) === 'Auction')!
            expect([entry.kind, entry.durability]).toEqual(['created', 'temporary'])
            const keyWire = xdr.ScVal.fromXDR(entry.keyXdr, 'base64').toXdrObject() as Extract<
              xdr.ScValWire,
              { type: 16 }
            >
            expect(fieldNames(keyWire.vec![1]!)).toEqual(['auct_type', 'user'])
            expect((entry.key as [string, { auct_type: number; user: string }])[1]).toEqual({
              auct_type: 0,
              user,
            })
            expect(entry.val).toEqual(auction)
            // The borrower was unhealthy at this ledger: liability_base > collateral_base (health_factor.rs).
            const p = positions.get(user)!
            let collateralBase = 0n
            let liabilityBase = 0n
            assets.forEach((asset, i) => {
              const c = configs.get(asset)!
              const d = expectedAccrual(resData.get(asset)!, c, bstopRate, now)
              const b = p.collateral[String(i)] ?? 0n
              const dt = p.liabilities[String(i)] ?? 0n
              const price = prices.get(asset)!
              if (b > 0n)
                collateralBase +=
                  (price * ((supplyOf({ ...d, b_supply: b }) * BigInt(c.c_factor as number)) / S7)) / S7
              if (dt > 0n)
                liabilityBase += ceilDiv(
                  price * ceilDiv(liabilitiesOf({ ...d, d_supply: dt }) * S7, BigInt(c.l_factor as number)),
                  S7,
                )
            })
            expect(liabilityBase).toBeGreaterThan(collateralBase)
            open.set(user, auction)
          }
          if (names.includes('fill_auction')) {
            fills++
            expect(tx.fn).toBe('submit')
            // Only the fill event: no supply/borrow/repay/withdraw event and no transfer.
            expect(tx.events).toHaveLength(1)
            const e = tx.events[0]!
            const [, type, user] = e.topics.map(sym) as [string, number, string]
            expect(type).toBe(0)
            const [filler, percent, filled] = sym(e.value) as [
              string,
              bigint,
              { bid: Record<string, bigint>; block: number; lot: Record<string, bigint> },
            ]
            expect(percent).toBe(100n)
            expect(filler).not.toBe(user)
            const auction = open.get(user)!
            const state = tx.changes.find((c) => keyTag(c) === 'Auction' && c.kind === 'state')!
            expect(state.val).toEqual(auction)
            expect(tx.changes.find((c) => keyTag(c) === 'Auction' && c.kind === 'removed')?.durability).toBe(
              'temporary',
            )
            // auction.rs scale_auction: the lot grows 0.5% a block to 200 blocks, then the bid shrinks.
            const dif = BigInt(l.sequence - auction.block)
            const lotMod = dif > 200n ? S7 : dif * 50_000n
            const bidMod = dif > 200n ? (dif < 400n ? S7 - (dif - 200n) * 50_000n : 0n) : S7
            const scale = (m: Record<string, bigint>, mod: bigint, up: boolean) =>
              Object.fromEntries(
                Object.entries(m)
                  .map(([k, v]) => [k, up ? ceilDiv(v * mod, S7) : (v * mod) / S7] as const)
                  .filter(([, v]) => v > 0n),
              )
            expect(filled).toEqual({
              bid: scale(auction.bid, bidMod, true),
              block: auction.block,
              lot: scale(auction.lot, lotMod, false),
            })
            const written = tx.changes.filter((c) => keyTag(c) === 'Positions' && c.kind !== 'state')
            expect(written.map((c) => (c.key as string[])[1])).toEqual([user, filler])
            const positionsOf = (who: string) =>
              structuredClone(positions.get(who) ?? { collateral: {}, liabilities: {}, supply: {} })
            const expectedUser = positionsOf(user)
            const expectedFiller = positionsOf(filler)
            for (const [asset, v] of Object.entries(filled.lot)) {
              const i = String(assets.indexOf(asset))
              expectedUser.collateral[i] = expectedUser.collateral[i]! - v
              if (expectedUser.collateral[i] === 0n) delete expectedUser.collateral[i]
              expectedFiller.collateral[i] = (expectedFiller.collateral[i] ?? 0n) + v
            }
            for (const [asset, v] of Object.entries(filled.bid)) {
              const i = String(assets.indexOf(asset))
              expectedUser.liabilities[i] = expectedUser.liabilities[i]! - v
              if (expectedUser.liabilities[i] === 0n) delete expectedUser.liabilities[i]
              expectedFiller.liabilities[i] = (expectedFiller.liabilities[i] ?? 0n) + v
            }
            expect(written[0]!.val).toEqual(expectedUser)
            expect(written[1]!.val).toEqual(expectedFiller)
            open.delete(user)
          }
          for (const c of tx.changes) {
            if (c.contract !== pool || (c.kind !== 'created' && c.kind !== 'updated')) continue
            if (keyTag(c) === 'ResData') resData.set((c.key as string[])[1]!, c.val as ResData)
            if (keyTag(c) === 'ResConfig') configs.set((c.key as string[])[1]!, c.val as ResConfig)
            if (keyTag(c) === 'Positions') positions.set((c.key as string[])[1]!, c.val as Positions)
            if (c.key === 'instance')
              bstopRate = BigInt(
                (Object.fromEntries(c.val as [string, unknown][]).Config as { bstop_rate: number })
                  .bstop_rate,
              )
          }
        }
      }
    }
    expect(auctions).toBeGreaterThan(2)
    expect(fills).toBeGreaterThan(2)
  })

  it('keeps a fully exited position as an entry with empty maps', () => {
    const empty = ledgers
      .flatMap((l) => l.txs)
      .flatMap((t) => t.changes)
      .filter((c) => keyTag(c) === 'Positions' && c.kind === 'updated')
      .filter((c) => {
        const p = c.val as Positions
        return (
          Object.keys(p.collateral).length +
            Object.keys(p.liabilities).length +
            Object.keys(p.supply).length ===
          0
        )
      })
    expect(empty.length).toBeGreaterThan(0)
    expect(
      ledgers
        .flatMap((l) => l.txs)
        .flatMap((t) => t.changes)
        .filter((c) => keyTag(c) === 'Positions' && c.kind === 'removed'),
    ).toEqual([])
  })

  it('fails some submits, and a failed transaction changes nothing and emits nothing', () => {
    const failed = ledgers.flatMap((l) => l.txs).filter((t) => t.fn === 'submit' && !t.successful)
    expect(failed.length).toBeGreaterThan(0)
    for (const t of failed) {
      expect(t.changes).toEqual([])
      expect(t.events).toEqual([])
    }
  })

  it('leaves dormant positions untouched for long stretches while their reserves accrue', () => {
    const lastWrite = new Map<string, { ledger: number; positions: Positions }>()
    const rates = new Map<string, { ledger: number; d_rate: bigint; b_rate: bigint }[]>()
    for (const l of ledgers)
      for (const t of l.txs)
        for (const c of t.changes) {
          if (keyTag(c) === 'Positions' && (c.kind === 'created' || c.kind === 'updated'))
            lastWrite.set(`${c.contract}|${(c.key as string[])[1]}`, {
              ledger: l.sequence,
              positions: c.val as Positions,
            })
          if (keyTag(c) === 'ResData' && (c.kind === 'created' || c.kind === 'updated')) {
            const k = `${c.contract}|${(c.key as string[])[1]}`
            const list = rates.get(k) ?? []
            list.push({ ledger: l.sequence, ...(c.val as ResData) })
            rates.set(k, list)
          }
        }
    const end = START + LEDGERS - 1
    let dormant = 0
    for (const [key, w] of lastWrite) {
      if (end - w.ledger < 1_000) continue
      const pool = key.split('|')[0]!
      for (const [index, shares] of Object.entries(w.positions.liabilities)) {
        const list = rates.get(`${pool}|${assets[Number(index)]}`)!
        const at = list.filter((r) => r.ledger <= w.ledger).at(-1)!
        if (shares > 0n && list.at(-1)!.d_rate > at.d_rate) dormant++
      }
    }
    expect(dormant).toBeGreaterThan(0)
  })

  it('answers getLedgerEntries for the pools as the last written entries', () => {
    const latest = new Map<string, DecodedChange>()
    for (const l of ledgers)
      for (const t of l.txs)
        for (const c of t.changes)
          if (
            pools.includes(c.contract) &&
            c.durability === 'persistent' &&
            (c.kind === 'created' || c.kind === 'updated')
          )
            latest.set(`${c.contract}|${c.keyXdr}`, c)
    expect(latest.size).toBeGreaterThan(20)
    for (const [id, c] of latest) {
      const [contract] = id.split('|') as [string]
      const key: xdr.LedgerKeyWire = {
        type: 6,
        contractData: {
          contract: new Address(contract).toScAddress().toXdrObject(),
          key: xdr.ScVal.fromXDR(c.keyXdr, 'base64').toXdrObject(),
          durability: 1,
        },
      }
      const entry = chain.getEntry(key)
      expect(entry).toBeDefined()
      const data = xdr.LedgerEntryData.fromXDR(entry!.xdr, 'base64').toXdrObject()
      if (data.type !== 6) throw new Error('not contract data')
      expect(xdr.ScVal.fromXdrObject(data.contractData.val).toXDR('base64')).toBe(
        xdr.ScVal.fromXdrObject(c.valWire!).toXDR('base64'),
      )
    }
  })

  it('is deterministic: the same seed writes byte-identical ledgers', () => {
    const a = createDevnetChain({ seed: 'blend-det', ledgers: 400, accounts: 40, activity: 0.05 })
    const b = createDevnetChain({ seed: 'blend-det', ledgers: 400, accounts: 40, activity: 0.05 })
    let lending = 0
    for (let s = a.oldestLedger(); s <= a.latestLedger(); s++) {
      expect(a.ledgerMetaXdr(s).equals(b.ledgerMetaXdr(s))).toBe(true)
      lending += a
        .getLedger(s)!
        .events.filter((e) =>
          a.network.contracts.lendingprotocol.some((p) => p.address === e.contractId),
        ).length
    }
    expect(lending).toBeGreaterThan(10)
  })
})
