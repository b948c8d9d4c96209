import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { expectedAccrual, type ResConfig, type ResData } from './blend-reference.ts'
import { type DecodedLedger, type DecodedTx, decodeLedgers } from './decode-ledgers.ts'

// The vaults' accounting, recomputed from the entries and events the devnet wrote, with the
// formulas of paltalabs/defindex (vault/src/{funds,report,deposit,lib}.rs, strategies/blend/src/
// {utils,reserves}.rs) written again here.
const START = 2_000
const LEDGERS = 3_000
const S12 = 1_000_000_000_000n

interface Report {
  gains_or_losses: bigint
  locked_fee: bigint
  prev_balance: bigint
}
interface Reserves {
  b_rate: bigint
  total_b_tokens: bigint
  total_shares: bigint
}
interface VaultBook {
  asset: string
  strategy: string
  fee: bigint
  supply: bigint
  balances: Map<string, bigint>
  idle: bigint
  report: Report | null
  vaultPos: bigint
  reserves: Reserves | null
  positions: bigint
}

let chain: DevnetChain
let ledgers: DecodedLedger[]
let pool: string
const books = new Map<string, VaultBook>()

const native = (v: xdr.ScValWire) => scValToNative(xdr.ScVal.fromXdrObject(v))
const keyTag = (key: unknown) => (Array.isArray(key) ? String(key[0]) : String(key))
const written = (t: DecodedTx) => t.changes.filter((c) => c.kind === 'created' || c.kind === 'updated')

/** strategy `balance(vault)`: shares → b-tokens (floor) → underlying at the pool's b_rate (floor). */
function strategyBalance(b: VaultBook, bRate: bigint): bigint {
  if (b.vaultPos === 0n || !b.reserves || b.reserves.total_shares === 0n || b.reserves.total_b_tokens === 0n)
    return 0n
  return (((b.vaultPos * b.reserves.total_b_tokens) / b.reserves.total_shares) * bRate) / S12
}

/** `update_report_and_lock_fees` on the report as stored. */
function reported(b: VaultBook, balance: bigint): Report {
  const r = b.report ?? { gains_or_losses: 0n, locked_fee: 0n, prev_balance: 0n }
  const prev = r.prev_balance === 0n ? balance : r.prev_balance
  const next = { ...r, gains_or_losses: r.gains_or_losses + balance - prev, prev_balance: balance }
  if (next.gains_or_losses > 0n) {
    next.locked_fee += (next.gains_or_losses * b.fee) / 10_000n
    next.gains_or_losses = 0n
  }
  return next
}

const checks = { deposits: 0, withdrawals: 0, accrued: 0, projected: 0, supplyChecks: 0, positionChecks: 0 }
const dormant: { holder: string; ledgers: number; growth: bigint }[] = []

beforeAll(() => {
  chain = createDevnetChain({
    seed: 'yield-funds',
    ledgers: LEDGERS,
    accounts: 80,
    activity: 0.03,
    // Soroswap's pairs write asset balances too; this world is about the vaults.
    ammActivity: 0,
    startLedger: START,
  })
  ledgers = decodeLedgers(chain)
  const yieldContracts = chain.network.contracts.yieldprotocol
  pool = chain.network.contracts.lendingprotocol[0]!.address
  for (const v of yieldContracts.filter((c) => c.kind === 'defindex-vault')) {
    books.set(v.address, {
      asset: v.assets![0]!,
      strategy: v.strategies![0]!,
      fee: 0n,
      supply: 0n,
      balances: new Map(),
      idle: 0n,
      report: null,
      vaultPos: 0n,
      reserves: null,
      positions: 0n,
    })
  }
})

describe('the DeFindex vaults account as the contracts do', () => {
  it('reports total_managed_funds_before and total_supply_before from the state as it stood before each call', () => {
    const resData = new Map<string, ResData>()
    const resConfig = new Map<string, ResConfig>()
    let bstopRate = 0n
    const strategyOf = new Map([...books].map(([vault, b]) => [b.strategy, vault]))
    const lastWrite = new Map<string, number>()
    const bRateAt = new Map<string, { ledger: number; bRate: bigint }[]>()
    for (const l of ledgers) {
      for (const t of l.txs.filter((x) => x.successful)) {
        // What the contract computes before it changes anything: fetch_total_managed_funds.
        for (const e of t.events) {
          const book = books.get(e.contractId)
          const [first, second] = e.topicsWire
          if (!book || first?.type !== 14 || second?.type !== 15) continue
          const name = second.sym.toString()
          if (name !== 'deposit' && name !== 'withdraw') continue
          const touched = written(t).find(
            (c) =>
              c.contract === pool && keyTag(c.key) === 'ResData' && (c.key as string[])[1] === book.asset,
          )
          let bRate: bigint
          if (touched) {
            bRate = (touched.val as ResData).b_rate
            checks.accrued++
          } else {
            bRate = expectedAccrual(
              resData.get(book.asset)!,
              resConfig.get(book.asset)!,
              bstopRate,
              BigInt(l.closeTime),
            ).b_rate
            checks.projected++
          }
          const balance = strategyBalance(book, bRate)
          const report = reported(book, balance)
          const invested = balance - report.locked_fee
          const data = native(e.valueWire) as Record<string, unknown>
          expect(data.total_supply_before).toBe(book.supply)
          expect(data.total_managed_funds_before).toEqual([
            {
              asset: book.asset,
              idle_amount: book.idle,
              invested_amount: invested,
              strategy_allocations: [{ amount: invested, paused: false, strategy_address: book.strategy }],
              total_amount: book.idle + invested,
            },
          ])
          const total = book.idle + invested
          if (name === 'deposit') {
            const [amount] = data.amounts as bigint[]
            expect(data.df_tokens_minted).toBe(book.supply === 0n ? amount : (book.supply * amount!) / total)
            checks.deposits++
          } else {
            expect(data.amounts_withdrawn).toEqual([
              (total * (data.df_tokens_burned as bigint)) / book.supply,
            ])
            checks.withdrawals++
          }
          // The Report the call wrote first is this one (a deposit that invests rewrites it after).
          const reportWrite = t.changes.find(
            (c) => c.contract === e.contractId && c.kind !== 'state' && keyTag(c.key) === 'Report',
          )
          if (name === 'deposit' && invested === 0n) expect(reportWrite?.val).toEqual(report)
        }
        // The state after the call: entries and the vaults' asset balances moved by transfers.
        for (const c of written(t)) {
          const vault = books.get(c.contract)
          const byStrategy = strategyOf.get(c.contract)
          const tag = keyTag(c.key)
          if (vault && c.key === 'instance') {
            for (const [k, v] of c.val as [unknown, unknown][]) {
              if (keyTag(k) === 'TotalSupply') vault.supply = v as bigint
              if (keyTag(k) === 'VaultFee') vault.fee = BigInt(v as number)
            }
          } else if (vault && tag === 'Balance') {
            const holder = (c.key as string[])[1]!
            vault.balances.set(holder, c.val as bigint)
            lastWrite.set(`${c.contract}|${holder}`, l.sequence)
          } else if (vault && tag === 'Report') vault.report = c.val as Report
          else if (byStrategy && c.key === 'instance') {
            for (const [k, v] of c.val as [unknown, unknown][])
              if (keyTag(k) === 'Reserves') books.get(byStrategy)!.reserves = v as Reserves
          } else if (byStrategy && tag === 'VaultPos') books.get(byStrategy)!.vaultPos = c.val as bigint
          else if (c.contract === pool && tag === 'ResData') {
            const asset = (c.key as string[])[1]!
            resData.set(asset, c.val as ResData)
            const series = bRateAt.get(asset) ?? []
            series.push({ ledger: l.sequence, bRate: (c.val as ResData).b_rate })
            bRateAt.set(asset, series)
          } else if (c.contract === pool && tag === 'ResConfig')
            resConfig.set((c.key as string[])[1]!, c.val as ResConfig)
          else if (c.contract === pool && c.key === 'instance') {
            for (const [k, v] of c.val as [unknown, unknown][])
              if (k === 'Config') bstopRate = BigInt((v as { bstop_rate: number }).bstop_rate)
          } else if (c.contract === pool && tag === 'Positions' && strategyOf.has((c.key as string[])[1]!)) {
            const book = books.get(strategyOf.get((c.key as string[])[1]!)!)!
            // A strategy supplies to one reserve only: its supply map has at most one entry.
            book.positions = Object.values((c.val as { supply: Record<string, bigint> }).supply)[0] ?? 0n
          }
        }
        for (const e of t.events) {
          const [first, from, to] = e.topicsWire
          if (first?.type !== 15 || first.sym.toString() !== 'transfer') continue
          for (const [vault, b] of books) {
            if (e.contractId !== b.asset) continue
            const amount = native(e.valueWire) as bigint
            if (from && native(from) === vault) b.idle -= amount
            if (to && native(to) === vault) b.idle += amount
          }
        }
        for (const b of books.values()) {
          // Total supply is the sum of every Balance entry, the 1,000 locked to the vault included.
          let sum = 0n
          for (const v of b.balances.values()) sum += v
          expect(sum).toBe(b.supply)
          checks.supplyChecks++
          // The strategy's b-tokens in the pool are exactly what its Reserves account for.
          expect(b.positions).toBe(b.reserves?.total_b_tokens ?? 0n)
          checks.positionChecks++
        }
      }
    }
    expect(checks.deposits).toBeGreaterThan(100)
    expect(checks.withdrawals).toBeGreaterThan(50)
    expect(checks.accrued).toBeGreaterThan(50)
    expect(checks.projected).toBeGreaterThan(5)
    for (const [vault, b] of books) {
      expect(b.balances.get(vault)).toBe(1_000n)
      expect(b.supply).toBeGreaterThan(1_000n)
    }
    // Dormant holders: a Balance entry untouched for 1,500+ ledgers while the reserve's b_rate grew.
    for (const [id, ledger] of lastWrite) {
      const [vault, holder] = id.split('|') as [string, string]
      const b = books.get(vault)!
      if (holder === vault || (b.balances.get(holder) ?? 0n) === 0n) continue
      const series = bRateAt.get(b.asset) ?? []
      const then = [...series].reverse().find((s) => s.ledger <= ledger)
      const now = series.at(-1)
      if (!then || !now || START + LEDGERS - ledger < 1_500) continue
      dormant.push({ holder, ledgers: START + LEDGERS - ledger, growth: now.bRate - then.bRate })
    }
    expect(dormant.length).toBeGreaterThan(3)
    expect(dormant.every((d) => d.growth > 0n)).toBe(true)
  })
})
