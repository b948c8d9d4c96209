/**
 * What this process knows of its own parts, and the one rule that turns it into `/v1/health`'s
 * verdict. Each part reports its own problem where it sees it (the store's writes where a write
 * fails, the indexer in its loop, the rate limiter in its breaker) and clears it when it recovers;
 * the health route adds what it measures itself (the database answering, the indexer's lag, how
 * long PostgreSQL's commit watch has been out) and asks `verdict` for the status. Nothing else decides health.
 */

/** The parts of the service that can be unwell, as `/v1/health`'s `problems[].component` names them. */
export type HealthComponent = 'database' | 'store_writes' | 'indexer' | 'rate_limiter' | 'commit_watch'

/** One thing wrong, named for operators: a stable `code` and a sentence saying what and why. */
export interface HealthProblem {
  component: HealthComponent
  /** Stable, snake_case: what monitoring matches on (docs/operations.md lists every one). */
  code: string
  /** One sentence with the cause as the driver or the system reported it. */
  message: string
  /** When this problem (this component and code) was first reported, in epoch milliseconds. */
  sinceMs: number
}

/**
 * The in-process indexer's state, null when this process runs none (an API replica beside a
 * separate `strata index`): `running` (ingesting or following the head), `standby` (waiting for
 * another process's indexer lock), `retrying` (its last pass failed; it resumes from the checkpoint
 * after a back-off), `stopped` (it ended on a failure it does not retry).
 */
export type IndexerState = 'running' | 'standby' | 'retrying' | 'stopped'

export interface HealthBoard {
  /** Records `component`'s problem, replacing an earlier one; `sinceMs` is kept while the code stays. */
  report(component: HealthComponent, code: string, message: string): void
  /** Clears `component`'s problem (only when it is `code`, if one is given). */
  clear(component: HealthComponent, code?: string): void
  /** The problems reported and not cleared, in component order. */
  problems(): HealthProblem[]
  indexerState(): IndexerState | null
  setIndexerState(state: IndexerState | null): void
}

const COMPONENT_ORDER: readonly HealthComponent[] = [
  'database',
  'store_writes',
  'indexer',
  'rate_limiter',
  'commit_watch',
]

export function createHealthBoard(now: () => number = Date.now): HealthBoard {
  const reported = new Map<HealthComponent, HealthProblem>()
  let indexer: IndexerState | null = null
  return {
    report(component, code, message) {
      const earlier = reported.get(component)
      const sinceMs = earlier?.code === code ? earlier.sinceMs : now()
      reported.set(component, { component, code, message, sinceMs })
    },
    clear(component, code) {
      if (code === undefined || reported.get(component)?.code === code) reported.delete(component)
    },
    problems() {
      return COMPONENT_ORDER.flatMap((component) => {
        const problem = reported.get(component)
        return problem ? [problem] : []
      })
    },
    indexerState: () => indexer,
    setIndexerState(state) {
      indexer = state
    },
  }
}

/**
 * `unavailable` (HTTP 503) when the database cannot be read: nothing can be answered. `degraded`
 * (HTTP 200) when answers are still served but something is wrong: writes fail, the indexer is not
 * running or is behind, the rate limiter counts locally, the commit watch is down (every request
 * reads its state with a statement). `ok` otherwise.
 */
export type HealthStatus = 'ok' | 'degraded' | 'unavailable'

export function verdict(problems: readonly HealthProblem[]): HealthStatus {
  if (problems.some((problem) => problem.component === 'database')) return 'unavailable'
  return problems.length > 0 ? 'degraded' : 'ok'
}
