import type { Kysely } from 'kysely'
import type { HealthBoard } from '../health.ts'
import type { Logger } from '../logger.ts'
import {
  addOrganizationUsage,
  readOrganizationUsage,
  type UsageIncrement,
} from '../store/organization-usage.ts'
import type { Schema } from '../store/schema.ts'
import { classifyStoreError, createStoreFailureLog, isUnanswered } from '../store/store-errors.ts'

const DAY_MS = 86_400_000

/** The UTC day of epoch milliseconds, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10)
}

/**
 * Counts each organization's requests per UTC day in memory and adds them to the store in one
 * batch every `flushMs` (a request never waits on a database write), as the API keys' last-used
 * times are recorded (src/auth/key-usage.ts).
 */
export interface OrganizationUsageRecorder {
  /** One request of the organization, at `atMs`. */
  record(organizationId: string, atMs: number): void
  /**
   * The organization's requests on each UTC day `from`..`to` (inclusive, `YYYY-MM-DD`): the
   * stored counts plus this process's not yet written. Read between flushes, so a count being
   * written is counted once.
   */
  daily(organizationId: string, from: string, to: string): Promise<Map<string, number>>
  flush(): Promise<void>
  close(): Promise<void>
}

/**
 * A failed flush keeps its counts for the next one and reports `store_writes` to `health` with
 * the cause; the next flush that writes clears it. Repeated failures are logged without a flood.
 */
export function createOrganizationUsageRecorder(
  db: Kysely<Schema>,
  logger: Logger,
  flushMs: number,
  health?: HealthBoard,
): OrganizationUsageRecorder {
  /** Organization → day number (epoch days) → requests not yet written. */
  let pending = new Map<string, Map<number, number>>()
  /** Flushes and reads, one at a time: a read never sees a batch both written and pending. */
  let queue: Promise<unknown> = Promise.resolve()
  const logStoreFailure = createStoreFailureLog()
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work)
    queue = next.catch(() => undefined)
    return next
  }
  const add = (organizationId: string, dayNumber: number, requests: number) => {
    let days = pending.get(organizationId)
    if (days === undefined) {
      days = new Map()
      pending.set(organizationId, days)
    }
    days.set(dayNumber, (days.get(dayNumber) ?? 0) + requests)
  }

  const flush = (): Promise<void> =>
    inTurn(async () => {
      if (pending.size === 0) return
      const batch = pending
      pending = new Map()
      const increments: UsageIncrement[] = []
      for (const [organizationId, days] of batch)
        for (const [dayNumber, requests] of days)
          increments.push({ organizationId, day: utcDay(dayNumber * DAY_MS), requests })
      try {
        await addOrganizationUsage(db, increments)
        health?.clear('store_writes')
      } catch (error) {
        // Nothing of a failed batch was written (one transaction): count it again next time.
        for (const [organizationId, days] of batch)
          for (const [dayNumber, requests] of days) add(organizationId, dayNumber, requests)
        const found = classifyStoreError(error)
        if (found) {
          logStoreFailure(logger, found, error, 'could not record organization usage')
          if (!isUnanswered(found))
            health?.report('store_writes', found.code, `writes fail: ${found.message}`)
        } else {
          logger.warn({ err: (error as Error).message }, 'could not record organization usage')
        }
      }
    })

  const timer = setInterval(() => void flush(), flushMs)
  timer.unref()

  return {
    record(organizationId, atMs) {
      add(organizationId, Math.floor(atMs / DAY_MS), 1)
    },
    daily(organizationId, from, to) {
      return inTurn(async () => {
        const counts = await readOrganizationUsage(db, organizationId, from, to)
        for (const [dayNumber, requests] of pending.get(organizationId) ?? []) {
          const day = utcDay(dayNumber * DAY_MS)
          if (day >= from && day <= to) counts.set(day, (counts.get(day) ?? 0) + requests)
        }
        return counts
      })
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
