import type { Awaitable } from '../awaitable.ts'
import { andThen } from '../awaitable.ts'
import type { Database } from './db.ts'
import { createQueryOne } from './prepared.ts'

/** A ledger and its close time (epoch seconds). */
export interface LedgerTime {
  sequence: number
  closeTime: number
}

/** Which indexed ledger was the latest at a time. */
export interface LedgerTimeReader {
  /**
   * The latest ledger at or below `lastLedger` (the checkpoint) closed at or before `timeS`
   * (epoch seconds); null when none is. One seek on `ledgers_close_time` (close times do not
   * decrease with the sequence; equal close times answer the highest sequence).
   */
  ledgerAtTime(timeS: number, lastLedger: number): Awaitable<LedgerTime | null>
}

const SQL = {
  atTime: `SELECT sequence, close_time FROM ledgers WHERE close_time <= $1 AND sequence <= $2
             ORDER BY close_time DESC, sequence DESC LIMIT 1`,
} as const

export function createLedgerTimeReader(database: Database): LedgerTimeReader {
  const one = createQueryOne(database, SQL, 'ledger_times')
  return {
    ledgerAtTime: (timeS, lastLedger) =>
      andThen(
        one<{ sequence: number | string; close_time: number | string }>('atTime', [timeS, lastLedger]),
        (row) =>
          row === null ? null : { sequence: Number(row.sequence), closeTime: Number(row.close_time) },
      ),
  }
}
