import type { WorldState } from './world-state.ts'

/** Starting USD prices, 14 decimals, of XLM and of the fiat denominations other than USD. */
export const INITIAL_PRICES = {
  xlm: 30_000_000_000_000n,
  EUR: 108_000_000_000_000n,
  GBP: 127_000_000_000_000n,
}

/** Random walk in parts per million, with rare sharp drops of XLM so vaults get liquidated. */
export function movePrices(w: WorldState): void {
  const { rng } = w
  let xlmPpm = rng.nextRange(-15_000, 15_500)
  if (rng.chance(0.06)) xlmPpm = -rng.nextRange(50_000, 160_000)
  // Pull towards the starting price so long runs stay in a plausible band.
  if (w.xlmPrice > INITIAL_PRICES.xlm * 3n) xlmPpm -= 20_000
  if (w.xlmPrice < INITIAL_PRICES.xlm / 3n) xlmPpm += 20_000
  w.xlmPrice = (w.xlmPrice * BigInt(1_000_000 + xlmPpm)) / 1_000_000n
  for (const d of w.denoms) {
    if (d.name === 'USD') continue
    d.price = (d.price * BigInt(1_000_000 + rng.nextRange(-2_000, 2_000))) / 1_000_000n
  }
}
