import { describe, expect, it } from 'vitest'
import { divCeil, divHalfEven, formatUnits } from './amounts.ts'

describe('integer amount arithmetic', () => {
  it('formats with exactly the asset decimals, never exponent notation', () => {
    expect(formatUnits(0n, 7)).toBe('0.0000000')
    expect(formatUnits(1n, 7)).toBe('0.0000001')
    expect(formatUnits(123_4567890n, 7)).toBe('123.4567890')
    expect(formatUnits(-5_000000n, 7)).toBe('-0.5000000')
    expect(formatUnits(10n ** 30n, 7)).toBe('100000000000000000000000.0000000')
    expect(formatUnits(42n, 0)).toBe('42')
  })

  it('rounds up for debt', () => {
    expect(divCeil(10n, 5n)).toBe(2n)
    expect(divCeil(11n, 5n)).toBe(3n)
    expect(divCeil(0n, 5n)).toBe(0n)
    expect(() => divCeil(1n, 0n)).toThrow(RangeError)
  })

  it('rounds half to even once', () => {
    // 2.5 -> 2, 3.5 -> 4, 2.51 -> 3, -2.5 -> -2, -3.5 -> -4
    expect(divHalfEven(25n, 10n)).toBe(2n)
    expect(divHalfEven(35n, 10n)).toBe(4n)
    expect(divHalfEven(251n, 100n)).toBe(3n)
    expect(divHalfEven(249n, 100n)).toBe(2n)
    expect(divHalfEven(-25n, 10n)).toBe(-2n)
    expect(divHalfEven(-35n, 10n)).toBe(-4n)
    expect(divHalfEven(7n, -2n)).toBe(-4n)
  })
})
