import { describe, expect, it } from 'vitest'
import { claimable, type EmissionData, projectIndex } from '../../src/protocols/lendingprotocol/emissions.ts'
import {
  compoundedApy,
  type EmissionAprInput,
  emissionApr,
  reserveRates,
} from '../../src/protocols/lendingprotocol/rates.ts'
import {
  curveRate,
  type ReserveConfig,
  type ReserveData,
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
    // (1 + 0.01 / 365)^365 − 1 = 0.0100500287…, rounded up.
    expect(reserveRates(config({}), data({ dSupply: 0n, irMod: 20_000_000n }), 2_000_000n)).toEqual({
      util: 0n,
      borrowApr: 100_000n,
      supplyApr: 0n,
      borrowApy: 100_501n,
      supplyApy: 0n,
      problem: null,
    })
  })

  it('gives suppliers the borrow rate × floor(utilization × (1 − the backstop take rate))', () => {
    // util 0.5 ≤ target 0.8: ceil(ceil(5_000_000 × 10^7 / 8_000_000) × 400_000 / 10^7) = ceil(6_250_000 × 0.04) = 250_000;
    // borrow = 350_000; capture = floor(8_000_000 × 5_000_000 / 10^7) = 4_000_000; supply = 140_000.
    // APY: (1 + 0.035 / 365)^365 − 1 = 0.035617971057… rounded up to 0.0356180;
    // (1 + 0.014 / 52)^52 − 1 = 0.014096548097… rounded down to 0.0140965.
    expect(reserveRates(config({}), data({}), 2_000_000n)).toEqual({
      util: 5_000_000n,
      borrowApr: 350_000n,
      supplyApr: 140_000n,
      borrowApy: 356_180n,
      supplyApy: 140_965n,
      problem: null,
    })
  })

  it('leaves null only the rates whose entries were never seen, and says which', () => {
    const none = { util: null, borrowApr: null, supplyApr: null, borrowApy: null, supplyApy: null }
    expect(reserveRates(config({}), null, 2_000_000n)).toEqual({ ...none, problem: 'rate_missing' })
    expect(reserveRates(null, data({}), 2_000_000n)).toEqual({
      ...none,
      util: 5_000_000n,
      problem: 'config_missing',
    })
    expect(reserveRates(config({}), data({}), null)).toEqual({
      ...none,
      util: 5_000_000n,
      borrowApr: 350_000n,
      borrowApy: 356_180n,
      problem: 'pool_config_missing',
    })
  })

  it('compounds exactly: daily for borrowers rounded up, weekly for suppliers rounded down', () => {
    // 100% APR: (1 + 1/365)^365 − 1 = 1.71456748202…; (1 + 1/52)^52 − 1 = 1.69259695443…
    expect(compoundedApy(10_000_000n, 365n, true)).toBe(17_145_675n)
    expect(compoundedApy(10_000_000n, 52n, false)).toBe(16_925_969n)
    expect(compoundedApy(0n, 365n, true)).toBe(0n)
    // Against the SDK's floating-point formula, to the 7th decimal.
    for (const apr of [1n, 12_345n, 350_000n, 2_500_000n, 31_000_000n]) {
      const float = (periods: number) => ((1 + Number(apr) / 1e7 / periods) ** periods - 1) * 1e7
      expect(Math.abs(Number(compoundedApy(apr, 365n, true)) - float(365))).toBeLessThanOrEqual(1)
      expect(Math.abs(Number(compoundedApy(apr, 52n, false)) - float(52))).toBeLessThanOrEqual(1)
    }
  })
})

describe('emission APR', () => {
  const emission = (over: Partial<EmissionData> = {}): EmissionData => ({
    ledger: 1,
    eps: 10n ** 14n,
    expiration: 2_000n,
    index: 0n,
    lastTime: 0n,
    ...over,
  })
  const usd = (price: bigint) => async () => ({ price, decimals: 14, problem: null })
  const input = (over: Partial<EmissionAprInput> = {}): EmissionAprInput => ({
    emission: emission(),
    historyComplete: true,
    // 1,000,000 supplied (b_rate 1); 500,000 borrowed (400,000 d-tokens at 1.25).
    data: data({ bSupply: 10n ** 13n, dSupply: 4n * 10n ** 12n, dRate: 125n * 10n ** 10n }),
    side: 'supply',
    decimals: 7,
    closeTime: 1_000,
    tokenKnown: true,
    assetPrice: usd(10n ** 14n),
    blndPrice: usd(5n * 10n ** 13n),
    ...over,
  })

  it('is BLND a year × its price over what is supplied or borrowed × the asset price', async () => {
    // 1 BLND/s × 31,536,000 s × $0.5 / $1,000,000 = 15.768; over $500,000 borrowed, 31.536.
    expect(await emissionApr(input())).toEqual({ apr: 157_680_000n, problem: null })
    expect(await emissionApr(input({ side: 'borrow' }))).toEqual({ apr: 315_360_000n, problem: null })
    // 10^-7 BLND/s × 31,536,000 × $1 / 7 tokens at $1 = 0.45051428…, rounded down.
    const small = input({
      emission: emission({ eps: 10n ** 7n }),
      data: data({ bSupply: 7n * 10n ** 7n }),
      blndPrice: usd(10n ** 14n),
    })
    expect(await emissionApr(small)).toEqual({ apr: 4_505_142n, problem: null })
  })

  it('is a known 0 for a token with no emissions, no eps or emissions expired at the ledger', async () => {
    expect(await emissionApr(input({ emission: null }))).toEqual({ apr: 0n, problem: null })
    expect(await emissionApr(input({ emission: emission({ eps: 0n }) }))).toEqual({ apr: 0n, problem: null })
    expect(await emissionApr(input({ closeTime: 2_000 }))).toEqual({ apr: 0n, problem: null })
    // Known zeros need no price.
    const unpriced = async () => ({ price: 0n, decimals: 0, problem: 'price_missing' as const })
    expect(await emissionApr(input({ closeTime: 2_001, blndPrice: unpriced }))).toEqual({
      apr: 0n,
      problem: null,
    })
  })

  it('is null with the reason when an input is unknown', async () => {
    const reason = async (over: Partial<EmissionAprInput>) => (await emissionApr(input(over))).problem
    expect(await reason({ emission: null, historyComplete: false })).toBe('emissions_missing')
    expect(await reason({ data: null })).toBe('rate_missing')
    expect(await reason({ decimals: null })).toBe('config_missing')
    expect(await reason({ closeTime: null })).toBe('close_time_missing')
    expect(await reason({ data: data({ dSupply: 0n }), side: 'borrow' })).toBe('no_holders')
    expect(await reason({ tokenKnown: false })).toBe('emission_token_missing')
    expect(
      await reason({ blndPrice: async () => ({ price: 0n, decimals: 0, problem: 'price_missing' }) }),
    ).toBe('price_missing')
    expect(
      await reason({ assetPrice: async () => ({ price: 1n, decimals: 14, problem: 'price_stale' }) }),
    ).toBe('price_stale')
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
