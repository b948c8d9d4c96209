/**
 * Blend v2's reserve arithmetic written again from the contract source
 * (blend-capital/blend-contracts-v2, pool/src/pool/{reserve,interest}.rs), independently of the
 * devnet's code, for the tests that check what the devnet's pools wrote.
 */
const S7 = 10_000_000n
const S12 = 1_000_000_000_000n

export type ResData = {
  b_rate: bigint
  b_supply: bigint
  backstop_credit: bigint
  d_rate: bigint
  d_supply: bigint
  ir_mod: bigint
  last_time: bigint
}
export type ResConfig = Record<string, number | bigint | boolean>
export const floorDiv = (a: bigint, b: bigint) => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b)
export const ceilDiv = (a: bigint, b: bigint) => (a % b !== 0n && a < 0n === b < 0n ? a / b + 1n : a / b)
export const liabilitiesOf = (d: ResData) => ceilDiv(d.d_supply * d.d_rate, S12)
export const supplyOf = (d: ResData) => floorDiv(d.b_supply * d.b_rate, S12)

export function expectedAccrual(prev: ResData, c: ResConfig, bstopRate: bigint, now: bigint): ResData {
  const d = { ...prev }
  if (now === d.last_time) return d
  const liab = liabilitiesOf(d)
  const sup = supplyOf(d)
  const util = liab === 0n ? 0n : liab >= sup ? S7 : ceilDiv(liab * S7, sup)
  if (d.b_supply === 0n || util === 0n) return { ...d, last_time: now }
  const target = BigInt(c.util as number)
  const [r0, r1, r2, r3] = [c.r_base, c.r_one, c.r_two, c.r_three].map((x) => BigInt(x as number)) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ]
  let ir: bigint
  if (util <= target) ir = ceilDiv((ceilDiv(ceilDiv(util * S7, target) * r1, S7) + r0) * d.ir_mod, S7)
  else if (util <= 9_500_000n)
    ir = ceilDiv(
      (ceilDiv(ceilDiv((util - target) * S7, 9_500_000n - target) * r2, S7) + r1 + r0) * d.ir_mod,
      S7,
    )
  else
    ir =
      ceilDiv(ceilDiv((util - 9_500_000n) * S7, 500_000n) * r3, S7) + ceilDiv(d.ir_mod * (r0 + r1 + r2), S7)
  const dt = now - d.last_time
  const err = dt * (util - target) * BigInt(c.reactivity as number)
  let irMod = d.ir_mod + (err >= 0n ? floorDiv(err, S7) : ceilDiv(err, S7))
  if (irMod > 10n * S7) irMod = 10n * S7
  if (irMod < S7 / 10n) irMod = S7 / 10n
  const accrual = S12 + ceilDiv(((dt * S12) / 31_536_000n) * ir, S7)
  const dRate = ceilDiv(accrual * d.d_rate, S12)
  const accrued = ceilDiv(d.d_supply * dRate, S12) - liab
  let bRate = d.b_rate
  let credit = d.backstop_credit
  if (accrued > 0n) {
    const fresh = floorDiv(accrued * bstopRate, S7)
    credit += fresh
    bRate = floorDiv((sup + accrued - fresh) * S12, d.b_supply)
  }
  return { ...d, ir_mod: irMod, d_rate: dRate, b_rate: bRate, backstop_credit: credit, last_time: now }
}
