import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { Address, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseNetworkConfig } from '../../src/chain/load-network.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { type DecodedLedger, type DecodedTx, decodeLedgers } from './decode-ledgers.ts'
import { changeShape, devnetRoles, eventShape, type RawTx, type Roles, rawTxs } from './defindex-support.ts'

// DeFindex vaults and Blend strategies (paltalabs/defindex 32c8169b) as the devnet writes them,
// read back from the XDR with the SDK, and compared with a genuine mainnet deposit.
const START = 2_000
const LEDGERS = 2_500

let chain: DevnetChain
let ledgers: DecodedLedger[]
let vaults: string[]
let strategies: string[]
let roles: Roles

const typeName = (v: xdr.ScValWire | null) => (v ? v.type : null)
const tag = (key: unknown) => (Array.isArray(key) ? String(key[0]) : String(key))
const allTxs = () => ledgers.flatMap((l) => l.txs)
/** `role:name`: a Symbol first topic names the event (tokens, pools), else the second (the contracts' String prefix). */
const eventNames = (t: DecodedTx) =>
  t.events.map((e) => {
    const [first, second] = e.topicsWire
    const name = first?.type === 15 ? first.sym.toString() : second?.type === 15 ? second.sym.toString() : '?'
    return `${roles(e.contractId)}:${name}`
  })

beforeAll(() => {
  chain = createDevnetChain({
    seed: 'yield',
    ledgers: LEDGERS,
    accounts: 80,
    activity: 0.03,
    // Soroswap's pairs write asset balances too; this world is about the vaults.
    ammActivity: 0,
    startLedger: START,
  })
  ledgers = decodeLedgers(chain)
  const yieldContracts = chain.network.contracts.yieldprotocol
  vaults = yieldContracts.filter((c) => c.kind === 'defindex-vault').map((c) => c.address)
  strategies = yieldContracts.filter((c) => c.kind === 'defindex-strategy-blend').map((c) => c.address)
  roles = devnetRoles(chain.network)
})

describe('the devnet writes DeFindex vaults and Blend strategies as paltalabs/defindex does', () => {
  it('lists three vaults and their strategies, each strategy lending into a listed Blend pool', () => {
    const network = parseNetworkConfig(JSON.parse(JSON.stringify(chain.network)), 'devnet')
    expect(vaults).toHaveLength(3)
    expect(strategies).toHaveLength(3)
    const pools = network.contracts.lendingprotocol.map((p) => p.address)
    const symbols = Object.fromEntries(Object.values(network.assets).map((a) => [a.id, a.symbol]))
    const listed = network.contracts.yieldprotocol
    for (const vault of listed.filter((c) => c.kind === 'defindex-vault')) {
      expect(vault.protocol).toBe('yieldprotocol')
      expect(vault.strategies).toHaveLength(1)
      const strategy = listed.find((c) => c.address === vault.strategies![0])!
      expect(strategy.kind).toBe('defindex-strategy-blend')
      expect(pools).toContain(strategy.pool)
      expect(vault.assets).toEqual([strategy.asset])
    }
    expect(listed.filter((c) => c.kind === 'defindex-vault').map((v) => symbols[v.assets![0]!])).toEqual([
      'USDC',
      'EURC',
      'XLM',
    ])
  })

  it('writes every vault and strategy entry with its key shape, durability and value type', () => {
    const seen = new Set<string>()
    for (const t of allTxs()) {
      for (const c of t.changes) {
        const isVault = vaults.includes(c.contract)
        const isStrategy = strategies.includes(c.contract)
        if (!isVault && !isStrategy) continue
        if (c.kind === 'removed') throw new Error('DeFindex entries are never removed')
        expect(c.durability).toBe('persistent')
        if (c.key === 'instance') {
          const keys = (c.val as [unknown, unknown][]).map(([k]) =>
            Array.isArray(k) ? k.join(':') : String(k),
          )
          if (isVault) {
            expect(keys.filter((k) => k !== 'TotalSupply')).toEqual([
              'METADATA',
              'AssetStrategySet:0',
              'DeFindexProtocolFeeRate',
              'DeFindexProtocolFeeReceiver',
              'EmergencyManager',
              'Manager',
              'RebalanceManager',
              'SoroswapRouter',
              'TotalAssets',
              'Upgradable',
              'VaultFee',
              'VaultFeeReceiver',
            ])
            seen.add('vault instance')
          } else {
            expect(keys.slice(0, 2)).toEqual(['Config', 'Keeper'])
            expect(keys.length === 2 || keys[2] === 'Reserves').toBe(true)
            seen.add('strategy instance')
          }
          continue
        }
        const key = c.key as [string, string]
        expect(Array.isArray(key) && key.length).toBe(2)
        const signature = `${isVault ? 'vault' : 'strategy'}:${key[0]}`
        seen.add(signature)
        const val = c.valWire!
        if (signature === 'vault:Balance' || signature === 'strategy:VaultPos') expect(typeName(val)).toBe(10)
        else if (signature === 'vault:Report') {
          expect(roles(key[1])).toBe('strategy')
          expect(
            val.type === 17 && val.map!.map((e) => [e.key.type === 15 && e.key.sym.toString(), e.val.type]),
          ).toEqual([
            ['gains_or_losses', 10],
            ['locked_fee', 10],
            ['prev_balance', 10],
          ])
        } else throw new Error(`unexpected entry ${signature}`)
        if (signature === 'strategy:VaultPos') expect(roles(key[1])).toBe('vault')
      }
    }
    expect([...seen].sort()).toEqual([
      'strategy instance',
      'strategy:VaultPos',
      'vault instance',
      'vault:Balance',
      'vault:Report',
    ])
  })

  it("writes the asset contracts' Balance of a vault or strategy as the SAC does: {amount, authorized, clawback}", () => {
    const holders = new Set<string>()
    for (const t of allTxs()) {
      for (const c of t.changes) {
        if (c.kind === 'removed' || roles(c.contract) !== 'asset') continue
        const [name, holder] = c.key as [string, string]
        expect(name).toBe('Balance')
        expect(['vault', 'strategy']).toContain(roles(holder))
        expect(c.durability).toBe('persistent')
        const val = c.valWire!
        expect(
          val.type === 17 && val.map!.map((e) => [e.key.type === 15 && e.key.sym.toString(), e.val.type]),
        ).toEqual([
          ['amount', 10],
          ['authorized', 0],
          ['clawback', 0],
        ])
        expect((c.val as { amount: bigint }).amount).toBeGreaterThanOrEqual(0n)
        holders.add(`${c.contract}|${holder}`)
      }
    }
    // Each vault's asset and strategy, and each strategy's BLND from harvests.
    expect(holders.size).toBeGreaterThanOrEqual(6)
  })

  it('publishes vault events under the String "DeFindexVault" and strategy events under the String "BlendStrategy"', () => {
    const fields: Record<string, string[]> = {
      'vault:deposit': [
        'amounts',
        'depositor',
        'df_tokens_minted',
        'total_managed_funds_before',
        'total_supply_before',
      ],
      'vault:withdraw': [
        'amounts_withdrawn',
        'df_tokens_burned',
        'total_managed_funds_before',
        'total_supply_before',
        'withdrawer',
      ],
      'vault:dfees': ['distributed_fees'],
      'strategy:deposit': ['amount', 'from'],
      'strategy:withdraw': ['amount', 'from'],
      'strategy:harvest': ['amount', 'from', 'price_per_share'],
    }
    const seen = new Set<string>()
    for (const t of allTxs()) {
      for (const e of t.events) {
        const role = roles(e.contractId)
        if (role !== 'vault' && role !== 'strategy') continue
        const [first, second] = e.topicsWire
        if (first?.type === 15) {
          // df-token events are the token interface's: Symbol topics.
          expect(role).toBe('vault')
          expect(['mint', 'burn', 'transfer']).toContain(first.sym.toString())
          expect(e.valueWire.type).toBe(10)
          continue
        }
        expect(first?.type).toBe(14)
        expect(first?.type === 14 && first.str.toString()).toBe(
          role === 'vault' ? 'DeFindexVault' : 'BlendStrategy',
        )
        expect(second?.type).toBe(15)
        const name = `${role}:${second?.type === 15 ? second.sym.toString() : ''}`
        seen.add(name)
        const data = e.valueWire
        const names =
          data.type === 17 ? data.map!.map((f) => (f.key.type === 15 ? f.key.sym.toString() : '?')) : []
        if (name === 'vault:rebalance') {
          const method =
            data.type === 17
              ? data.map!.find((f) => f.key.type === 15 && f.key.sym.toString() === 'rebalance_method')?.val
              : undefined
          const kind = method?.type === 15 ? method.sym.toString() : ''
          expect(names).toEqual(
            kind === 'invest'
              ? ['asset_investments', 'rebalance_method', 'report']
              : ['call_params', 'rebalance_method', 'report'],
          )
          seen.add(`rebalance:${kind}`)
        } else expect(names).toEqual(fields[name])
      }
    }
    expect([...seen].sort()).toEqual([
      'rebalance:invest',
      'rebalance:unwind',
      'strategy:deposit',
      'strategy:harvest',
      'strategy:withdraw',
      'vault:deposit',
      'vault:dfees',
      'vault:rebalance',
      'vault:withdraw',
    ])
  })

  it('orders a deposit as the vault does: transfer in, mint, deposit event, then the strategy and the pool', () => {
    let firsts = 0
    let invested = 0
    for (const t of allTxs().filter((x) => x.successful && x.fn === 'deposit')) {
      const names = eventNames(t)
      const mints = names.filter((n) => n === 'vault:mint').length
      const head = ['asset:transfer', ...Array(mints).fill('vault:mint'), 'vault:deposit']
      expect(names.slice(0, head.length)).toEqual(head)
      if (mints === 2) firsts++
      const rest = names.slice(head.length)
      if (rest.length === 0) continue
      invested++
      // invest_in_strategy: vault -> strategy, a refund of the rounding if any, the pool's submit, the strategy's event.
      const refund = rest.length === 5
      expect(rest).toEqual([
        'asset:transfer',
        ...(refund ? ['asset:transfer'] : []),
        'pool:supply',
        'asset:transfer',
        'strategy:deposit',
      ])
    }
    expect(firsts).toBe(3)
    expect(invested).toBeGreaterThan(50)
  })

  it('orders a withdrawal: burn, idle funds, then the pool pays the holder, the strategy and the vault events', () => {
    let unwound = 0
    for (const t of allTxs().filter(
      (x) => x.successful && x.fn === 'withdraw' && roles(x.events[0]!.contractId) === 'vault',
    )) {
      const names = eventNames(t)
      expect(names[0]).toBe('vault:burn')
      expect(names.at(-1)).toBe('vault:withdraw')
      const middle = names.slice(1, -1)
      const fromPool = middle.indexOf('pool:withdraw')
      if (fromPool < 0) {
        expect(middle.length).toBeLessThanOrEqual(1)
        continue
      }
      unwound++
      expect(middle.slice(fromPool)).toEqual(['pool:withdraw', 'asset:transfer', 'strategy:withdraw'])
      expect(fromPool).toBeLessThanOrEqual(1)
    }
    expect(unwound).toBeGreaterThan(20)
  })

  it('moves df-tokens between holders: the token transfer event and both Balance entries', () => {
    let transfers = 0
    for (const t of allTxs().filter((x) => x.successful && x.fn === 'transfer')) {
      transfers++
      expect(t.events).toHaveLength(1)
      const e = t.events[0]!
      const [, from, to] = e.topicsWire.map((v) =>
        v.type === 18 ? Address.fromScAddress(xdr.ScAddress.fromXdrObject(v.address)).toString() : '',
      )
      const amount = e.valueWire.type === 10 ? (e.valueWire.i128.hi << 64n) | e.valueWire.i128.lo : -1n
      const balance = (who: string, kind: string) =>
        t.changes.find((c) => c.kind === kind && tag(c.key) === 'Balance' && (c.key as string[])[1] === who)
          ?.val as bigint | undefined
      const held = (who: string) => balance(who, 'state') ?? 0n
      if (from === to) continue
      expect(balance(from!, 'updated')).toBe(held(from!) - amount)
      expect(balance(to!, 'updated') ?? balance(to!, 'created')).toBe(held(to!) + amount)
    }
    expect(transfers).toBeGreaterThan(10)
  })

  it('answers getLedgerEntries for vaults and strategies with the last written entries', () => {
    const latest = new Map<string, { contract: string; keyXdr: string; valWire: xdr.ScValWire }>()
    for (const t of allTxs())
      for (const c of t.changes)
        if (
          (vaults.includes(c.contract) || strategies.includes(c.contract) || roles(c.contract) === 'asset') &&
          (c.kind === 'created' || c.kind === 'updated')
        )
          latest.set(`${c.contract}|${c.keyXdr}`, {
            contract: c.contract,
            keyXdr: c.keyXdr,
            valWire: c.valWire!,
          })
    expect(latest.size).toBeGreaterThan(40)
    for (const c of latest.values()) {
      const key: xdr.LedgerKeyWire = {
        type: 6,
        contractData: {
          contract: new Address(c.contract).toScAddress().toXdrObject(),
          key: xdr.ScVal.fromXDR(c.keyXdr, 'base64').toXdrObject(),
          durability: 1,
        },
      }
      const entry = chain.getEntry(key)
      expect(entry).toBeDefined()
      const data = xdr.LedgerEntryData.fromXDR(entry!.xdr, 'base64').toXdrObject()
      if (data.type !== 6) throw new Error('not contract data')
      expect(xdr.ScVal.fromXdrObject(data.contractData.val).toXDR('base64')).toBe(
        xdr.ScVal.fromXdrObject(c.valWire).toXDR('base64'),
      )
    }
  })

  it('is deterministic by seed, and --yield-activity 0 deploys no vault', () => {
    const hash = (c: DevnetChain) => {
      const h = createHash('sha256')
      for (let s = c.oldestLedger(); s <= c.latestLedger(); s++) h.update(c.ledgerMetaXdr(s))
      return h.digest('hex')
    }
    const options = { seed: 'yield-twice', ledgers: 400, accounts: 30, activity: 0.05, startLedger: 500 }
    expect(hash(createDevnetChain(options))).toBe(hash(createDevnetChain(options)))
    const off = createDevnetChain({ ...options, yieldActivity: 0 })
    expect(off.network.contracts.yieldprotocol).toEqual([])
    const ids = chain.network.contracts.yieldprotocol.map((c) => c.address)
    for (const l of decodeLedgers(off))
      for (const t of l.txs) {
        expect(t.changes.some((c) => ids.includes(c.contract))).toBe(false)
        expect(t.events.some((e) => ids.includes(e.contractId))).toBe(false)
      }
  })
})

describe('a devnet deposit has the shape of mainnet deposit 63092996 into the Meru USDC vault', () => {
  const MAINNET: Record<string, string> = {
    CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR: 'vault',
    CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP: 'strategy',
    // The vault's second strategy (YieldBlox), empty in that ledger.
    CCSRX5E4337QMCMC3KO3RDFYI57T5NZV5XB3W3TWE4USCASKGL5URKJL: 'strategy',
    CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD: 'pool',
    CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75: 'asset',
  }
  const mainnetRoles: Roles = (a) => MAINNET[a] ?? (a.startsWith('G') ? 'holder' : 'contract')

  function mainnetDeposit(): RawTx {
    const bytes = gunzipSync(
      readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092996.xdr.gz', import.meta.url)),
    )
    const tx = rawTxs(bytes).find(
      (t) => t.hash === '71f6c6ffc200cb8b845ea4f41f04dfef2586f1d7e7405d6de122b44fca4c056e',
    )
    if (!tx) throw new Error('the deposit is not in the fixture')
    return tx
  }

  /** A devnet deposit into a vault whose strategy is invested, by an existing holder, without a rounding refund. */
  function devnetDeposit(): RawTx {
    for (const l of ledgers) {
      const raw = rawTxs(chain.ledgerMetaXdr(l.sequence))
      for (const [i, t] of l.txs.entries()) {
        if (!t.successful || t.fn !== 'deposit' || t.events.length !== 7) continue
        if (t.changes.some((c) => c.kind === 'created') || l.sequence < START + 1_000) continue
        return raw[i]!
      }
    }
    throw new Error('no such deposit')
  }

  it('emits the same events, in the same order, with the same topics and data shapes', () => {
    const expected = mainnetDeposit().events.map((e) => eventShape(e, mainnetRoles))
    expect(expected).toHaveLength(7)
    expect(devnetDeposit().events.map((e) => eventShape(e, roles))).toEqual(expected)
  })

  it('changes the same entries (keys, durability, value types), less what the devnet does not simulate', () => {
    const mainnet = new Set(mainnetDeposit().changes.map((c) => changeShape(c, mainnetRoles)))
    const devnet = new Set(devnetDeposit().changes.map((c) => changeShape(c, roles)))
    // Not simulated on the devnet (docs/devnet.md): TTL extensions, the holder's classic trust line,
    // and the pool's own balance on the asset contract.
    const notSimulated = [...mainnet].filter((s) => !devnet.has(s))
    expect(notSimulated.sort()).toEqual([
      'asset|state|persistent|Vec[Sym(Balance),Addr(pool)]|Map{Sym(amount):I128,Sym(authorized):Bool,Sym(clawback):Bool}',
      'asset|updated|persistent|Vec[Sym(Balance),Addr(pool)]|Map{Sym(amount):I128,Sym(authorized):Bool,Sym(clawback):Bool}',
      'state|trustline',
      'state|ttl',
      'updated|trustline',
      'updated|ttl',
    ])
    // The devnet's pool has live emissions on the strategy's b-token (the mainnet reserve's had ended).
    const extra = [...devnet].filter((s) => !mainnet.has(s))
    for (const s of extra)
      expect(s).toMatch(/^pool\|(state|updated|created)\|persistent\|Vec\[Sym\((EmisData|UserEmis)\)/)
  })
})
