import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { Address, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { loadNetworkConfig } from '../../src/chain/load-network.ts'
import { ledgerClosedBy } from '../../src/protocols/kit/ledger-times.ts'
import { annualize, expFixed, lnFixed } from '../../src/protocols/yieldprotocol/apy.ts'
import {
  pricePerShare,
  reportAndLock,
  strategyBalance,
  underlyingOf,
} from '../../src/protocols/yieldprotocol/funds.ts'
import { renderYieldPool } from '../../src/protocols/yieldprotocol/pools.ts'

/**
 * The vault's arithmetic against what mainnet's contracts did in ledger 63092996 (test/fixtures/
 * pubnet): the entries before the deposit (the meta's pre-images), the deposit event's
 * `total_managed_funds_before`, and the `Report` the vault wrote, all read with the SDK.
 */
const VAULT = 'CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR'
const FIXED = 'CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP'
const POOL = 'CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'

function readFixture() {
  const bytes = gunzipSync(
    readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092996.xdr.gz', import.meta.url)),
  )
  const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
  if (lcm.type !== 'v2') throw new Error('expected LedgerCloseMeta v2')
  const before = new Map<string, unknown>()
  const after = new Map<string, unknown>()
  let deposit: Record<string, unknown> | null = null
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const op of meta.v4.operations) {
      for (const change of op.changes) {
        const entry =
          change.type === 'ledgerEntryState'
            ? change.state
            : change.type === 'ledgerEntryUpdated'
              ? change.updated
              : null
        if (entry?.data.type !== 'contractData') continue
        const data = entry.data.contractData
        const contract = Address.fromScAddress(data.contract).toString()
        const into = change.type === 'ledgerEntryState' ? before : after
        if (data.key.type === 'scvLedgerKeyContractInstance' && data.val.type === 'scvContractInstance') {
          for (const e of data.val.instance.storage ?? [])
            into.set(`${contract} ${JSON.stringify(scValToNative(e.key))}`, scValToNative(e.val))
        } else into.set(`${contract} ${JSON.stringify(scValToNative(data.key))}`, scValToNative(data.val))
      }
      for (const event of op.events) {
        const topics = event.body.v0.topics.map((t) => scValToNative(t))
        if (topics[0] === 'DeFindexVault' && topics[1] === 'deposit')
          deposit = scValToNative(event.body.v0.data) as Record<string, unknown>
      }
    }
  }
  const key = (contract: string, ...k: unknown[]) => `${contract} ${JSON.stringify(k)}`
  return { before, after, key, deposit: deposit! }
}

describe('DeFindex arithmetic against a genuine mainnet deposit', () => {
  const { before, after, key, deposit } = readFixture()
  const funds = (deposit.total_managed_funds_before as Array<Record<string, unknown>>)[0]!
  const allocation = (funds.strategy_allocations as Array<Record<string, bigint>>)[0]!
  const reserves = before.get(key(FIXED, 'Reserves')) as Record<string, bigint>
  const pos = before.get(key(FIXED, 'VaultPos', VAULT)) as bigint
  // The pool accrued the reserve to the ledger's time for this call and stored that b_rate.
  const bRate = (after.get(key(POOL, 'ResData', USDC)) as Record<string, bigint>).b_rate!
  const reportBefore = before.get(key(VAULT, 'Report', FIXED)) as Record<string, bigint>
  const fee = BigInt(before.get(key(VAULT, 'VaultFee')) as number)
  const toReport = (r: Record<string, bigint>) => ({
    gainsOrLosses: r.gains_or_losses!,
    lockedFee: r.locked_fee!,
    prevBalance: r.prev_balance!,
  })

  it("the strategy's balance, the report's lock and the invested amount are the vault's own", () => {
    const balance = strategyBalance(
      pos,
      {
        bRate: reserves.b_rate!,
        totalBTokens: reserves.total_b_tokens!,
        totalShares: reserves.total_shares!,
      },
      bRate,
    )!
    const locked = reportAndLock(toReport(reportBefore), balance, fee)
    expect(balance - locked.lockedFee).toBe(allocation.amount)
    // The Report the call wrote keeps that locked fee (and then adds the invested deposit to prev_balance).
    const written = after.get(key(VAULT, 'Report', FIXED)) as Record<string, bigint>
    expect(written.locked_fee).toBe(locked.lockedFee)
    expect(locked.lockedFee).toBeGreaterThan(reportBefore.locked_fee!)
  })

  it("the shares minted are the deposit priced at the event's price per share", () => {
    const total = funds.total_amount as bigint
    const supply = deposit.total_supply_before as bigint
    const [amount] = deposit.amounts as bigint[]
    expect((amount! * supply) / total).toBe(deposit.df_tokens_minted)
    // What the minted shares are worth back, rounded down as the vault pays out.
    expect(underlyingOf(deposit.df_tokens_minted as bigint, total, supply)).toBeLessThanOrEqual(amount!)
    expect(pricePerShare(total, supply, 7)).toBe((total * 10n ** 12n) / supply)
    expect(pricePerShare(total, 0n, 7)).toBeNull()
  })

  it('no shares: a balance of 0 without asking the pool; shares without reserves or rate: unknown', () => {
    expect(strategyBalance(0n, null, null)).toBe(0n)
    expect(strategyBalance(pos, null, bRate)).toBeNull()
    expect(
      strategyBalance(
        pos,
        { bRate: 1n, totalBTokens: reserves.total_b_tokens!, totalShares: reserves.total_shares! },
        null,
      ),
    ).toBeNull()
    expect(strategyBalance(pos, { bRate: 1n, totalBTokens: 0n, totalShares: 0n }, null)).toBe(0n)
    // A first report counts prev_balance 0 as the balance itself: nothing gained, nothing locked.
    expect(reportAndLock({ gainsOrLosses: 0n, lockedFee: 0n, prevBalance: 0n }, 1_000n, 5_000n)).toEqual({
      gainsOrLosses: 0n,
      lockedFee: 0n,
      prevBalance: 1_000n,
    })
    // Losses are carried, not locked.
    expect(reportAndLock({ gainsOrLosses: 0n, lockedFee: 7n, prevBalance: 1_000n }, 900n, 5_000n)).toEqual({
      gainsOrLosses: -100n,
      lockedFee: 7n,
      prevBalance: 900n,
    })
  })
})

/**
 * The vault's APY from its price-per-share history, against the textbook formula evaluated in
 * floating point here (a test oracle, never near the code's amounts): a store holding one ledger
 * an hour for 45 days, in which the vault's idle balance (its whole funds: no strategy shares)
 * grows a little every ledger while its supply stays put.
 */
describe('DeFindex vault APY over 7 and 30 days of close time', () => {
  const HOUR = 3600
  const T0 = 1_750_000_000
  const LAST = 45 * 24
  const SUPPLY = 1_000_000_0000000n
  const idleAt = (ledger: number) =>
    1_000_000_0000000n + BigInt(ledger) * 12_345_678n + BigInt(ledger % 7) * 999n
  const closeOf = (ledger: number) => T0 + ledger * HOUR
  const rows = new Map<string, (ledger: number) => unknown>([
    [`${VAULT}|TotalSupply`, () => SUPPLY.toString()],
    [`${VAULT}|TotalAssets`, () => 1],
    [`${VAULT}|VaultFee`, () => 50],
    [`${VAULT}|DeFindexProtocolFeeRate`, () => 2000],
    [
      `${VAULT}|AssetStrategySet/0`,
      () => ({ address: USDC, strategies: [{ address: FIXED, name: 'Fixed', paused: false }] }),
    ],
    [`${USDC}|Balance/${VAULT}`, (ledger) => idleAt(ledger).toString()],
  ])
  const reader = {
    head: () => ({ firstIndexedLedger: 1, lastIndexedLedger: LAST, lastCloseTime: closeOf(LAST) }),
    stateAt(contract: string, key: string, ledger: number) {
      const row = rows.get(`${contract}|${key}`)
      // Every entry rewritten at every ledger from ledger 1 on.
      return row && ledger >= 1 ? { ledger, value: JSON.stringify(row(ledger)) } : null
    },
    closeTime: (ledger: number) => (ledger >= 1 && ledger <= LAST ? closeOf(ledger) : null),
    priceAt: () => null,
  }
  const answer = async (pin: number) => {
    const network = await loadNetworkConfig('pubnet')
    const vault = network.contracts.yieldprotocol.find((c) => c.address === VAULT)!
    const deps = { reader: reader as never, network, maxPriceAgeS: 3600, nowS: closeOf(LAST) }
    const r = await renderYieldPool(deps, network, vault, { ledger: pin, closeTime: closeOf(pin) })
    return (r.data as { assets: Array<Record<string, { apy: string | null; from_ledger: number | null }>> })
      .assets[0]!
  }
  const pps = (ledger: number) => Number((idleAt(ledger) * 10n ** 12n) / SUPPLY) / 1e12

  it('compounds the growth of the price per share since the latest ledger closed a window earlier', async () => {
    const pin = 1000
    const a = await answer(pin)
    for (const [days, field] of [
      [7, 'apy_7d'],
      [30, 'apy_30d'],
    ] as const) {
      // Ledgers are an hour apart: the latest one closed `days` days before the pin.
      const from = pin - days * 24
      expect(a[field]).toMatchObject({ from_ledger: from, to_ledger: pin, unavailable_reason: null })
      const want = (pps(pin) / pps(from)) ** ((365 * 86400) / (closeOf(pin) - closeOf(from))) - 1
      expect(a[field]!.apy).toMatch(/^[0-9]+\.[0-9]{7}$/)
      expect(Math.abs(Number(a[field]!.apy) - want)).toBeLessThan(2e-7)
      expect(want).toBeGreaterThan(0.01)
    }
  })

  it('is null with history_missing when the stored ledgers do not reach a window back', async () => {
    const a = await answer(24 * 20)
    expect(a.apy_7d!.apy).not.toBeNull()
    expect(a.apy_30d).toEqual({
      apy: null,
      from_ledger: null,
      to_ledger: 480,
      unavailable_reason: 'history_missing',
    })
  })

  it('annualizes exactly: no growth is 0, a year of 5 % is 5 %, a loss is negative', () => {
    const YEAR = 365 * 86400
    expect(annualize(10n ** 12n, 10n ** 12n, 7 * 86400)).toBe(0n)
    // 7 decimals, rounded toward zero from a value within 10^-30 of 0.05.
    expect(annualize(100n, 105n, YEAR)! - 500_000n).toBeGreaterThanOrEqual(-1n)
    expect(annualize(100n, 105n, YEAR)! - 500_000n).toBeLessThanOrEqual(0n)
    // Two years of 21 % in all: 10 % a year.
    expect(annualize(100n, 121n, 2 * YEAR)! - 1_000_000n).toBeGreaterThanOrEqual(-1n)
    expect(annualize(100n, 121n, 2 * YEAR)! - 1_000_000n).toBeLessThanOrEqual(0n)
    expect(annualize(100n, 90n, YEAR)! + 1_000_000n).toBeLessThanOrEqual(1n)
    expect(annualize(0n, 90n, YEAR)).toBeNull()
    expect(annualize(100n, 90n, 0)).toBeNull()
    expect(expFixed(0n)).toBe(10n ** 36n)
    expect(lnFixed(10n ** 36n)).toBe(0n)
  })

  it('finds the latest ledger closed by a time by bisection', async () => {
    const times = { closeTime: (l: number) => (l >= 10 && l <= 50 ? l * 5 + (l > 30 ? 100 : 0) : null) }
    expect(await ledgerClosedBy(times, 10, 50, 49)).toBeNull()
    expect(await ledgerClosedBy(times, 10, 50, 50)).toBe(10)
    expect(await ledgerClosedBy(times, 10, 50, 200)).toBe(30)
    expect(await ledgerClosedBy(times, 10, 50, 254)).toBe(30)
    expect(await ledgerClosedBy(times, 10, 50, 255)).toBe(31)
    expect(await ledgerClosedBy(times, 10, 50, 10_000)).toBe(50)
  })
})
