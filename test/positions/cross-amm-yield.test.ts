import { Keypair, scValToNative, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import type { TestApp } from '../support/app.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import { type AmmModel, ammSnapshotAt, buildAmmModel, expectAmm, pairStateAt } from './amm-reference-model.ts'
import { expectLending } from './lending-expect.ts'
import { buildLendingModel, type LendingModel, lendingSnapshotAt } from './lending-reference-model.ts'
import { decimal, expectVault, latestAtOrBefore, roundHalfEven, snapshotAt } from './reference-model.ts'
import {
  buildYieldModel,
  expectYield,
  stateAt,
  vaultFundsAt,
  type YieldModel,
  yieldSnapshotAt,
} from './yield-reference-model.ts'

const MAX_PRICE_AGE_S = 3600
const START = 5000
// Every protocol active: Soroswap pairs and DeFindex vaults beside FxDAO and Blend.
const DEVNET = {
  seed: 'cross-amm-yield',
  ledgers: 1200,
  accounts: 50,
  activity: 0.03,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: START,
}

/** Blend pool requests, whose second topic is the account (blend-contracts-v2 pool/src/events.rs). */
const REQUESTS = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']

/** One action as read here from the XDR: protocol, type, the account it is listed under, where it sits. */
interface RefAction {
  protocol: string
  type: string
  account: string
  ledger: number
  txHash: string
  txIndex: number
  eventIndex: number
  /** Some of the protocol's own fields the activity's `details` must carry (integers as decimal strings). */
  details?: Record<string, string>
  /** Another account whose activities list it: a transfer's receiver, a fill's filler, a debt's new owner. */
  also?: string
}

describe('across protocols with Soroswap and DeFindex activity: totals, TVL and activities', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let lending: LendingModel
  let amm: AmmModel
  let yieldModel: YieldModel
  let refs: RefAction[]
  let t: TestApp

  /**
   * Every action of the devnet from the envelopes and events, decoded with the SDK: pool events
   * (Blend), pair events (Soroswap pair/src/event.rs, token transfers between accounts), vault
   * events (DeFindex vault/src/events.rs, df-token transfers), FxDAO calls (0.6.0 signatures).
   * `eventIndex` counts the watched contracts' events of the transaction.
   */
  const buildRefs = (): RefAction[] => {
    const network = devnet.chain.network
    const watch = buildNetworkWatchList(network)
    const watched = new Set(watch.strkeys.filter((_, i) => watch.holders[i] === null))
    const pools = new Set(network.contracts.lendingprotocol.map((p) => p.address))
    const pairs = new Set(
      network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair').map((c) => c.address),
    )
    const vaults = new Set(
      network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault').map((c) => c.address),
    )
    const fxdao = network.contracts.vaultprotocol.address
    const out: RefAction[] = []
    for (const ledger of decodeLedgers(devnet.chain)) {
      for (const tx of ledger.txs) {
        if (!tx.successful) continue
        const where = { ledger: ledger.sequence, txHash: tx.hash, txIndex: tx.index }
        const events = tx.events.filter((e) => watched.has(e.contractId))
        events.forEach((event, eventIndex) => {
          const topics = event.topics.map((x) => scValToNative(xdr.ScVal.fromXDR(x, 'base64')))
          const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64'))
          const push = (
            protocol: string,
            type: string,
            account: string,
            details?: Record<string, string>,
            also?: string,
          ) =>
            out.push({
              protocol,
              type,
              account,
              eventIndex,
              ...where,
              ...(details ? { details } : {}),
              ...(also ? { also } : {}),
            })
          if (pools.has(event.contractId)) {
            const name = topics[0] as string
            if (name === 'fill_auction')
              push('lendingprotocol', name, topics[2] as string, undefined, (data as unknown[])[0] as string)
            else if (REQUESTS.includes(name) || name === 'new_auction')
              push('lendingprotocol', name, topics[2] as string)
            else if (name === 'claim') push('lendingprotocol', name, topics[1] as string)
          } else if (pairs.has(event.contractId)) {
            if (topics[0] === 'SoroswapPair' && (topics[1] === 'deposit' || topics[1] === 'withdraw'))
              // Their amounts are legs, checked in activity-legs.test.ts.
              push('ammprotocol', topics[1] === 'deposit' ? 'add_liquidity' : 'remove_liquidity', data.to)
            else if (topics[0] === 'SoroswapPair' && topics[1] === 'swap')
              push('ammprotocol', 'swap', data.to)
            else if (
              topics[0] === 'transfer' &&
              topics[1] !== event.contractId &&
              topics[2] !== event.contractId
            )
              push(
                'ammprotocol',
                'lp_transfer',
                topics[1] as string,
                { to: topics[2] as string },
                topics[2] as string,
              )
          } else if (vaults.has(event.contractId)) {
            if (topics[0] === 'transfer' && topics.length === 3)
              push(
                'yieldprotocol',
                'transfer',
                topics[1] as string,
                { to: topics[2] as string },
                topics[2] as string,
              )
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'deposit')
              push('yieldprotocol', 'deposit', data.depositor, {
                total_supply_before: decimal(data.total_supply_before, 7),
              })
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'withdraw')
              push('yieldprotocol', 'withdraw', data.withdrawer, {
                total_supply_before: decimal(data.total_supply_before, 7),
              })
            else if (topics[0] === 'DeFindexVault' && topics[1] === 'rebalance')
              push('yieldprotocol', 'rebalance', event.contractId)
          }
        })
        if (tx.contract !== fxdao) continue
        const base = events.length
        const push = (type: string, i: number, account: string, also?: string) =>
          out.push({
            protocol: 'vaultprotocol',
            type,
            account,
            eventIndex: base + i,
            ...where,
            ...(also ? { also } : {}),
          })
        // biome-ignore lint/suspicious/noExplicitAny: native ScVal arguments of several shapes
        const a = tx.args as any[]
        if (tx.fn === 'new_vault' || tx.fn === 'redeem') push(tx.fn, 0, tx.fn === 'redeem' ? a[0] : a[1])
        else if (['increase_collateral', 'withdraw_collateral', 'increase_debt', 'pay_debt'].includes(tx.fn))
          push(tx.fn, 0, a[1].account)
        else if (tx.fn === 'transfer_debt') push(tx.fn, 0, a[1].account, a[2])
        else if (tx.fn === 'liquidate') {
          push('liquidate', 0, a[0])
          const removed = tx.changes.filter(
            (c) => c.kind === 'removed' && Array.isArray(c.key) && (c.key as unknown[])[0] === 'Vault',
          )
          for (const [i, c] of removed.entries())
            push('liquidated', 1 + i, ((c.key as unknown[])[1] as string[])[0]!)
        }
      }
    }
    return out
  }

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: MAX_PRICE_AGE_S })
    devnet = world.devnet
    lending = buildLendingModel(devnet.chain)
    amm = buildAmmModel(devnet.chain)
    yieldModel = buildYieldModel(devnet.chain)
    refs = buildRefs()
    t = world.t
  }, 240_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = (url: string) => world.get(url)

  /** USD of an amount at a ledger, from the reference model's own reading of Reflector. */
  const expectedUsd = (asset: string, amount: bigint, ledger: number) => {
    const feed = devnet.chain.network.assets[asset]?.price_feed
    const decimals = devnet.chain.network.assets[asset]!.decimals
    // Declared pegged to USD: one dollar a unit, the amount itself at 7 decimals.
    if (devnet.chain.network.assets[asset]?.price_peg === 'USD')
      return roundHalfEven(amount, 10n ** BigInt(decimals - 7))
    const row = feed
      ? latestAtOrBefore(lending.base.prices.get(`${feed.oracle}|${feed.asset}`), ledger)
      : undefined
    if (!row) return null
    const close = lending.base.closeTimes.get(ledger)!
    if (close - Math.floor(row.tsMs / 1000) > MAX_PRICE_AGE_S) return null
    return roundHalfEven(amount * row.price, 10n ** BigInt(decimals + row.decimals - 7))
  }

  it('stores only the activity types each module declares; the type filter refuses any other, naming them', async () => {
    const stored = await t.database.db
      .selectFrom('activities')
      .select(['protocol', 'type'])
      .distinct()
      .execute()
    expect(new Set(stored.map((r) => r.protocol))).toEqual(
      new Set(['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol']),
    )
    const declared = new Map(PROTOCOLS.map((m) => [m.name, m.activityTypes]))
    for (const row of stored)
      expect(declared.get(row.protocol), `${row.protocol} ${row.type}`).toContain(row.type)

    // The types of each protocol, as its contract's source names them (docs/api.md).
    const lendingTypes =
      'supply, withdraw, supply_collateral, withdraw_collateral, borrow, repay, new_auction, fill_auction, claim'
    const every = [
      'new_vault increase_collateral withdraw_collateral increase_debt pay_debt redeem liquidate liquidated transfer_debt',
      lendingTypes.replaceAll(',', ''),
      'add_liquidity remove_liquidity swap lp_transfer',
      'deposit withdraw transfer rebalance',
    ].flatMap((line) => line.split(' '))
    const address = Keypair.random().publicKey()
    const unknown = await get(`/v1/users/${address}/activities?type=nonexistent`)
    expect(unknown.status).toBe(400)
    const [detail] = unknown.body.error.details as Array<{ field: string; message: string }>
    expect(detail!.field).toBe('type')
    const listed = /^type must be one of (.*)$/.exec(detail!.message)?.[1]?.split(', ')
    expect(new Set(listed)).toEqual(new Set(every))
    expect(listed).toHaveLength(new Set(every).size)

    const other = await get(`/v1/users/${address}/activities?protocol=lendingprotocol&type=swap`)
    expect(other.status).toBe(400)
    expect(other.body.error.details).toEqual([
      { field: 'type', message: `type must be one of ${lendingTypes} for protocol lendingprotocol` },
    ])

    const swapper = stored.some((r) => r.type === 'swap')
      ? (
          await t.database.db
            .selectFrom('activities')
            .select('account')
            .where('type', '=', 'swap')
            .limit(1)
            .executeTakeFirstOrThrow()
        ).account
      : address
    const swaps = await get(`/v1/users/${swapper}/activities?protocol=ammprotocol&type=swap`)
    expect(swaps.status).toBe(200)
    expect(swaps.body.data.activities.length).toBeGreaterThan(0)
    for (const a of swaps.body.data.activities)
      expect(a).toMatchObject({ protocol: 'ammprotocol', type: 'swap' })
  })

  it('all positions: AMM and yield sections are their endpoints, totals add every protocol', async () => {
    const last = devnet.latestLedger()
    const ammHolders = [...amm.snapshots.keys()]
    const yieldHolders = [...yieldModel.snapshots.keys()].filter((a) => a.startsWith('G'))
    const both = ammHolders.filter((a) => yieldHolders.includes(a))
    const sample = [...new Set([...both.slice(0, 3), ...ammHolders.slice(0, 2), ...yieldHolders.slice(0, 2)])]
    expect(ammHolders.length, 'LPs').toBeGreaterThan(0)
    expect(yieldHolders.length, 'vault holders').toBeGreaterThan(0)
    let priced = 0
    let withAmm = 0
    let withYield = 0
    for (const address of sample) {
      for (const pin of [START + 400, START + 800, last]) {
        const { status, body } = await get(`/v1/users/${address}/positions?as_of_ledger=${pin}`)
        expect(status, JSON.stringify(body)).toBe(200)
        const rows: Array<{ side: 'asset' | 'debt'; usd: string | null }> = []
        // The ledgers the sections that hold something were valued at (each its snapshot's own).
        const valuedAt = new Set<number>()
        const vaultSnap = snapshotAt(lending.base, address, pin)
        for (const [denomination, vault] of vaultSnap ? vaultSnap.vaults : []) {
          const v = expectVault(lending.base, devnet.chain, denomination, vault, {
            valuationLedger: vaultSnap!.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
            at: false,
          })
          rows.push({ side: 'asset', usd: v.collateral_usd }, { side: 'debt', usd: v.debt_usd })
          valuedAt.add(vaultSnap!.ledger)
        }
        const lendingSnap = lendingSnapshotAt(lending, address, pin)
        if (lendingSnap) {
          const exp = expectLending(lending, devnet.chain, address, lendingSnap, {
            at: false,
            ledger: lendingSnap.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
          })
          expect(body.data.protocols.lendingprotocol.data).toEqual(exp.data)
          for (const r of exp.data.positions) {
            rows.push({ side: r.position_type === 'borrow' ? 'debt' : 'asset', usd: r.amount_usd })
            valuedAt.add(lendingSnap.ledger)
          }
        }
        const ammSnap = ammSnapshotAt(amm, address, pin)
        const ammSection = body.data.protocols.ammprotocol
        expect(ammSection.as_of_ledger).toBe(ammSnap?.ledger ?? null)
        if (ammSnap) {
          const exp = expectAmm(amm, devnet.chain, address, ammSnap, {
            at: false,
            ledger: ammSnap.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
          })
          expect(ammSection.data).toEqual(exp.data)
          for (const r of exp.data.positions as Array<{ amount_usd: string | null }>) {
            rows.push({ side: 'asset', usd: r.amount_usd })
            valuedAt.add(ammSnap.ledger)
            withAmm++
          }
        } else expect(ammSection.data.positions).toEqual([])
        const yieldSnap = yieldSnapshotAt(yieldModel, address, pin)
        const yieldSection = body.data.protocols.yieldprotocol
        expect(yieldSection.as_of_ledger).toBe(yieldSnap?.ledger ?? null)
        if (yieldSnap) {
          const exp = expectYield(yieldModel, devnet.chain, address, yieldSnap, {
            at: false,
            ledger: yieldSnap.ledger,
            maxPriceAgeS: MAX_PRICE_AGE_S,
          })
          expect(yieldSection.data).toEqual(exp)
          for (const r of exp.positions) {
            rows.push({ side: 'asset', usd: r.amount_usd })
            valuedAt.add(yieldSnap.ledger)
            withYield++
          }
        } else expect(yieldSection.data.positions).toEqual([])
        for (const protocol of ['ammprotocol', 'yieldprotocol']) {
          const own = await get(`/v1/users/${address}/positions/${protocol}?as_of_ledger=${pin}`)
          expect(body.data.protocols[protocol].data).toEqual(own.body.data)
        }
        const sum = (side: 'asset' | 'debt') =>
          rows
            .filter((r) => r.side === side)
            .reduce<bigint | null>(
              (acc, r) => (acc === null || r.usd === null ? null : acc + BigInt(r.usd.replace('.', ''))),
              0n,
            )
        const held = rows.length > 0
        if (valuedAt.size > 1) {
          // Sections valued at different ledgers are never added up.
          expect(body.data.totals.assets_usd).toBeNull()
          expect(body.data.totals.net_usd).toBeNull()
          expect(body.data.totals.usd_unavailable_reason).toBe('valuation_ledgers_differ')
          continue
        }
        const [assets, debt] = [sum('asset'), sum('debt')]
        expect(body.data.totals.assets_usd, `${address} at ${pin}`).toBe(
          held && assets !== null ? decimal(assets, 7) : null,
        )
        expect(body.data.totals.debt_usd).toBe(held && debt !== null ? decimal(debt, 7) : null)
        expect(body.data.totals.net_usd).toBe(
          held && assets !== null && debt !== null ? decimal(assets - debt, 7) : null,
        )
        if (body.data.totals.net_usd !== null && (ammSnap || yieldSnap)) priced++
      }
    }
    expect(withAmm, 'AMM rows checked').toBeGreaterThan(0)
    expect(withYield, 'yield rows checked').toBeGreaterThan(0)
    expect(priced, 'priced totals with AMM or yield').toBeGreaterThan(2)
  }, 120_000)

  /** TVL at a ledger from the reference models: [asset, locked] sorted by asset, and the USD total. */
  const expectedTvl = (protocol: string, ledger: number) => {
    const network = devnet.chain.network
    const sums = new Map<string, bigint>()
    const add = (asset: string, amount: bigint) => sums.set(asset, (sums.get(asset) ?? 0n) + amount)
    // The newest entry used, and whether a contract's state was never seen.
    let asOf: number | null = null
    let partial = false
    const used = (l: number | null) => {
      if (l !== null) asOf = Math.max(asOf ?? 0, l)
    }
    if (protocol === 'ammprotocol') {
      for (const pair of amm.pairs) {
        const s = pairStateAt(amm, pair, ledger)
        if (!s) {
          partial = true
          continue
        }
        used(s.ledger)
        add(s.token0, s.reserve0)
        add(s.token1, s.reserve1)
      }
    } else {
      for (const vault of yieldModel.vaults) {
        if (!stateAt(yieldModel, `${vault}|VaultFee`, ledger)) {
          partial = true
          continue
        }
        const funds = vaultFundsAt(yieldModel, vault, ledger)
        used(funds.rateLedger)
        add(funds.asset, funds.total)
      }
    }
    let total: bigint | null = 0n
    const assets = [...sums]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([asset, locked]) => {
        const usd = expectedUsd(asset, locked, ledger)
        total = usd === null || total === null ? null : total + usd
        return {
          asset,
          locked: decimal(locked, network.assets[asset]!.decimals),
          locked_usd: usd === null ? null : decimal(usd, 7),
          borrowed: null,
        }
      })
    return {
      assets,
      tvl_usd: assets.length === 0 || total === null ? null : decimal(total, 7),
      asOf: asOf as number | null,
      partial,
    }
  }

  const shape = (a: Record<string, unknown>) => ({
    asset: a.asset,
    locked: a.locked,
    locked_usd: a.locked_usd,
    borrowed: a.borrowed,
  })

  it('TVL of the AMM and yield protocols at sampled ledgers and every bucket of a series', async () => {
    const last = devnet.latestLedger()
    let priced = 0
    for (const protocol of ['ammprotocol', 'yieldprotocol']) {
      let nonEmpty = 0
      for (const ledger of [START + 100, START + 500, START + 900, last - 3, last]) {
        const { status, body } = await get(`/v1/protocols/${protocol}/tvl?as_of_ledger=${ledger}`)
        expect(status, JSON.stringify(body)).toBe(200)
        const expected = expectedTvl(protocol, ledger)
        expect(body.data.ledger).toBe(ledger)
        expect(body.data.assets.map(shape), `${protocol} at ${ledger}`).toEqual(expected.assets)
        expect(body.data.tvl_usd).toBe(expected.tvl_usd)
        // Pairs and vaults lend nothing: no borrowed side at all, not a borrowed zero.
        expect(body.data.borrowed_usd).toBeNull()
        expect(body.meta.as_of_ledger).toBe(expected.asOf)
        expect(body.meta.partial_result).toBe(expected.partial)
        if (expected.assets.length > 0) nonEmpty++
        if (body.data.tvl_usd !== null) priced++
      }
      expect(nonEmpty, `${protocol} holds something`).toBeGreaterThan(2)
      const series = await get(`/v1/protocols/${protocol}/tvl?interval=hour`)
      expect(series.status).toBe(200)
      const points = series.body.data.points as Array<{
        starts_at: string
        closed_at: string | null
        ledger: number
        tvl_usd: string | null
        as_of_ledger: number | null
        partial_result: boolean
        assets: Record<string, unknown>[]
      }>
      const lastOfBucket = new Map<number, number>()
      for (let l = devnet.chain.oldestLedger(); l <= last; l++) {
        const close = lending.base.closeTimes.get(l)!
        lastOfBucket.set(close - (close % 3600), l)
      }
      expect(points.map((p) => [Date.parse(p.starts_at) / 1000, p.ledger])).toEqual([...lastOfBucket])
      for (const p of points)
        expect(p.closed_at).toBe(new Date(lending.base.closeTimes.get(p.ledger)! * 1000).toISOString())
      expect(points.length).toBeGreaterThan(1)
      for (const point of points) {
        const expected = expectedTvl(protocol, point.ledger)
        expect(point.assets.map(shape), `${protocol} bucket at ${point.ledger}`).toEqual(expected.assets)
        expect(point.tvl_usd).toBe(expected.tvl_usd)
        expect([point.as_of_ledger, point.partial_result]).toEqual([expected.asOf, expected.partial])
      }
    }
    expect(priced, 'priced TVL answers').toBeGreaterThan(3)
  }, 120_000)

  it('each sampled account pages through every action of every protocol exactly once, newest first', async () => {
    const protocolsOf = new Map<string, Set<string>>()
    for (const r of refs) {
      if (!r.account.startsWith('G')) continue
      const set = protocolsOf.get(r.account) ?? new Set<string>()
      set.add(r.protocol)
      protocolsOf.set(r.account, set)
    }
    const ranked = [...protocolsOf]
      .filter(([, set]) => set.has('ammprotocol') || set.has('yieldprotocol'))
      .sort(([, a], [, b]) => b.size - a.size)
    const sample = ranked.slice(0, 4).map(([account]) => account)
    expect(sample.length).toBeGreaterThan(1)
    expect(protocolsOf.get(sample[0]!)!.size, 'an account acting in several protocols').toBeGreaterThan(2)
    const seenProtocols = new Set<string>()
    let detailed = 0
    for (const account of sample) {
      const expected = refs
        .filter((r) => r.account === account || r.also === account)
        .sort((a, b) => b.ledger - a.ledger || b.txIndex - a.txIndex || b.eventIndex - a.eventIndex)
      const got: Array<{
        protocol: string
        type: string
        account: string
        ledger: number
        tx_hash: string
        event_index: number
        details: Record<string, unknown>
      }> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page = await get(`/v1/users/${account}/activities?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
        expect(page.status, JSON.stringify(page.body)).toBe(200)
        got.push(...page.body.data.activities)
        cursor = page.body.meta.next_cursor
        pages++
      } while (cursor !== null)
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 3)))
      const ids = got.map((a) => `${a.tx_hash}/${a.event_index}`)
      expect(new Set(ids).size, 'each action once').toBe(ids.length)
      expect(
        got.map((a) => [a.protocol, a.type, a.account, a.ledger, a.tx_hash, a.event_index]),
        account,
      ).toEqual(expected.map((r) => [r.protocol, r.type, r.account, r.ledger, r.txHash, r.eventIndex]))
      for (const [i, r] of expected.entries()) {
        seenProtocols.add(r.protocol)
        if (r.details) {
          expect(got[i]!.details, `${r.type} ${r.txHash}`).toMatchObject(r.details)
          detailed++
        }
      }
    }
    expect(detailed, 'AMM and yield actions with their own fields').toBeGreaterThan(3)
    expect(
      seenProtocols.has('ammprotocol') && seenProtocols.has('yieldprotocol'),
      'AMM and yield actions',
    ).toBe(true)
  }, 120_000)

  it("a transfer's receiver, a fill's filler and a debt's new owner see the action in their own activities", async () => {
    const withOther = refs.filter((r) => r.also !== undefined && r.also !== r.account)
    const kinds = new Set(withOther.map((r) => `${r.protocol}/${r.type}`))
    // The devnet moves LP tokens and df-tokens between accounts.
    expect(kinds).toContain('ammprotocol/lp_transfer')
    expect(kinds).toContain('yieldprotocol/transfer')
    for (const kind of kinds) {
      const r = withOther.find((x) => `${x.protocol}/${x.type}` === kind)!
      const { status, body } = await get(
        `/v1/users/${r.also}/activities?from_ledger=${r.ledger}&to_ledger=${r.ledger}&limit=100`,
      )
      expect(status).toBe(200)
      const listed = (
        body.data.activities as Array<{ tx_hash: string; event_index: number; account: string; type: string }>
      ).find((a) => a.tx_hash === r.txHash && a.event_index === r.eventIndex)
      // Listed for the receiver, still as the sender's (the owner's) action.
      expect(listed, kind).toMatchObject({ type: r.type, account: r.account })
    }
  })
})
