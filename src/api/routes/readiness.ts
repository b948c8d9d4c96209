import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { VERSION } from '../../version.ts'
import type { App } from '../app-type.ts'
import { probeHead } from './health.ts'

/**
 * The probes of an orchestrator, beside `/v1/health` (which stays the report for people and
 * monitoring): liveness says the process serves HTTP at all (restart it when not); readiness says
 * this replica should receive traffic (take it out of the load balancer when not, without
 * restarting it). docs/operations.md says which to wire where.
 */

const Live = Type.Object({
  status: Type.Literal('live', { description: 'Always `live`: the process answers HTTP' }),
  version: Type.String({ description: 'The running version of Strata' }),
})

const Reason = Type.Object({
  code: Type.Union(
    [Type.Literal('database_unreachable'), Type.Literal('nothing_indexed'), Type.Literal('indexer_behind')],
    { description: 'Stable code of what keeps the replica out of rotation' },
  ),
  message: Type.String({ description: 'What is wrong and why, with the cause the system reported' }),
})

const Ready = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')], {
    description: '`ready` (HTTP 200): send it traffic. `not_ready` (HTTP 503): `reasons` says why not',
  }),
  last_indexed_ledger: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'The checkpoint: the newest ledger answers can be about; null when nothing is indexed or the database cannot be read',
  }),
  data_staleness_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description: 'How long ago the checkpoint ledger closed; null when unknown',
  }),
  max_lag_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Staleness above this makes the replica not ready (`STRATA_READY_MAX_LAG_S`); null when not checked',
  }),
  reasons: Type.Array(Reason, { description: 'Why the replica is not ready; empty when it is' }),
})

type ReadyReason = { code: 'database_unreachable' | 'nothing_indexed' | 'indexer_behind'; message: string }

/** `GET /v1/health/live` and `GET /v1/health/ready`. */
export function registerReadinessRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/health/live',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Check liveness',
        description:
          'Unauthenticated; reads nothing. 200 whenever the process serves HTTP: a liveness probe restarts the process only when this fails. A database outage or a stale index does not fail it (restarting would not help); see `/v1/health/ready`.',
        tags: ['Service'],
        response: { 200: Live },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { status: 'live' as const, version: VERSION }
    },
  )

  app.get(
    '/v1/health/ready',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Check readiness',
        description:
          'Unauthenticated; one read of the indexer checkpoint, answered within a few seconds whatever the database does. 503 with the `reasons` when this replica should not receive traffic: the database cannot be read, nothing is indexed yet, or the last indexed ledger closed longer ago than `STRATA_READY_MAX_LAG_S`. 200 otherwise.',
        tags: ['Service'],
        response: { 200: Ready, 503: Ready },
      },
    },
    async (request, reply) => {
      const maxLag = ctx.config.readyMaxLagS > 0 ? ctx.config.readyMaxLagS : null
      const reasons: ReadyReason[] = []
      const { head, unreachable, staleness } = await probeHead(ctx, ctx.clock.now())
      if (unreachable !== null) {
        request.log.warn({ err: unreachable }, 'readiness: database unreachable')
        reasons.push({ code: 'database_unreachable', message: `the database cannot be read: ${unreachable}` })
      }
      if (head !== null && head.lastIndexedLedger === null) {
        reasons.push({
          code: 'nothing_indexed',
          message: 'no ledger is indexed yet: there is nothing to answer from',
        })
      }
      if (maxLag !== null && staleness !== null && staleness > maxLag) {
        reasons.push({
          code: 'indexer_behind',
          message: `the last indexed ledger closed ${staleness} s ago, more than STRATA_READY_MAX_LAG_S (${maxLag} s)`,
        })
      }
      reply.header('cache-control', 'no-store')
      return reply.code(reasons.length > 0 ? 503 : 200).send({
        status: reasons.length > 0 ? ('not_ready' as const) : ('ready' as const),
        last_indexed_ledger: head?.lastIndexedLedger ?? null,
        data_staleness_seconds: staleness,
        max_lag_seconds: maxLag,
        reasons,
      })
    },
  )
}
