import { Address, rpc, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { type DecodedLedger, decodeLedgers } from './decode-ledgers.ts'
import { callRaw, rpcRequest } from './rpc-client.ts'

let devnet: Devnet
let server: rpc.Server
let ledgers: DecodedLedger[]

beforeAll(async () => {
  devnet = await startDevnet({ seed: 'rpc', ledgers: 700, accounts: 100, activity: 0.04 })
  server = new rpc.Server(devnet.url, { allowHttp: true })
  ledgers = decodeLedgers(devnet.chain)
})
afterAll(() => devnet.close())

const rpcCode = async (method: string, params?: unknown) =>
  (await callRaw(devnet.url, rpcRequest(method, params))).json.error?.code

describe('devnet through stellar-sdk rpc.Server', () => {
  it('answers getHealth, getNetwork and getLatestLedger', async () => {
    const health = await server.getHealth()
    expect(health).toMatchObject({ status: 'healthy', oldestLedger: 1_000, latestLedger: 1_699 })
    const network = await server.getNetwork()
    expect(network.passphrase).toBe(devnet.network.passphrase)
    const latest = await server.getLatestLedger()
    expect(latest.sequence).toBe(1_699)
    expect(latest.headerXdr.ledgerSeq).toBe(1_699)
    expect(latest.id).toBe(devnet.chain.getLedger(1_699)!.hash.toString('hex'))
  })

  it('pages getLedgers by cursor through every ledger exactly once', async () => {
    const seen: number[] = []
    let page = await server.getLedgers({ startLedger: 1_000, pagination: { limit: 200 } })
    while (page.ledgers.length > 0) {
      for (const l of page.ledgers) {
        seen.push(l.sequence)
        expect(l.metadataXdr.toXdr('base64')).toBe(devnet.chain.ledgerMetaXdr(l.sequence).toString('base64'))
        expect(l.headerXdr.header.ledgerSeq).toBe(l.sequence)
      }
      expect(page.ledgers.length).toBeLessThanOrEqual(200)
      page = await server.getLedgers({ pagination: { cursor: page.cursor, limit: 200 } })
    }
    expect(seen).toEqual(Array.from({ length: 700 }, (_, i) => 1_000 + i))
    const defaults = await server.getLedgers({ startLedger: 1_100 })
    expect(defaults.ledgers).toHaveLength(50)
    expect(defaults.cursor).toBe('1149')
  })

  it('pages getEvents by cursor through every event exactly once', async () => {
    const expected = ledgers.flatMap((l) =>
      l.txs.filter((t) => t.successful).flatMap((t) => t.events.map((e) => e.id)),
    )
    expect(expected.length).toBeGreaterThan(10)
    const seen: string[] = []
    let page = await server.getEvents({ startLedger: 1_000, filters: [], limit: 37 })
    for (let guard = 0; guard < 1_000; guard++) {
      seen.push(...page.events.map((e) => e.id))
      if (page.events.length === 0) break
      page = await server.getEvents({ cursor: page.cursor, filters: [], limit: 37 })
    }
    expect(seen).toEqual(expected)
    const one = await server.getEvents({ startLedger: 1_000, filters: [], limit: 1 })
    const decoded = ledgers[0]!.txs.flatMap((t) => t.events)[0]!
    expect(one.events[0]!.topic.map((t) => t.toXdr('base64'))).toEqual(decoded.topics)
    expect(one.events[0]!.value.toXdr('base64')).toBe(decoded.value)
    expect(one.events[0]!.txHash).toBe(ledgers[0]!.txs.find((t) => t.events.length > 0)!.hash)
  })

  it('filters getEvents by contract and topics with * and ** wildcards', async () => {
    const all = ledgers.flatMap((l) => l.txs.flatMap((t) => t.events))
    const total = all.length
    const oracle = devnet.network.contracts.oracles[0]!.address
    // The vault contract emits no events; the asset contracts' SAC events and the oracle's do.
    const fromOracle = all.filter((e) => e.contractId === oracle).length
    expect(fromOracle).toBeGreaterThan(0)
    expect(fromOracle).toBeLessThan(total)
    const reflector = xdr.ScVal.fromXdrObject({ type: 15, sym: new xdr.XdrString('REFLECTOR') }).toXdr(
      'base64',
    )
    const count = async (filters: rpc.Api.EventFilter[]) =>
      (await server.getEvents({ startLedger: 1_000, filters, limit: 10_000 })).events.length
    expect(await count([{ type: 'contract', contractIds: [oracle], topics: [[reflector, '*', '*']] }])).toBe(
      fromOracle,
    )
    expect(await count([{ topics: [['**']] }])).toBe(total)
    expect(await count([{ topics: [[reflector, '**']] }])).toBe(fromOracle)
    // One-topic events: the Blend pools' `set_reserve` (once per reserve: 3 per pool),
    // `reserve_emission_update` and `gulp_emissions`, read from the decoded ledgers.
    const pools = devnet.network.contracts.lendingprotocol.map((p) => p.address)
    const oneTopic = all.filter((e) => {
      if (!pools.includes(e.contractId) || e.topicsWire[0]?.type !== 15) return false
      return ['set_reserve', 'reserve_emission_update', 'gulp_emissions'].includes(
        e.topicsWire[0].sym.toString(),
      )
    })
    expect(oneTopic.filter((e) => e.topicsWire.length !== 1)).toEqual([])
    expect(
      oneTopic.filter((e) => String((e.topicsWire[0] as { sym: unknown }).sym) === 'set_reserve'),
    ).toHaveLength(6)
    expect(await count([{ topics: [['*']] }])).toBe(oneTopic.length)
    expect(await count([{ topics: [['*', reflector, '*']] }])).toBe(0)
    expect(await count([{ contractIds: [devnet.network.contracts.vaultprotocol.address] }])).toBe(0)
    expect(await count([{ type: 'system' }])).toBe(0)
  })

  it('serves current entries from getLedgerEntries and forgets removed ones', async () => {
    const latest = new Map<string, { kind: string; val: unknown; key: unknown }>()
    const vaultAddress = devnet.network.contracts.vaultprotocol.address
    for (const l of ledgers)
      for (const t of l.txs)
        for (const c of t.changes)
          if (
            c.contract === vaultAddress &&
            c.key !== 'instance' &&
            c.kind !== 'state' &&
            c.kind !== 'restored'
          )
            latest.set(c.keyXdr, c)
    const vaultContract = Address.fromString(devnet.network.contracts.vaultprotocol.address).toScAddress()
    const keyFor = (keyXdr: string) =>
      xdr.LedgerKey.fromXdrObject({
        type: 6,
        contractData: {
          contract: vaultContract.toXdrObject(),
          key: xdr.ScVal.fromXdr(keyXdr, 'base64').toXdrObject(),
          durability: 1,
        },
      })
    const live = [...latest.entries()].filter(([, c]) => c.kind !== 'removed').slice(0, 20)
    const gone = [...latest.entries()].filter(([, c]) => c.kind === 'removed').slice(0, 5)
    expect(gone.length).toBeGreaterThan(0)
    const answer = await server.getLedgerEntries(
      ...live.map(([k]) => keyFor(k)),
      ...gone.map(([k]) => keyFor(k)),
    )
    expect(answer.entries).toHaveLength(live.length)
    const { scValToNative } = await import('@stellar/stellar-sdk')
    answer.entries.forEach((entry, i) => {
      const val = entry.val.type === 'contractData' ? entry.val.contractData.val : null
      expect(scValToNative(val!)).toEqual(live[i]![1].val)
    })
  })

  it('serves the Soroswap pairs’ instances and LP balances as last written', async () => {
    const pairs = devnet.network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair')
    const latest = new Map<string, { keyXdr: string; val: unknown; contract: string }>()
    for (const l of ledgers)
      for (const t of l.txs)
        for (const c of t.changes)
          if (pairs.some((p) => p.address === c.contract) && (c.kind === 'created' || c.kind === 'updated'))
            latest.set(`${c.contract} ${c.keyXdr}`, c)
    const written = [...latest.values()]
    expect(
      written.filter((c) => xdr.ScVal.fromXdr(c.keyXdr, 'base64').type === 'scvLedgerKeyContractInstance'),
    ).toHaveLength(pairs.length)
    const keys = written.slice(0, 150).map((c) =>
      xdr.LedgerKey.fromXdrObject({
        type: 6,
        contractData: {
          contract: Address.fromString(c.contract).toScAddress().toXdrObject(),
          key: xdr.ScVal.fromXdr(c.keyXdr, 'base64').toXdrObject(),
          durability: 1,
        },
      }),
    )
    const answer = await server.getLedgerEntries(...keys)
    expect(answer.entries).toHaveLength(keys.length)
    const { scValToNative } = await import('@stellar/stellar-sdk')
    answer.entries.forEach((entry, i) => {
      const data = entry.val.type === 'contractData' ? entry.val.contractData : null
      const val = data!.val
      const expected = written[i]!.val
      if (val.type === 'scvContractInstance')
        expect((val.instance.storage ?? []).map((e) => [scValToNative(e.key), scValToNative(e.val)])).toEqual(
          expected,
        )
      else expect(scValToNative(val)).toEqual(expected)
    })
  })

  it('finds successful and failed transactions by hash', async () => {
    const txs = ledgers.flatMap((l) => l.txs)
    const ok = txs.find((t) => t.successful && t.changes.length > 0)!
    const failed = txs.find((t) => !t.successful)!
    const a = await server.getTransaction(ok.hash)
    expect(a.status).toBe('SUCCESS')
    if (a.status !== 'SUCCESS') throw new Error('unreachable')
    expect(a.ledger).toBe(ok.ledger)
    expect(a.applicationOrder).toBe(ok.index)
    expect(a.envelopeXdr.type).toBe('envelopeTypeTx')
    const b = await server.getTransaction(failed.hash)
    expect(b.status).toBe('FAILED')
    expect((await server.getTransaction('ab'.repeat(32))).status).toBe('NOT_FOUND')
  })
})

describe('devnet JSON-RPC errors and limits', () => {
  it('answers -32601 for an unknown method and -32700 for a malformed body', async () => {
    expect(await rpcCode('getFeeStats')).toBe(-32601)
    expect((await callRaw(devnet.url, `{"jsonrpc":`)).json.error?.code).toBe(-32700)
  })

  it('answers -32602 for invalid params', async () => {
    expect(await rpcCode('getLedgers', { startLedger: 1_000, pagination: { limit: 201 } })).toBe(-32602)
    expect(await rpcCode('getLedgers', { startLedger: 1_000, pagination: { limit: 0 } })).toBe(-32602)
    expect(await rpcCode('getLedgers', { startLedger: 999 })).toBe(-32602)
    expect(await rpcCode('getLedgers', { startLedger: 1_000, pagination: { cursor: '1000' } })).toBe(-32602)
    expect(await rpcCode('getEvents', { startLedger: 1_000, pagination: { limit: 10_001 } })).toBe(-32602)
    expect(await rpcCode('getEvents', { startLedger: 1_000, filters: [{ contractIds: ['nope'] }] })).toBe(
      -32602,
    )
    expect(await rpcCode('getEvents', { startLedger: 1_000, filters: [{}, {}, {}, {}, {}, {}] })).toBe(-32602)
    expect(await rpcCode('getEvents', { startLedger: 1_000, filters: [{ topics: [['**', '*']] }] })).toBe(
      -32602,
    )
    expect(await rpcCode('getEvents', { startLedger: 5_000 })).toBe(-32602)
    expect(await rpcCode('getLedgerEntries', { keys: ['not-xdr'] })).toBe(-32602)
    expect(await rpcCode('getLedgerEntries', { keys: Array(201).fill('AAAA') })).toBe(-32602)
    expect(await rpcCode('getTransaction', { hash: 'xyz' })).toBe(-32602)
  })

  it('serves its NetworkConfig at /network.json', async () => {
    const res = await fetch(`${devnet.url}/network.json`)
    expect(await res.json()).toEqual(devnet.network)
  })
})

describe('devnet scan limit and ledger closing', () => {
  it('scans at most 10,000 ledgers per getEvents request', async () => {
    const long = await startDevnet({ seed: 'long', ledgers: 10_200, accounts: 1, activity: 0 })
    try {
      const client = new rpc.Server(long.url, { allowHttp: true })
      const page = await client.getEvents({ startLedger: 1_000, filters: [], limit: 10_000 })
      expect(Math.max(...page.events.map((e) => e.ledger))).toBeLessThan(11_000)
      expect(page.events).toHaveLength(Math.ceil(10_000 / 60))
      const next = await client.getEvents({ cursor: page.cursor, filters: [], limit: 10_000 })
      expect(next.events[0]!.ledger).toBeGreaterThanOrEqual(11_000)
    } finally {
      await long.close()
    }
  })

  it('closes new ledgers on its interval, identical to generating them up front', async () => {
    const live = await startDevnet({ seed: 'live', ledgers: 50, accounts: 50, closeIntervalMs: 20 })
    try {
      await new Promise((r) => setTimeout(r, 300))
      const latest = live.latestLedger()
      expect(latest).toBeGreaterThan(1_049)
      const { createDevnetChain } = await import('../../src/devnet/devnet.ts')
      const reference = createDevnetChain({ seed: 'live', ledgers: latest - 999, accounts: 50 })
      expect(live.chain.ledgerMetaXdr(latest).equals(reference.ledgerMetaXdr(latest))).toBe(true)
    } finally {
      await live.close()
    }
  })
})
