import { Address, hash, StrKey, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseNetworkConfig } from '../../src/chain/load-network.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { type DecodedChange, type DecodedLedger, type DecodedTx, decodeLedgers } from './decode-ledgers.ts'
import {
  type AmmContext,
  buildAmmContext,
  eventSymbols,
  native,
  type ReplayResult,
  replaySoroswap,
  touchesAmm,
} from './soroswap-replay.ts'

// Soroswap (soroswap/core: contracts/pair, factory, router; soroban-token-sdk 20 for the LP token),
// checked on the devnet's XDR decoded with the SDK. Expected values come from soroswap-replay.ts,
// an independent replay of the decoded events, or are written out here.
const START = 3_000
const LEDGERS = 1_200
const SWITCH = 3_500

let chain: DevnetChain
let ledgers: DecodedLedger[]
let txs: DecodedTx[]
let ctx: AmmContext
let amm: DecodedTx[]
let replay: ReplayResult

const SCV = { bool: 0, u32: 3, i128: 10, bytes: 13, string: 14, symbol: 15, vec: 16, map: 17, address: 18 }
const fieldsOf = (w: xdr.ScValWire | null) =>
  w?.type === 17 ? (w.map ?? []).map((e) => (e.key.type === 15 ? e.key.sym.toString() : '?')) : []
const mapTypes = (w: xdr.ScValWire | null) =>
  w?.type === 17 ? Object.fromEntries((w.map ?? []).map((e) => [native(e.key), e.val.type])) : {}

beforeAll(() => {
  chain = createDevnetChain({
    seed: 'soroswap',
    ledgers: LEDGERS,
    accounts: 400,
    activity: 0.005,
    ammActivity: 0.2,
    lendingActivity: 0,
    startLedger: START,
    protocolSwitchLedger: SWITCH,
  })
  ledgers = decodeLedgers(chain)
  txs = ledgers.flatMap((l) => l.txs)
  ctx = buildAmmContext(chain.network, txs)
  amm = txs.filter((t) => touchesAmm(ctx, t) || (t.fn === 'transfer' && ctx.tokens.has(t.contract)))
  replay = replaySoroswap(ctx, ledgers)
})

describe('the devnet describes its Soroswap contracts', () => {
  it('lists the factory, the router and six pairs in a description that validates, tokens in address order', () => {
    const net = parseNetworkConfig(JSON.parse(JSON.stringify(chain.network)), 'devnet')
    const kinds = net.contracts.ammprotocol.map((c) => c.kind)
    expect(kinds).toEqual(['soroswap-factory', 'soroswap-router', ...Array(6).fill('soroswap-pair')])
    const symbols = (id: string) => net.assets[id]!.symbol
    const names = new Set<string>()
    for (const c of net.contracts.ammprotocol.filter((x) => x.kind === 'soroswap-pair')) {
      expect(c).toMatchObject({ protocol: 'ammprotocol', position_types: ['liquidity'], start_ledger: START })
      const { token_0, token_1 } = net.ammprotocol.pairs[c.address]!
      expect(Buffer.compare(StrKey.decodeContract(token_0), StrKey.decodeContract(token_1))).toBe(-1)
      names.add([symbols(token_0), symbols(token_1)].sort().join('/'))
      // The factory's derivation, written again: salt over both tokens' ScVal XDR, FromAddress preimage.
      const salt = hash(
        Buffer.concat([
          Address.fromString(token_0).toScVal().toXDR(),
          Address.fromString(token_1).toScVal().toXDR(),
        ]),
      )
      const preimage = xdr.HashIdPreimage.fromXdrObject({
        type: 8,
        contractId: {
          networkId: hash(Buffer.from(chain.passphrase)),
          contractIdPreimage: {
            type: 0,
            fromAddress: { address: Address.fromString(ctx.factory).toScAddress().toXdrObject(), salt },
          },
        },
      })
      expect(StrKey.encodeContract(hash(preimage.toXDR()))).toBe(c.address)
    }
    expect([...names].sort()).toEqual([
      'EURC/EURx',
      'EURC/USDC',
      'EURC/XLM',
      'GBPx/XLM',
      'USDC/USDx',
      'USDC/XLM',
    ])
  })

  it('refuses an AMM activity outside [0, 1]', () => {
    for (const ammActivity of [-0.1, 1.5, Number.NaN])
      expect(() => createDevnetChain({ seed: 'x', ledgers: 1, ammActivity })).toThrow(
        /ammActivity must be between 0 and 1/,
      )
  })

  it('lists no Soroswap contract when the devnet runs without it', () => {
    const off = createDevnetChain({
      seed: 'soroswap',
      ledgers: 2,
      accounts: 5,
      ammActivity: 0,
      startLedger: START,
    })
    expect(off.network.contracts.ammprotocol).toEqual([])
    expect(off.network.ammprotocol.pairs).toEqual({})
  })
})

describe('deployment in the first ledger', () => {
  it('initializes the factory and router, then creates each pair (five through add_liquidity, one empty)', () => {
    const first = ledgers[0]!.txs.filter((t) => touchesAmm(ctx, t))
    expect(first.map((t) => t.fn)).toEqual([
      'initialize',
      'initialize',
      ...Array(5).fill('add_liquidity'),
      'create_pair',
    ])
    const [factoryInit, routerInit] = first
    const instance = factoryInit!.changes.find((c) => c.key === 'instance')!
    expect(instance).toMatchObject({ kind: 'created', contract: ctx.factory, durability: 'persistent' })
    expect((instance.val as [unknown, unknown][]).map(([k]) => k)).toEqual([
      ['FeeTo'],
      ['FeeToSetter'],
      ['TotalPairs'],
    ])
    const wasm = factoryInit!.changes.find((c) => c.key !== 'instance')!
    expect(wasm).toMatchObject({ key: ['PairWasmHash'], durability: 'persistent' })
    expect(wasm.valWire?.type).toBe(SCV.bytes)
    expect(eventSymbols(ctx, factoryInit!)).toEqual(['factory:init'])
    expect(routerInit!.changes.map((c) => [c.contract, c.key])).toEqual([[ctx.router, 'instance']])
    expect(routerInit!.changes[0]!.val).toEqual([[['Factory'], ctx.factory]])
    // new_pair: String + Symbol topics, data {new_pairs_length, pair, token_0, token_1}, lengths 1..6.
    const created = first.flatMap((t) =>
      t.events.filter((e) => e.contractId === ctx.factory && native(e.topicsWire[1]!) === 'new_pair'),
    )
    expect(created).toHaveLength(6)
    created.forEach((e, n) => {
      expect(e.topicsWire.map((t) => t.type)).toEqual([SCV.string, SCV.symbol])
      expect(fieldsOf(e.valueWire)).toEqual(['new_pairs_length', 'pair', 'token_0', 'token_1'])
      const v = native(e.valueWire) as {
        new_pairs_length: number
        pair: string
        token_0: string
        token_1: string
      }
      expect(v.new_pairs_length).toBe(n + 1)
      expect(ctx.pairs.get(v.pair)).toEqual({ token0: v.token_0, token1: v.token_1 })
      const registry = first
        .flatMap((t) => t.changes)
        .filter((c) => c.contract === ctx.factory && c.val === v.pair)
      expect(registry.map((c) => [c.kind, c.durability, c.key])).toEqual([
        ['created', 'persistent', ['PairAddressesByTokens', [v.token_0, v.token_1]]],
        ['created', 'persistent', ['PairAddressesNIndexed', n]],
      ])
    })
  })
})

describe('entries: keys, durability and value types as the contracts write them', () => {
  const pairChanges = () => amm.flatMap((t) => t.changes).filter((c) => ctx.pairs.has(c.contract))

  it('writes each pair’s instance: U32(0..4), METADATA, TotalSupply (once minted); nothing else', () => {
    const instances = pairChanges().filter((c) => c.key === 'instance' && c.kind !== 'state')
    expect(instances.length).toBeGreaterThan(500)
    for (const c of instances) {
      expect(c.durability).toBe('persistent')
      const wire = c.valWire as Extract<xdr.ScValWire, { type: 19 }>
      const storage = wire.instance.storage ?? []
      const funded = storage.length === 7
      expect(storage.map((e) => e.key.type)).toEqual([
        3,
        3,
        3,
        3,
        3,
        SCV.symbol,
        ...(funded ? [SCV.vec] : []),
      ])
      expect(storage.map((e) => native(e.key))).toEqual([
        0,
        1,
        2,
        3,
        4,
        'METADATA',
        ...(funded ? [['TotalSupply']] : []),
      ])
      expect(storage.map((e) => e.val.type)).toEqual([
        SCV.address,
        SCV.address,
        SCV.i128,
        SCV.i128,
        SCV.address,
        SCV.map,
        ...(funded ? [SCV.i128] : []),
      ])
      const metadata = storage[5]!.val
      expect(mapTypes(metadata)).toEqual({ decimal: SCV.u32, name: SCV.string, symbol: SCV.string })
      const { decimal, name, symbol } = native(metadata) as { decimal: number; name: string; symbol: string }
      const t = ctx.pairs.get(c.contract)!
      expect([native(storage[0]!.val), native(storage[1]!.val), native(storage[4]!.val)]).toEqual([
        t.token0,
        t.token1,
        ctx.factory,
      ])
      // initialize: each token's symbol() cut to 6 characters; the native asset's symbol is "native".
      const sym = (id: string) => {
        const s = chain.network.assets[id]!.symbol
        return (s === 'XLM' ? 'native' : s).slice(0, 6)
      }
      expect([decimal, name, symbol]).toEqual([
        7,
        `${sym(t.token0)}-${sym(t.token1)} Soroswap LP Token`,
        `${sym(t.token0)}-${sym(t.token1)}-SOROSWAP-LP`,
      ])
    }
  })

  it('keeps LP balances as persistent Balance(holder) i128 entries, the locked 1000 under the pair itself', () => {
    const balances = pairChanges().filter((c) => c.key !== 'instance')
    expect(balances.length).toBeGreaterThan(200)
    for (const c of balances) {
      expect(c.durability).toBe('persistent')
      const [tag, holder] = c.key as [string, string]
      expect(tag).toBe('Balance')
      expect(StrKey.isValidEd25519PublicKey(holder) || holder === c.contract).toBe(true)
      if (c.kind !== 'removed') expect(c.valWire!.type).toBe(SCV.i128)
    }
    const self = balances.filter((c) => (c.key as string[])[1] === c.contract && c.kind !== 'state')
    expect(self.length).toBeGreaterThan(10)
    expect(new Set(self.map((c) => c.val))).toEqual(new Set([1000n]))
  })

  it('writes the pairs’ and the aggregator’s asset balances as the asset contract does: Balance(C…) -> {amount, authorized, clawback}', () => {
    const sac = amm.flatMap((t) => t.changes).filter((c) => ctx.tokens.has(c.contract))
    expect(sac.length).toBeGreaterThan(1_000)
    const holders = new Set<string>()
    for (const c of sac) {
      expect(c.durability).toBe('persistent')
      const [tag, holder] = c.key as [string, string]
      expect(tag).toBe('Balance')
      holders.add(holder)
      expect(mapTypes(c.valWire)).toEqual({ amount: SCV.i128, authorized: SCV.bool, clawback: SCV.bool })
      expect(native(c.valWire!)).toMatchObject({ authorized: true, clawback: false })
    }
    expect([...holders].sort()).toEqual([...ctx.pairs.keys(), ctx.aggregator!].sort())
  })
})

describe('events: topic types and data maps', () => {
  const FIELDS: Record<string, string[]> = {
    deposit: ['amount_0', 'amount_1', 'liquidity', 'new_reserve_0', 'new_reserve_1', 'to'],
    withdraw: ['amount_0', 'amount_1', 'liquidity', 'new_reserve_0', 'new_reserve_1', 'to'],
    swap: ['amount_0_in', 'amount_0_out', 'amount_1_in', 'amount_1_out', 'to'],
    sync: ['new_reserve_0', 'new_reserve_1'],
    skim: ['skimmed_0', 'skimmed_1'],
    'router:add': ['amount_a', 'amount_b', 'liquidity', 'pair', 'to', 'token_a', 'token_b'],
    'router:remove': ['amount_a', 'amount_b', 'liquidity', 'pair', 'to', 'token_a', 'token_b'],
    'router:swap': ['amounts', 'path', 'to'],
  }

  it('names pair and router events with a String then a Symbol, data a map of sorted fields', () => {
    const seen = new Set<string>()
    for (const t of amm) {
      for (const e of t.events) {
        const pair = ctx.pairs.has(e.contractId)
        const topics = e.topicsWire.map(native)
        if (!(pair && topics[0] === 'SoroswapPair') && e.contractId !== ctx.router) continue
        expect(e.topicsWire.map((w) => w.type)).toEqual([SCV.string, SCV.symbol])
        const name = pair ? String(topics[1]) : `router:${topics[1]}`
        seen.add(name)
        if (FIELDS[name]) expect(fieldsOf(e.valueWire)).toEqual(FIELDS[name])
      }
    }
    expect([...seen].sort()).toEqual([
      'deposit',
      'router:add',
      'router:init',
      'router:remove',
      'router:swap',
      'skim',
      'swap',
      'sync',
      'withdraw',
    ])
  })

  it('names LP token events as soroban-token-sdk 20 does: [mint, pair, to], [burn, from], [transfer, from, to], data i128', () => {
    const shapes = new Set<string>()
    for (const t of amm)
      for (const e of t.events) {
        if (!ctx.pairs.has(e.contractId) || e.topicsWire[0]!.type !== SCV.symbol) continue
        shapes.add(
          `${native(e.topicsWire[0]!)}:${e.topicsWire.map((w) => w.type).join(',')}:${e.valueWire.type}`,
        )
      }
    expect([...shapes].sort()).toEqual(['burn:15,18:10', 'mint:15,18,18:10', 'transfer:15,18,18:10'])
  })

  it('names SAC transfers [transfer, from, to, asset] with the asset a String, on both sides of the protocol switch', () => {
    const transfers = amm.flatMap((t) => t.events.filter((e) => ctx.tokens.has(e.contractId)))
    expect(transfers.length).toBeGreaterThan(1_000)
    for (const e of transfers) expect(e.topicsWire.map((w) => w.type)).toEqual([15, 18, 18, 14])
    const versions = new Set(
      ledgers.filter((l) => l.txs.some((t) => touchesAmm(ctx, t))).map((l) => l.version),
    )
    expect(versions).toEqual(new Set(['v1', 'v2']))
  })
})

describe('order of effects within each transaction', () => {
  const PATTERNS: Record<string, RegExp> = {
    add_liquidity: /^(factory:new_pair )?T\+ T\+ (lp:mint )?lp:mint sync deposit router:add$/,
    remove_liquidity: /^lp:transfer lp:burn T- T- sync withdraw router:remove$/,
    swap_exact_tokens_for_tokens: /^T\+ (Tpp sync swap )?T- sync swap router:swap$/,
    swap_tokens_for_exact_tokens: /^T\+ (Tpp sync swap )?T- sync swap router:swap$/,
    skim: /^T- T- skim$/,
    sync: /^sync$/,
    create_pair: /^factory:new_pair$/,
  }

  it('follows the contracts for every successful call, and the aggregator’s as mainnet ledger 63092990 shows', () => {
    const byFn = new Map<string, number>()
    for (const t of amm.filter((x) => x.successful && x.fn !== 'initialize')) {
      const symbols = eventSymbols(ctx, t).join(' ')
      let pattern = PATTERNS[t.fn]
      if (t.fn === 'swap') pattern = /^Tx T\+ T- sync swap Tx$/
      if (t.fn === 'transfer') pattern = ctx.pairs.has(t.contract) ? /^lp:transfer$/ : /^T\+$/
      expect(symbols, `${t.fn} ${t.hash}`).toMatch(pattern!)
      const key = t.fn === 'swap_exact_tokens_for_tokens' && symbols.includes('Tpp') ? 'two hops' : t.fn
      byFn.set(key, (byFn.get(key) ?? 0) + 1)
    }
    for (const fn of [...Object.keys(PATTERNS), 'swap', 'transfer', 'two hops'])
      expect(byFn.get(fn) ?? 0, fn).toBeGreaterThan(0)
  })

  it('fails now and then (slippage, deadline, more LP than held), changing nothing', () => {
    const failed = txs.filter(
      (t) =>
        !t.successful &&
        (t.contract === ctx.router || t.contract === ctx.aggregator || ctx.pairs.has(t.contract)),
    )
    const fns = new Set(failed.map((t) => t.fn))
    for (const fn of ['add_liquidity', 'remove_liquidity', 'swap_exact_tokens_for_tokens', 'swap'])
      expect(fns.has(fn), fn).toBe(true)
    for (const t of failed) expect([t.changes, t.events]).toEqual([[], []])
  })
})

describe('an independent replay of the events agrees with every entry and every amount', () => {
  it('finds no disagreement, having checked each rule many times', () => {
    expect(replay.violations).toEqual([])
    const atLeast: Record<string, number> = {
      'sync names the balances': 500,
      'reserves equal the pair balances after an action': 500,
      'K with the 0.3% fee holds': 500,
      'the constant product never decreases across a swap': 500,
      'exact in: get_amount_out per hop': 300,
      'exact out: get_amount_in per hop': 50,
      'aggregator output is get_amount_out': 50,
      'first deposit: sqrt(a0*a1) - 1000': 6,
      'deposit: min(a_i*TS/r_i)': 30,
      'add amounts follow quote': 30,
      'withdraw: balance_i * shares / TS': 20,
      'remove amounts are the withdrawal in (a, b) order': 20,
      'skim sends the excess': 1,
      'LP Balance entries are the replayed balances': 100,
      'instance TotalSupply is the replayed supply': 500,
      'TotalSupply equals the sum of all Balance entries': 500,
      'the pair holds its locked 1000': 500,
      'a pair’s asset balance entries follow its transfers': 1_000,
      'the aggregator keeps nothing': 50,
      'failed tx changes nothing': 20,
    }
    for (const [name, n] of Object.entries(atLeast))
      expect(replay.checks[name] ?? 0, name).toBeGreaterThanOrEqual(n)
  })

  it('has LPs who only ever received by transfer, LPs who sent everything away, and long-dormant LPs', () => {
    const onlyReceived = [...replay.received].filter(
      (k) => !replay.minted.has(k) && (replay.lastEntry.get(k)?.amount ?? 0n) > 0n,
    )
    expect(onlyReceived.length).toBeGreaterThan(0)
    // Sent all away: the entry stays, at zero (spend_balance writes balance - amount).
    const emptied = [...replay.emptied].filter((k) => replay.lastEntry.get(k)?.amount === 0n)
    expect(emptied.length).toBeGreaterThan(0)
    const end = START + LEDGERS - 1
    const dormant = [...replay.lastEntry].filter(([k, e]) => {
      const pair = k.split(' ')[0]!
      const holder = k.split(' ')[1]!
      const tradedSince = (replay.swapLedgers.get(pair) ?? []).filter((l) => l > e.ledger).length
      return holder !== pair && e.amount > 0n && end - e.ledger >= 400 && tradedSince >= 20
    })
    expect(dormant.length).toBeGreaterThan(0)
  })
})

describe('getLedgerEntries answers Soroswap entries as last written', () => {
  it('serves pair instances, LP and asset balances (zero ones too), the factory registry and the router', () => {
    const latest = new Map<string, DecodedChange>()
    for (const t of amm)
      for (const c of t.changes)
        if (c.kind === 'created' || c.kind === 'updated') latest.set(`${c.contract} ${c.keyXdr}`, c)
    const sample = [...latest.values()]
    expect(sample.length).toBeGreaterThan(50)
    for (const c of sample) {
      const key = xdr.LedgerKey.fromXdrObject({
        type: 6,
        contractData: {
          contract: Address.fromString(c.contract).toScAddress().toXdrObject(),
          key: xdr.ScVal.fromXdr(c.keyXdr, 'base64').toXdrObject(),
          durability: 1,
        },
      }).toXdrObject() as xdr.LedgerKeyWire
      const entry = chain.getEntry(key)
      expect(
        entry,
        `${c.contract} ${JSON.stringify(c.key, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      ).toBeDefined()
      const data = xdr.LedgerEntryData.fromXdr(entry!.xdr, 'base64').toXdrObject()
      expect(data.type === 6 && xdr.ScVal.fromXdrObject(data.contractData.val).toXdr('base64')).toBe(
        xdr.ScVal.fromXdrObject(c.valWire!).toXdr('base64'),
      )
    }
    expect(sample.some((c) => ctx.pairs.has(c.contract) && c.val === 0n)).toBe(true)
    // An account that never held LP of a pair has no entry there.
    const pair = [...ctx.pairs.keys()][0]!
    const stranger = StrKey.encodeEd25519PublicKey(Buffer.alloc(32, 7))
    const key = xdr.LedgerKey.fromXdrObject({
      type: 6,
      contractData: {
        contract: Address.fromString(pair).toScAddress().toXdrObject(),
        key: xdr.ScVal.fromXdrObject({
          type: 16,
          vec: [{ type: 15, sym: 'Balance' }, Address.fromString(stranger).toScVal().toXdrObject()],
        } as xdr.ScValWire).toXdrObject(),
        durability: 1,
      },
    }).toXdrObject() as xdr.LedgerKeyWire
    expect(chain.getEntry(key)).toBeUndefined()
  })
})
