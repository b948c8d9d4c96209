/**
 * "The indexer in this process committed a batch": what `strata serve` tells the parts that push
 * changes (the webhooks' dispatcher, the streams' checkpoint watcher), so they act on a commit at
 * once instead of at their next poll. An indexer in another process cannot call it: there the
 * dispatcher is woken by PostgreSQL's NOTIFY, and on SQLite by its poll.
 */
export interface CommitSignal {
  /** Called by the indexer's progress hook after each committed batch. */
  notify(lastLedger: number): void
  /** Calls `listener` after each commit until the returned function is called. */
  subscribe(listener: (lastLedger: number) => void): () => void
}

export function createCommitSignal(): CommitSignal {
  const listeners = new Set<(lastLedger: number) => void>()
  return {
    notify(lastLedger) {
      for (const listener of [...listeners]) listener(lastLedger)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
