import { Type } from 'typebox'
import { within } from '../../awaitable.ts'
import type { AppContext } from '../../context.ts'
import { type HealthProblem, verdict } from '../../health.ts'
import { named } from '../../protocols/kit/response-schema.ts'
import { LEASE_MS } from '../../store/commit-watch.ts'
import type { IndexerHead } from '../../store/positions-read.ts'
import { VERSION } from '../../version.ts'
import type { App } from '../app-type.ts'

/** How long health waits for the database before it answers `unavailable`: health always answers. */
export const HEALTH_PROBE_TIMEOUT_MS = 2000

/**
 * How long the commit watch may be out before health names it: longer than a reconnection takes
 * (at most LEASE_MS between attempts), so a dropped connection that comes straight back is not a
 * problem, while one that stays down is named within seconds.
 */
export const WATCH_OUTAGE_MS = 2 * LEASE_MS

const Problem = Type.Object({
  component: Type.Union(
    [
      Type.Literal('database'),
      Type.Literal('store_writes'),
      Type.Literal('indexer'),
      Type.Literal('rate_limiter'),
      Type.Literal('commit_watch'),
    ],
    { description: 'The part of the service that is unwell' },
  ),
  code: Type.String({
    description: 'Stable code of the problem (docs/operations.md lists each, with what to do)',
  }),
  message: Type.String({ description: 'What is wrong and why, with the cause the system reported' }),
  started_at: Type.String({ format: 'date-time', description: 'When this problem was first seen' }),
})
named('HealthProblem', Problem)

/** The health answer (200 and 503), also the readiness answer's shape. */
export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')], {
    description:
      '`unavailable` (HTTP 503): the database cannot be read. `degraded` (HTTP 200): answers are served but `problems` names what is wrong. `ok`: nothing is',
  }),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  rate_limiter: Type.Union([Type.Literal('memory'), Type.Literal('redis')]),
  indexer: Type.Object({
    first_indexed_ledger: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The first ledger the store ingested: the indexed range is first..last',
    }),
    last_indexed_ledger: Type.Union([Type.Integer(), Type.Null()]),
    data_staleness_seconds: Type.Union([Type.Integer(), Type.Null()]),
    state: Type.Union(
      [
        Type.Literal('running'),
        Type.Literal('standby'),
        Type.Literal('retrying'),
        Type.Literal('stopped'),
        Type.Null(),
      ],
      {
        description:
          "This process's indexer: `running`, `standby` (another process holds the indexer lock), `retrying` (its last pass failed; it resumes from the checkpoint), `stopped` (it will not resume); null when this process runs none",
      },
    ),
    max_lag_seconds: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Staleness above this is the problem `indexer_behind` (`STRATA_MAX_INDEXER_LAG_S`); null when not checked',
    }),
  }),
  problems: Type.Array(Problem, { description: 'Everything wrong now; empty when `status` is `ok`' }),
})
named('Health', Health)

/** What a probe of the checkpoint found: the head, or why the database could not be read. */
export interface HeadProbe {
  head: IndexerHead | null
  /** The database's refusal or silence as it reported it; null when it was read. */
  unreachable: string | null
  /** Seconds since the checkpoint ledger closed, by the app's clock; null when unknown. */
  staleness: number | null
}

/**
 * Reads the checkpoint within HEALTH_PROBE_TIMEOUT_MS (one statement: it is the database check
 * too) and measures its staleness: what `/v1/health` and `/v1/health/ready` both judge by.
 */
export async function probeHead(ctx: AppContext, nowMs: number): Promise<HeadProbe> {
  try {
    const head = await within(Promise.resolve(ctx.reader.head()), HEALTH_PROBE_TIMEOUT_MS)
    const staleness =
      head.lastCloseTime == null ? null : Math.max(0, Math.floor(nowMs / 1000) - head.lastCloseTime)
    return { head, unreachable: null, staleness }
  } catch (error) {
    return { head: null, unreachable: (error as Error).message, staleness: null }
  }
}

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/health',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Get service health',
        description:
          'Unauthenticated; answers within a few seconds whatever the database does. 503 when the database cannot be read; 200 with `degraded` and the `problems` when answers are served but something is wrong.',
        tags: ['Service'],
        response: { 200: Health, 503: Health },
      },
    },
    async (request, reply) => {
      const nowMs = ctx.clock.now()
      const maxLag = ctx.config.maxIndexerLagS > 0 ? ctx.config.maxIndexerLagS : null
      const problems: HealthProblem[] = []
      const { head, unreachable, staleness } = await probeHead(ctx, nowMs)
      if (unreachable !== null) {
        const message = `the database cannot be read: ${unreachable}`
        request.log.warn({ err: unreachable }, 'health: database unreachable')
        problems.push({ component: 'database', code: 'database_unreachable', message, sinceMs: nowMs })
      }
      problems.push(...ctx.health.problems())
      const outage = ctx.database.committed.outage?.() ?? null
      if (outage !== null && outage.forMs >= WATCH_OUTAGE_MS) {
        const cause = outage.cause === null ? 'its heartbeat is not answered' : outage.cause
        problems.push({
          component: 'commit_watch',
          code: 'commit_watch_down',
          message: `the notification connection to PostgreSQL has been out for ${Math.floor(outage.forMs / 1000)} s (${cause}): every request reads its state with a statement, and writes wait out the ${LEASE_MS / 1000} s lease`,
          sinceMs: nowMs - outage.forMs,
        })
      }
      if (maxLag !== null && staleness !== null && staleness > maxLag) {
        problems.push({
          component: 'indexer',
          code: 'indexer_behind',
          message: `the last indexed ledger closed ${staleness} s ago, more than STRATA_MAX_INDEXER_LAG_S (${maxLag} s)`,
          sinceMs: (head!.lastCloseTime! + maxLag) * 1000,
        })
      }
      const status = verdict(problems)
      return reply.code(status === 'unavailable' ? 503 : 200).send({
        status,
        version: VERSION,
        database: head === null ? ('unreachable' as const) : ('ok' as const),
        rate_limiter: ctx.rateLimiter.kind,
        indexer: {
          first_indexed_ledger: head?.firstIndexedLedger ?? null,
          last_indexed_ledger: head?.lastIndexedLedger ?? null,
          data_staleness_seconds: staleness,
          state: ctx.health.indexerState(),
          max_lag_seconds: maxLag,
        },
        problems: problems.map((problem) => ({
          component: problem.component,
          code: problem.code,
          message: problem.message,
          started_at: new Date(problem.sinceMs).toISOString(),
        })),
      })
    },
  )
}
