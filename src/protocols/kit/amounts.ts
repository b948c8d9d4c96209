/**
 * Integer arithmetic for amounts: every value is a BigInt count of the smallest unit, and every
 * division says how it rounds. No floating point touches an amount.
 */

/** 10^n as a BigInt. */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n)
}

/** Decimal string with exactly `decimals` fractional digits: 12345n, 4 -> "1.2345"; never exponent notation. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals)
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`
}

/** numerator / denominator rounded up, for non-negative operands. */
export function divCeil(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n || numerator < 0n)
    throw new RangeError('divCeil takes a non-negative numerator and a positive denominator')
  return (numerator + denominator - 1n) / denominator
}

/** numerator / denominator rounded half to even (banker's rounding), for any signs. */
export function divHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero')
  if (denominator < 0n) return divHalfEven(-numerator, -denominator)
  const negative = numerator < 0n
  const n = negative ? -numerator : numerator
  let quotient = n / denominator
  const twiceRemainder = (n % denominator) * 2n
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n
  return negative ? -quotient : quotient
}
