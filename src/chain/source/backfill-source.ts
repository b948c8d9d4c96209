import { LedgerContinuityError } from '../ledger-continuity.ts'
import type { LedgerArchive, LedgerSource } from './ledger-source.ts'

/**
 * An archive, then a live source: ledgers older than the live source's oldest come from the
 * archive (the window is asked again after each stretch, since it moves on while a backfill runs),
 * the rest from the live source. One sequence throughout: the live source starts exactly after the
 * archive's last ledger, so there is no gap and no ledger twice. The window and the head are the
 * live source's.
 */
export function createBackfillSource(archive: LedgerArchive, live: LedgerSource): LedgerSource {
  return {
    backfills: true,
    window: (signal) => live.window(signal),
    async *networks(signal) {
      yield* live.networks(signal)
      yield* archive.networks(signal)
    },
    async *pages(from, to, signal) {
      let next = from
      for (;;) {
        const { oldestLedger, latestLedger } = await live.window(signal)
        const archiveEnd = Math.min(oldestLedger - 1, to ?? Number.POSITIVE_INFINITY)
        if (next > archiveEnd) break
        for await (const ledgers of archive.pages(next, archiveEnd, signal)) {
          if (ledgers.length === 0) continue
          next = ledgers[ledgers.length - 1]!.sequence + 1
          yield { ledgers, latestLedger }
        }
        // An archive that ends early would otherwise be asked for the same stretch forever.
        if (next <= archiveEnd) {
          throw new LedgerContinuityError(
            'sequence',
            `ledger gap: the archive ended at ledger ${next - 1}, before ${archiveEnd}`,
          )
        }
      }
      if (to !== undefined && next > to) return
      yield* live.pages(next, to, signal)
    },
  }
}
