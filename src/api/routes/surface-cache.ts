import type { FastifyReply } from 'fastify'
import { Counter, Gauge } from 'prom-client'
import type { AppContext } from '../../context.ts'
import { type AnswerCache, createAnswerCache, type SurfaceSerializers } from '../../positions/answer-cache.ts'
import { AssetSchema, ContractSchema, UsdTotalsSchema } from '../../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'

const answerCaches = new WeakMap<AppContext, AnswerCache>()

/**
 * The process's answer cache (`STRATA_ANSWER_CACHE_MB`), shared by the snapshot surfaces and the
 * all-protocols answer, with its hit, miss, size and reset counts among the Prometheus metrics.
 */
export function answerCacheOf(ctx: AppContext): AnswerCache {
  let cache = answerCaches.get(ctx)
  if (cache === undefined) {
    const created = createAnswerCache(ctx.config.answerCacheBytes)
    cache = created
    const registers = [ctx.metrics.registry]
    const counter = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset()
          this.inc(read())
        },
      })
    counter(
      'strata_answer_cache_hits_total',
      'Lookups answered from the answer cache (a snapshot surface, or a whole all-protocols answer)',
      () => created.stats().hits,
    )
    counter(
      'strata_answer_cache_misses_total',
      'Lookups the answer cache could not answer (a snapshot surface then rendered, or an all-protocols answer then assembled)',
      () => created.stats().misses,
    )
    counter(
      'strata_answer_cache_resets_total',
      'Times the answer cache was emptied, while holding entries, because the store or the configuration changed',
      () => created.stats().resets,
    )
    new Gauge({
      name: 'strata_answer_cache_bytes',
      help: 'Estimated memory held by the answer cache (its budget is STRATA_ANSWER_CACHE_MB)',
      registers,
      collect() {
        this.set(created.stats().bytes)
      },
    })
    new Gauge({
      name: 'strata_answer_cache_entries',
      help: 'Snapshot surfaces and all-protocols answers held by the answer cache',
      registers,
      collect() {
        this.set(created.stats().entries)
      },
    })
    answerCaches.set(ctx, cache)
  }
  return cache
}

/**
 * The response serializers for the parts the answer cache keeps, compiled by Fastify's own
 * serializer compiler (through a reply of the route) once: they hold no reference to the reply.
 */
export function compileSurfaceSerializers(reply: FastifyReply): SurfaceSerializers {
  type Schema = Parameters<FastifyReply['compileSerializationSchema']>[0]
  const compile = (schema: unknown) => {
    const serialize = reply.compileSerializationSchema(schema as Schema)
    return (value: unknown) => serialize(value as Record<string, unknown>)
  }
  const data = new Map(PROTOCOLS.map((m) => [m.name, compile(m.positions.dataSchema)]))
  const asset = compile(AssetSchema)
  const contract = compile(ContractSchema)
  const totals = compile(UsdTotalsSchema)
  return {
    data: (module, value) => (data.get(module.name) ?? compile(module.positions.dataSchema))(value),
    asset,
    contract,
    totals,
  }
}

/** Sends a body already written as JSON, with the content type the schema serializer's answers carry. */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body)
}
