import { describe, expect, it } from 'vitest'
import { claimable, projectIndex } from '../../src/protocols/lendingprotocol/emissions.ts'
import {
  curveRate,
  type ReserveConfig,
  type ReserveData,
  reserveAprs,
  utilization,
} from '../../src/protocols/lendingprotocol/reserves.ts'

// Expected values worked out by hand from blend-contracts-v2 pool/src/pool/interest.rs (every step
// `fixed_*_ceil`), reserve.rs `utilization`, blend-sdk-js reserve.ts `setRates` and
// emissions/distributor.rs; chosen where rounding each step differs from rounding once.

const config = (over: Partial<ReserveConfig>): ReserveConfig => ({
  ledger: 1,
  index: 0,
  decimals: 7,
  cFactor: 9_000_000n,
  lFactor: 9_000_000n,
  util: 8_000_000n,
  maxUtil: 9_500_000n,
  rBase: 100_000n,
  rOne: 400_000n,
  rTwo: 1_200_000n,
  rThree: 50_000_000n,
  reactivity: 40n,
  supplyCap: null,
  enabled: true,
  ...over,
})
const data = (over: Partial<ReserveData>): ReserveData => ({
  ledger: 1,
  bRate: 10n ** 12n,
  dRate: 10n ** 12n,
  bSupply: 1_000n,
  dSupply: 500n,
  backstopCredit: 0n,
  irMod: 10_000_000n,
  lastTime: 0n,
  ...over,
})

describe('the interest curve and the rates the SDK shows', () => {
  it('rounds each step up, below the target', () => {
    // util_scalar = ceil(1 × 10^7 / 3_000_000) = 4; ceil(4 × 30_000_000 / 10^7) = 12; + r_base 100_000.
    expect(curveRate(config({ util: 3_000_000n, rOne: 30_000_000n }), 10_000_000n, 1n)).toBe(100_012n)
  })

  it('rounds each step up, between the target and 95%', () => {
    // util_scalar = ceil(1 × 10^7 / 1_500_000) = 7; ceil(7 × 50_000_000 / 10^7) = 35; + r_one + r_base.
    expect(curveRate(config({ rTwo: 50_000_000n }), 10_000_000n, 8_000_001n)).toBe(35n + 400_000n + 100_000n)
  })

  it('adds r_three above 95% to the scaled sum of the other slopes', () => {
    // util_scalar = (9_600_000 − 9_500_000) × 20 = 2_000_000; ceil(2_000_000 × 50_000_000 / 10^7) = 10_000_000;
    // ir_mod 1.5: ceil(15_000_000 × 1_700_000 / 10^7) = 2_550_000.
    expect(curveRate(config({}), 15_000_000n, 9_600_000n)).toBe(12_550_000n)
  })

  it('takes utilization as the pool does: capped at 1, 0 with nothing borrowed', () => {
    expect(utilization(data({ dSupply: 0n }))).toBe(0n)
    expect(utilization(data({ dSupply: 2_000n }))).toBe(10_000_000n)
    // ceil(1 × 10^7 / 3) = 3_333_334: a third rounds up.
    expect(utilization(data({ bSupply: 3n, dSupply: 1n }))).toBe(3_333_334n)
  })

  it('shows r_base and no supply rate with nothing borrowed, whatever ir_mod', () => {
    expect(reserveAprs(config({}), data({ dSupply: 0n, irMod: 20_000_000n }), 2_000_000n)).toEqual({
      borrowApr: 100_000n,
      supplyApr: 0n,
      util: 0n,
    })
  })

  it('gives suppliers the borrow rate × floor(utilization × (1 − the backstop take rate))', () => {
    // util 0.5 ≤ target 0.8: ceil(ceil(5_000_000 × 10^7 / 8_000_000) × 400_000 / 10^7) = ceil(6_250_000 × 0.04) = 250_000;
    // borrow = 350_000; capture = floor(8_000_000 × 5_000_000 / 10^7) = 4_000_000; supply = 140_000.
    expect(reserveAprs(config({}), data({}), 2_000_000n)).toEqual({
      borrowApr: 350_000n,
      supplyApr: 140_000n,
      util: 5_000_000n,
    })
  })
})

describe('emissions', () => {
  const emission = { ledger: 1, eps: 10n ** 14n, expiration: 200n, index: 0n, lastTime: 100n }

  it("brings a token's index up to a time, and no further than its expiration", () => {
    // 1 BLND a second for 50 s over 1,000 tokens: 0.05 BLND a token = 5 × 10^12 at 14 decimals.
    expect(projectIndex(emission, 1_000n * 10n ** 7n, 7, 150n)).toBe(5n * 10n ** 12n)
    expect(projectIndex(emission, 1_000n * 10n ** 7n, 7, 300n)).toBe(10n ** 13n)
    expect(projectIndex(emission, 0n, 7, 150n)).toBe(0n)
    expect(projectIndex({ ...emission, lastTime: 200n }, 10n, 7, 300n)).toBe(0n)
  })

  it('owes accrued plus the balance × the index growth, rounded down', () => {
    // 100 tokens × 0.1 BLND = 10 BLND, plus 5 stroops accrued.
    expect(claimable({ accrued: 5n, index: 0n }, 100n * 10n ** 7n, 10n ** 13n, 7)).toBe(100_000_005n)
    // A holder the pool has no entry for is owed the whole index.
    expect(claimable(null, 3n, 10n ** 13n, 7)).toBe(0n)
    expect(claimable(null, 3n * 10n ** 7n, 10n ** 13n, 7)).toBe(3_000_000n)
    expect(claimable({ accrued: 7n, index: 5n }, 0n, 10n ** 13n, 7)).toBe(7n)
  })
})
