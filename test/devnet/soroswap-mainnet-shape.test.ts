import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { Address, StrKey, scValToNative, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'

// The genuine Soroswap swap of pubnet ledger 63092990 (test/fixtures/pubnet/README.md) against the
// devnet's: both decoded with the SDK's classes and reduced to their shape (entries written, their
// keys, durability and value types; events in order, topic types and data types), then compared.
const MAINNET_PAIR = 'CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP'
const MAINNET_AGGREGATOR = 'CDISSW47JFACAYORU74NK2UVXD5UDXWIHNUJN5UWP4SFN5X4JSJ7WHAK'

type Roles = { pair: string; aggregator: string | null }
type TxMeta = { changes: xdr.LedgerEntryChange[]; events: xdr.ContractEvent[]; contract: string }

/** Every transaction of a ledger with its first operation's changes and events (meta v4). */
function readTxs(bytes: Uint8Array): TxMeta[] {
  const lcm = xdr.LedgerCloseMeta.fromXdr(bytes)
  if (lcm.type !== 'v2') throw new Error('LedgerCloseMeta v2 expected')
  return lcm.v2.txProcessing.map((tp) => {
    const meta = tp.txApplyProcessing
    if (meta.type !== 'v4') throw new Error('TransactionMeta v4 expected')
    const op = meta.v4.operations[0]
    return { changes: op?.changes ?? [], events: op?.events ?? [], contract: '' }
  })
}

const contractOf = (e: xdr.ContractEvent) => StrKey.encodeContract(Buffer.from(e.toXdrObject().contractId!))

function roleOf(address: string, roles: Roles): string {
  if (address === roles.pair) return 'pair'
  if (address === roles.aggregator) return 'aggregator'
  return address.startsWith('G') ? 'account' : 'contract'
}

/** An ScVal's shape: its type, with map fields and vector elements; addresses by role, strings by use. */
function shapeOf(v: xdr.ScVal, roles: Roles): string {
  switch (v.type) {
    case 'scvAddress':
      return `Address(${roleOf(scValToNative(v) as string, roles)})`
    case 'scvSymbol':
      return `Symbol(${scValToNative(v)})`
    case 'scvString': {
      const s = scValToNative(v) as string
      return s.startsWith('Soroswap') ? `String(${s})` : 'String'
    }
    case 'scvU32':
      return `U32(${scValToNative(v)})`
    case 'scvVec':
      return `Vec[${(v.vec ?? []).map((x) => shapeOf(x, roles)).join(',')}]`
    case 'scvMap':
      return `Map{${(v.map ?? []).map((e) => `${shapeOf(e.key, roles)}:${shapeOf(e.val, roles)}`).join(',')}}`
    case 'scvContractInstance':
      return `Instance{${(v.instance.storage ?? []).map((e) => `${shapeOf(e.key, roles)}:${shapeOf(e.val, roles)}`).join(',')}}`
    case 'scvLedgerKeyContractInstance':
      return 'Instance'
    default:
      return v.type
  }
}

function entryOf(change: xdr.LedgerEntryChange): xdr.LedgerEntry | null {
  if (change.type === 'ledgerEntryCreated') return change.created
  if (change.type === 'ledgerEntryUpdated') return change.updated
  if (change.type === 'ledgerEntryState') return change.state
  return null
}

/** The pair's own entries, and the pair's and the aggregator's balances in the asset contracts. */
function isSoroswapEntry(entry: xdr.LedgerEntry, roles: Roles): boolean {
  if (entry.data.type !== 'contractData') return false
  const cd = entry.data.contractData
  if (Address.fromScAddress(cd.contract).toString() === roles.pair) return true
  return /^Vec\[Symbol\(Balance\),Address\((pair|aggregator)\)\]$/.test(shapeOf(cd.key, roles))
}

function entryShapes(tx: TxMeta, roles: Roles): string[] {
  const shapes: string[] = []
  for (const change of tx.changes) {
    const entry = entryOf(change)
    if (!entry || !isSoroswapEntry(entry, roles) || entry.data.type !== 'contractData') continue
    const cd = entry.data.contractData
    const contract = roleOf(Address.fromScAddress(cd.contract).toString(), roles)
    shapes.push(
      `${change.type} ${contract} ${cd.durability.name} ${shapeOf(cd.key, roles)} => ${shapeOf(cd.val, roles)}`,
    )
  }
  return shapes.sort()
}

function eventShapes(events: xdr.ContractEvent[], roles: Roles): string[] {
  return events.map((e) => {
    const body = e.body.v0
    return `${roleOf(contractOf(e), roles)}: ${body.topics.map((t) => shapeOf(t, roles)).join(' ')} => ${shapeOf(body.data, roles)}`
  })
}

let mainnet: TxMeta
let chain: DevnetChain
let devnetPairs: Set<string>

beforeAll(() => {
  const bytes = gunzipSync(
    readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092990.xdr.gz', import.meta.url)),
  )
  const swaps = readTxs(bytes).filter((t) => t.events.some((e) => contractOf(e) === MAINNET_PAIR))
  expect(swaps).toHaveLength(1)
  mainnet = swaps[0]!
  chain = createDevnetChain({
    seed: 'mainnet-shape',
    ledgers: 400,
    accounts: 80,
    activity: 0.01,
    ammActivity: 0.3,
    lendingActivity: 0,
  })
  devnetPairs = new Set(
    chain.network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair').map((c) => c.address),
  )
})

/** The devnet's last successful swap of a kind on its XLM/USDC pair. */
function devnetSwap(kind: 'aggregator' | 'router'): { tx: TxMeta; roles: Roles } {
  const xlmUsdc = [...devnetPairs].find((p) => {
    const t = chain.network.ammprotocol.pairs[p]!
    const symbols = [chain.network.assets[t.token_0]!.symbol, chain.network.assets[t.token_1]!.symbol].sort()
    return symbols.join('/') === 'USDC/XLM'
  })!
  let found: { tx: TxMeta; roles: Roles } | null = null
  for (let seq = chain.oldestLedger() + 1; seq <= chain.latestLedger(); seq++) {
    for (const tx of readTxs(chain.ledgerMetaXdr(seq))) {
      const contracts = tx.events.map(contractOf)
      const swapsHere = tx.events.filter(
        (e) => contractOf(e) === xlmUsdc && scValToNative(e.body.v0.topics[1]!) === 'swap',
      )
      if (swapsHere.length !== 1 || contracts.some((c) => devnetPairs.has(c) && c !== xlmUsdc)) continue
      const viaRouter = contracts.some((c) =>
        chain.network.contracts.ammprotocol.some((a) => a.kind === 'soroswap-router' && a.address === c),
      )
      if (viaRouter !== (kind === 'router')) continue
      const to = scValToNative(swapsHere[0]!.body.v0.data) as { to: string }
      found = { tx, roles: { pair: xlmUsdc, aggregator: kind === 'aggregator' ? to.to : null } }
    }
  }
  return found!
}

describe('the devnet swaps as Soroswap does on mainnet (ledger 63092990)', () => {
  const mainnetRoles: Roles = { pair: MAINNET_PAIR, aggregator: MAINNET_AGGREGATOR }

  it('reads the genuine swap: an aggregator calls the XLM/USDC pair directly (no router event)', () => {
    expect(eventShapes(mainnet.events, mainnetRoles)).toEqual([
      'contract: Symbol(transfer) Address(account) Address(aggregator) String => scvI128',
      'contract: Symbol(transfer) Address(aggregator) Address(pair) String => scvI128',
      'contract: Symbol(transfer) Address(pair) Address(aggregator) String => scvI128',
      'pair: String(SoroswapPair) Symbol(sync) => Map{Symbol(new_reserve_0):scvI128,Symbol(new_reserve_1):scvI128}',
      'pair: String(SoroswapPair) Symbol(swap) => Map{Symbol(amount_0_in):scvI128,Symbol(amount_0_out):scvI128,Symbol(amount_1_in):scvI128,Symbol(amount_1_out):scvI128,Symbol(to):Address(aggregator)}',
      'contract: Symbol(transfer) Address(aggregator) Address(account) String => scvI128',
    ])
    // Written by that transaction but not simulated by the devnet (docs/devnet.md): the caller's
    // account and trust line, the auth nonce (temporary) and its TTL, and the aggregator's own
    // temporary entry.
    const kinds = mainnet.changes
      .map(entryOf)
      .map((e) =>
        !e
          ? 'removed'
          : isSoroswapEntry(e, mainnetRoles)
            ? 'soroswap'
            : e.data.type === 'contractData'
              ? `contractData:${e.data.contractData.durability.name}`
              : e.data.type,
      )
    expect(new Set(kinds)).toEqual(
      new Set(['soroswap', 'contractData:temporary', 'account', 'trustline', 'ttl']),
    )
    expect(entryShapes(mainnet, mainnetRoles)).toHaveLength(10)
  })

  it('writes the same entries and emits the same events in the same order through its aggregator', () => {
    const { tx, roles } = devnetSwap('aggregator')
    expect(entryShapes(tx, roles)).toEqual(entryShapes(mainnet, mainnetRoles))
    expect(eventShapes(tx.events, roles)).toEqual(eventShapes(mainnet.events, mainnetRoles))
  })

  it('does the pair’s part of a router swap the same way, then adds the router’s swap event', () => {
    const { tx, roles } = devnetSwap('router')
    const pairEntries = (shapes: string[]) => shapes.filter((s) => !s.includes('Address(aggregator)'))
    expect(entryShapes(tx, roles)).toEqual(pairEntries(entryShapes(mainnet, mainnetRoles)))
    // The counterparty of the pair is the caller, not an aggregator.
    const asCaller = (shapes: string[]) =>
      shapes.map((s) => s.replaceAll('Address(aggregator)', 'Address(account)'))
    const events = eventShapes(tx.events, roles)
    expect(events.slice(0, 4)).toEqual(asCaller(eventShapes(mainnet.events, mainnetRoles).slice(1, 5)))
    expect(events[4]).toBe(
      'contract: String(SoroswapRouter) Symbol(swap) => Map{Symbol(amounts):Vec[scvI128,scvI128],Symbol(path):Vec[Address(contract),Address(contract)],Symbol(to):Address(account)}',
    )
    expect(events).toHaveLength(5)
  })
})
