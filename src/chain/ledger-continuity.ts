/**
 * Whether a ledger is the one that must come next: the one check every stage runs (the sources as
 * they page, the pipeline as ledgers enter it, the store inside its write transaction), so a hole
 * or a ledger of another chain is refused the same way wherever it shows.
 */

/**
 * What was wrong: `sequence`, a ledger other than the next one (a hole, a repeat, a reorder);
 * `previous-hash`, a ledger naming another predecessor than the one held (another network, another
 * fork); `served-as`, metadata that is not the ledger the source said it served.
 */
export type ContinuityKind = 'sequence' | 'previous-hash' | 'served-as'

/** A ledger does not continue what came before it: it is never skipped and never written past. */
export class LedgerContinuityError extends Error {
  readonly kind: ContinuityKind
  constructor(kind: ContinuityKind, message: string) {
    super(message)
    this.name = 'LedgerContinuityError'
    this.kind = kind
  }
}

/**
 * Whether ingestion may go on after this error by resuming from the checkpoint: a hole or a bad
 * response may be the source's passing fault, a ledger of another chain never is.
 */
export function isRetriableContinuity(error: LedgerContinuityError): boolean {
  return error.kind !== 'previous-hash'
}

/**
 * The ledger a new one must follow. `hash` is that ledger's hash (lowercase hex); null when it is
 * held nowhere (which no ledger continues), absent when the caller does not check hashes here.
 */
export interface PreviousLedger {
  sequence: number
  hash?: string | null
}

/** The ledger offered next: its sequence and, once decoded, the hash it names as its predecessor's. */
export interface NextLedger {
  sequence: number
  previousHash?: string
}

/**
 * Throws LedgerContinuityError unless `next` is the ledger that follows `previous`: its sequence is
 * one more, and the predecessor hash it states is the one held for `previous` (checked when both
 * are given). With no previous ledger (an empty store) any ledger may start. `stream` names the
 * stream in a sequence message ("ledger gap" unless given).
 */
export function checkNextLedger(
  previous: PreviousLedger | null,
  next: NextLedger,
  stream = 'ledger gap',
): void {
  if (previous === null) return
  const expected = previous.sequence + 1
  if (next.sequence !== expected) {
    throw new LedgerContinuityError(
      'sequence',
      `${stream}: expected ledger ${expected}, got ${next.sequence}`,
    )
  }
  if (previous.hash === undefined || next.previousHash === undefined) return
  if (next.previousHash !== previous.hash) {
    throw new LedgerContinuityError(
      'previous-hash',
      `ledger ${next.sequence} does not continue this store's chain: it names ${next.previousHash} as ledger ${
        previous.sequence
      }'s hash, the store holds ${previous.hash ?? 'no such ledger'} (is the source another network?)`,
    )
  }
}

/**
 * Throws LedgerContinuityError unless the decoded ledger is the one the source served: the same
 * sequence, and the same hash when the source stated one apart from the metadata (lowercase hex
 * or not).
 */
export function checkServedAs(
  served: { sequence: number; hash: string | null },
  decoded: { sequence: number; hash: string },
): void {
  if (
    decoded.sequence !== served.sequence ||
    (served.hash !== null && decoded.hash !== served.hash.toLowerCase())
  ) {
    throw new LedgerContinuityError(
      'served-as',
      `ledger ${served.sequence}: metadata does not match the ledger it was served as`,
    )
  }
}
