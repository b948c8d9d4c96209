import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { VERSION } from '../../version.ts'
import type { App } from '../app-type.ts'

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  rate_limiter: Type.Union([Type.Literal('memory'), Type.Literal('redis')]),
  indexer: Type.Object({
    first_indexed_ledger: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The first ledger the store ingested: the indexed range is first..last',
    }),
    last_indexed_ledger: Type.Union([Type.Integer(), Type.Null()]),
    data_staleness_seconds: Type.Union([Type.Integer(), Type.Null()]),
  }),
})

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/health',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Get service health',
        description: 'Unauthenticated. 503 when the database cannot be reached.',
        tags: ['service'],
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const base = { version: VERSION, rate_limiter: ctx.rateLimiter.kind }
      try {
        // Reading the checkpoint is the database check: one query, not two.
        const head = await ctx.reader.head()
        const staleness =
          head.lastCloseTime === null
            ? null
            : Math.max(0, Math.floor(ctx.clock.now() / 1000) - head.lastCloseTime)
        return {
          status: 'ok' as const,
          ...base,
          database: 'ok' as const,
          indexer: {
            first_indexed_ledger: head.firstIndexedLedger,
            last_indexed_ledger: head.lastIndexedLedger,
            data_staleness_seconds: staleness,
          },
        }
      } catch (error) {
        reply.log.warn({ err: (error as Error).message }, 'health: database unreachable')
        return reply.code(503).send({
          status: 'unavailable' as const,
          ...base,
          database: 'unreachable' as const,
          indexer: { first_indexed_ledger: null, last_indexed_ledger: null, data_staleness_seconds: null },
        })
      }
    },
  )
}
