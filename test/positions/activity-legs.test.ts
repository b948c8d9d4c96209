import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { buildNetworkWatchList } from '../../src/indexer/ledger-pipeline.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import type { TestApp } from '../support/app.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'
import { type AmmModel, buildAmmModel, pairStateAt } from './amm-reference-model.ts'
import { decimal, latestAtOrBefore, roundHalfEven } from './reference-model.ts'

const MAX_PRICE_AGE_S = 3600
// Busy pairs and vaults beside the other protocols, so their actions mix in every page.
const DEVNET = {
  seed: 'activity-legs',
  ledgers: 500,
  accounts: 30,
  activity: 0.02,
  ammActivity: 0.08,
  yieldActivity: 0.08,
  startLedger: 3000,
}

/** One token an action moved, from its account's side, as its event states it. */
interface RefLeg {
  role: 'asset' | 'shares'
  direction: 'sent' | 'received' | 'minted' | 'burnt'
  asset: string
  raw: bigint
}

interface RefMove {
  protocol: 'ammprotocol' | 'yieldprotocol'
  type: string
  account: string
  ledger: number
  txHash: string
  eventIndex: number
  legs: RefLeg[]
}

/**
 * What a swap, a liquidity change, a vault deposit or withdrawal moved, read here from the devnet's
 * events with the SDK (Soroswap contracts/pair/src/event.rs: `["SoroswapPair", deposit|withdraw|swap]`
 * with a map of amounts and `to`; DeFindex vault/src/events.rs: `["DeFindexVault", deposit|withdraw]`
 * with the amounts in the vault's asset order, which `total_managed_funds_before` names). A pair's
 * tokens are the ones its own instance entry names (the AMM reference model's reading).
 */
function readMoves(devnet: Devnet, amm: AmmModel): RefMove[] {
  const network = devnet.chain.network
  const watch = buildNetworkWatchList(network)
  const watched = new Set(watch.strkeys.filter((_, i) => watch.holders[i] === null))
  const pairs = new Set(Object.keys(network.ammprotocol.pairs))
  const vaults = new Set(
    network.contracts.yieldprotocol.filter((c) => c.kind === 'defindex-vault').map((c) => c.address),
  )
  const out: RefMove[] = []
  for (const ledger of decodeLedgers(devnet.chain)) {
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      tx.events
        .filter((e) => watched.has(e.contractId))
        .forEach((event, eventIndex) => {
          const [first, name] = event.topics.map((x) => scValToNative(xdr.ScVal.fromXDR(x, 'base64')))
          // biome-ignore lint/suspicious/noExplicitAny: the event's native map
          const data = scValToNative(xdr.ScVal.fromXDR(event.value, 'base64')) as any
          const where = { ledger: ledger.sequence, txHash: tx.hash, eventIndex }
          if (pairs.has(event.contractId) && first === 'SoroswapPair') {
            const state = pairStateAt(amm, event.contractId, ledger.sequence)!
            const [t0, t1] = [state.token0, state.token1]
            if (name === 'deposit' || name === 'withdraw') {
              const add = name === 'deposit'
              const lp: RefLeg = {
                role: 'shares',
                direction: add ? 'minted' : 'burnt',
                asset: event.contractId,
                raw: data.liquidity,
              }
              const side = add ? 'sent' : 'received'
              const tokens: RefLeg[] = [
                { role: 'asset', direction: side, asset: t0, raw: data.amount_0 },
                { role: 'asset', direction: side, asset: t1, raw: data.amount_1 },
              ]
              out.push({
                protocol: 'ammprotocol',
                type: add ? 'add_liquidity' : 'remove_liquidity',
                account: data.to,
                ...where,
                legs: add ? [...tokens, lp] : [lp, ...tokens],
              })
            } else if (name === 'swap') {
              const legs: RefLeg[] = []
              for (const [key, asset, direction] of [
                ['amount_0_in', t0, 'sent'],
                ['amount_1_in', t1, 'sent'],
                ['amount_0_out', t0, 'received'],
                ['amount_1_out', t1, 'received'],
              ] as const)
                if (data[key] > 0n) legs.push({ role: 'asset', direction, asset, raw: data[key] })
              out.push({ protocol: 'ammprotocol', type: 'swap', account: data.to, ...where, legs })
            }
          } else if (vaults.has(event.contractId) && first === 'DeFindexVault') {
            if (name !== 'deposit' && name !== 'withdraw') return
            const deposit = name === 'deposit'
            const assets = (data.total_managed_funds_before as Array<{ asset: string }>).map((f) => f.asset)
            const amounts = (deposit ? data.amounts : data.amounts_withdrawn) as bigint[]
            const underlying = amounts.map(
              (raw, i): RefLeg => ({
                role: 'asset',
                direction: deposit ? 'sent' : 'received',
                asset: assets[i]!,
                raw,
              }),
            )
            const shares: RefLeg = {
              role: 'shares',
              direction: deposit ? 'minted' : 'burnt',
              asset: event.contractId,
              raw: deposit ? data.df_tokens_minted : data.df_tokens_burned,
            }
            out.push({
              protocol: 'yieldprotocol',
              type: name,
              account: deposit ? data.depositor : data.withdrawer,
              ...where,
              legs: deposit ? [...underlying, shares] : [shares, ...underlying],
            })
          }
        })
    }
  }
  return out
}

describe('activities name what they moved: Soroswap and DeFindex legs against the events', () => {
  let world: IndexedDevnet
  let devnet: Devnet
  let amm: AmmModel
  let moves: RefMove[]
  let t: TestApp

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { maxPriceAgeS: MAX_PRICE_AGE_S, batchSize: 100 })
    devnet = world.devnet
    amm = buildAmmModel(devnet.chain)
    moves = readMoves(devnet, amm)
    t = world.t
  }, 240_000)

  afterAll(async () => {
    await world?.close()
  })

  const get = (url: string) => world.get(url)

  /**
   * USD of an amount at a ledger from the reference model's own reading of Reflector: the feed the
   * network description names for the asset, or exactly one dollar when it declares a USD peg.
   * Null with the reason otherwise.
   */
  const expectedUsd = (asset: string, amount: bigint, ledger: number) => {
    const network = devnet.chain.network
    const decimals = network.assets[asset]!.decimals
    // The description's own source for the asset: a declared USD peg, or its feed.
    if (network.assets[asset]!.price_peg === 'USD')
      return { usd: roundHalfEven(amount, 10n ** BigInt(decimals - 7)), reason: null }
    const feed = network.assets[asset]!.price_feed
    const row = feed
      ? latestAtOrBefore(amm.base.prices.get(`${feed.oracle}|${feed.asset}`), ledger)
      : undefined
    if (!row) return { usd: null, reason: 'price_missing' }
    if (amm.base.closeTimes.get(ledger)! - Math.floor(row.tsMs / 1000) > MAX_PRICE_AGE_S)
      return { usd: null, reason: 'price_stale' }
    return {
      usd: roundHalfEven(amount * row.price, 10n ** BigInt(decimals + row.decimals - 7)),
      reason: null,
    }
  }

  it('every swap, liquidity change, deposit and withdrawal: each leg in its units and in USD at its ledger', async () => {
    const network = devnet.chain.network
    const kinds = new Set(moves.map((m) => `${m.protocol}/${m.type}`))
    expect([...kinds].sort()).toEqual([
      'ammprotocol/add_liquidity',
      'ammprotocol/remove_liquidity',
      'ammprotocol/swap',
      'yieldprotocol/deposit',
      'yieldprotocol/withdraw',
    ])
    // Every such action the store holds is one read here from the events: none is left unchecked.
    const stored = await t.database.db
      .selectFrom('activities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', 'in', ['add_liquidity', 'remove_liquidity', 'swap', 'deposit', 'withdraw'])
      .where('protocol', 'in', ['ammprotocol', 'yieldprotocol'])
      .executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(moves.length)

    const counts = { priced: 0, unpriced: 0, pegged: 0, bothSides: 0 }
    const stablecoins = Object.values(network.vaultprotocol.denominations).map((d) => d.debt_asset)
    for (const m of moves) {
      const { status, body } = await get(
        `/v1/users/${m.account}/activities?protocol=${m.protocol}&type=${m.type}&from_ledger=${m.ledger}&to_ledger=${m.ledger}&limit=500`,
      )
      expect(status).toBe(200)
      const where = `${m.type} ${m.txHash}/${m.eventIndex}`
      const got = (
        body.data.activities as Array<{
          tx_hash: string
          event_index: number
          legs: unknown[]
          amount_usd: string | null
          usd_unavailable_reason: string | null
        }>
      ).find((a) => a.tx_hash === m.txHash && a.event_index === m.eventIndex)
      expect(got, where).toBeDefined()
      const want = m.legs.map((leg) => {
        const info = network.assets[leg.asset]
        const decimals = leg.role === 'shares' ? 7 : info!.decimals
        const value = leg.role === 'asset' ? expectedUsd(leg.asset, leg.raw, m.ledger) : null
        return {
          role: leg.role,
          direction: leg.direction,
          asset: leg.asset,
          symbol: info?.symbol ?? null,
          amount_raw: leg.raw.toString(),
          amount: decimal(leg.raw, decimals),
          amount_usd: value?.usd == null ? null : decimal(value.usd, 7),
          usd_unavailable_reason: value === null ? 'protocol_token' : value.reason,
        }
      })
      expect(got!.legs, where).toEqual(want)
      if (
        m.type === 'swap' &&
        want.some((l) => l.direction === 'sent') &&
        want.some((l) => l.direction === 'received')
      )
        counts.bothSides++
      // The action's worth: its assets sent (a swap's input, a deposit), else those received.
      const assets = want.filter((l) => l.role === 'asset')
      const sent = assets.filter((l) => l.direction === 'sent')
      const counted = sent.length > 0 ? sent : assets.filter((l) => l.direction === 'received')
      const unpriced = counted.find((l) => l.amount_usd === null)
      if (unpriced) {
        expect(got, where).toMatchObject({
          amount_usd: null,
          usd_unavailable_reason: unpriced.usd_unavailable_reason,
        })
        counts.unpriced++
      } else {
        const total = counted.reduce((sum, l) => sum + BigInt(l.amount_usd!.replace('.', '')), 0n)
        expect(got, where).toMatchObject({ amount_usd: decimal(total, 7), usd_unavailable_reason: null })
        counts.priced++
        if (counted.some((l) => stablecoins.includes(l.asset))) counts.pegged++
      }
    }
    expect(counts.priced, 'priced actions').toBeGreaterThan(counts.unpriced)
    expect(
      counts.pegged,
      'actions worth an FxDAO stablecoin, priced as the vault positions price it',
    ).toBeGreaterThan(0)
    expect(counts.bothSides, 'swaps with both legs').toBe(moves.filter((m) => m.type === 'swap').length)
  }, 180_000)

  it("the series adds up the actions' worth as the list shows it; close times are RFC 3339", async () => {
    const account = moves.map((m) => m.account).find((a) => a.startsWith('G'))!
    const listed: Array<{ closed_at: string; amount_usd: string | null; legs: Array<{ role: string }> }> = []
    let cursor: string | null = null
    do {
      const page = await get(`/v1/users/${account}/activities?limit=50${cursor ? `&cursor=${cursor}` : ''}`)
      listed.push(...page.body.data.activities)
      cursor = page.body.meta.next_cursor
    } while (cursor !== null)
    expect(listed.length).toBeGreaterThan(0)
    const series = await get(`/v1/users/${account}/activities/series?interval=day`)
    const volume = listed.reduce(
      (s, a) => s + (a.amount_usd === null ? 0n : BigInt(a.amount_usd.replace('.', ''))),
      0n,
    )
    const buckets = series.body.data.buckets as Array<{
      count: number
      volume_usd: string | null
      unpriced_count: number
    }>
    expect(buckets.reduce((s, b) => s + b.count, 0)).toBe(listed.length)
    expect(buckets.reduce((s, b) => s + b.unpriced_count, 0)).toBe(
      listed.filter((a) => a.amount_usd === null).length,
    )
    expect(
      buckets.reduce((s, b) => s + (b.volume_usd === null ? 0n : BigInt(b.volume_usd.replace('.', ''))), 0n),
    ).toBe(volume)
    for (const a of listed) expect(a.closed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
  })
})
