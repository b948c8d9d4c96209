import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import { AssetSchema, ContractSchema, UsdTotalsSchema } from '../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../protocols/registry.ts'
import type { SurfaceSerializers } from './answer-cache.ts'

/** Compiles a response schema into its serializer. */
export type CompileSerializer = (schema: unknown) => (value: unknown) => string

/**
 * The serializers of a surface's parts, compiled by `compile`: a route passes its reply's
 * compiler (the route's own, as Fastify serializes answers); work outside a request (webhook
 * payloads) passes `standaloneCompiler()`, the same fast-json-stringify with the same defaults.
 */
export function surfaceSerializers(compile: CompileSerializer): SurfaceSerializers {
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

/** Fastify's own serializer compiler, outside any route: for renderings that no request asked for. */
export function standaloneCompiler(): CompileSerializer {
  const compiler = SerializerSelector()()
  return (schema) => {
    const serialize = compiler({ schema, method: 'GET', url: '', httpStatus: '200' })
    return (value) => serialize(value)
  }
}
