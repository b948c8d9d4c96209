/**
 * What the charts that sample an answer across a range of ledgers share: which ledgers to ask
 * about, and asking a few at a time (the value of an account over time, a pool's series).
 */

/** `count` ledgers spread evenly from `from` to `to`, both included, ascending, without repeats. */
export function spreadLedgers(from: number, to: number, count: number): number[] {
  if (to <= from) return [to]
  const steps = Math.min(count - 1, to - from)
  const ledgers: number[] = []
  for (let i = 0; i <= steps; i++) ledgers.push(from + Math.round(((to - from) * i) / steps))
  return [...new Set(ledgers)]
}

/** Runs `task` over `items` with at most `limit` at a time, answers in the items' order. */
export async function mapLimited<T, R>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
