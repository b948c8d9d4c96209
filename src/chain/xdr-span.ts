/**
 * Where an XDR value ends, without decoding it: a walk over the SDK's own schema objects (their
 * public `kind`, `entries`, `element`, `cases`, ... fields, the ones its generic JSON walker reads),
 * advancing past each value by the XDR rules (4-byte units, length-prefixed opaque, strings and
 * arrays, option flags, union discriminants) without building a single object. The indexer uses it
 * to find each transaction's bytes in a ledger and decode only those that name a watched contract.
 */

interface Schema {
  kind: string
}
interface Element extends Schema {
  element: Schema
}
interface Sized extends Schema {
  length: number
}
interface Struct extends Schema {
  entries: ReadonlyArray<readonly [string, Schema]>
}
interface UnionCase {
  discriminant: number | boolean
  arm: Schema | { name: string; schema: Schema }
}
interface Union extends Schema {
  switchOn: Schema
  cases: readonly UnionCase[]
  defaultArm?: Schema | { name: string; schema: Schema }
}
interface Lazy extends Schema {
  getSchema(): Schema
}

export class XdrSpanError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'XdrSpanError'
  }
}

const padded = (length: number) => (length + 3) & ~3

const armsByUnion = new WeakMap<Union, Map<number | boolean, Schema | null>>()

function armOf(union: Union, discriminant: number | boolean): Schema | null {
  let arms = armsByUnion.get(union)
  if (!arms) {
    arms = new Map()
    for (const c of union.cases) arms.set(c.discriminant, 'schema' in c.arm ? c.arm.schema : c.arm)
    armsByUnion.set(union, arms)
  }
  const arm = arms.get(discriminant)
  if (arm !== undefined) return arm
  if (union.defaultArm === undefined)
    throw new XdrSpanError(`no case for discriminant ${String(discriminant)}`)
  return 'schema' in union.defaultArm ? union.defaultArm.schema : union.defaultArm
}

/** The offset just past the value of `schema` that starts at `offset` in `view`. */
export function skipXdr(schema: Schema, view: DataView, offset: number): number {
  switch (schema.kind) {
    case 'int32':
    case 'uint32':
    case 'bool':
    case 'enum':
    case 'float':
      return offset + 4
    case 'int64':
    case 'uint64':
    case 'double':
      return offset + 8
    case 'void':
      return offset
    case 'opaque':
      return offset + padded((schema as Sized).length)
    case 'varOpaque':
    case 'string':
      return offset + 4 + padded(view.getUint32(offset))
    case 'option':
      return view.getUint32(offset) === 0
        ? offset + 4
        : skipXdr((schema as Element).element, view, offset + 4)
    case 'array': {
      const count = view.getUint32(offset)
      let at = offset + 4
      const element = (schema as Element).element
      for (let i = 0; i < count; i++) at = skipXdr(element, view, at)
      return at
    }
    case 'fixedArray': {
      let at = offset
      const { element, length } = schema as Element & Sized
      for (let i = 0; i < length; i++) at = skipXdr(element, view, at)
      return at
    }
    case 'struct': {
      let at = offset
      for (const [, field] of (schema as Struct).entries) at = skipXdr(field, view, at)
      return at
    }
    case 'union': {
      const union = schema as Union
      const raw = view.getInt32(offset)
      const arm = armOf(union, union.switchOn.kind === 'bool' ? raw !== 0 : raw)
      return arm === null ? offset + 4 : skipXdr(arm, view, offset + 4)
    }
    case 'lazy':
      return skipXdr((schema as Lazy).getSchema(), view, offset)
    default:
      throw new XdrSpanError(`unknown XDR schema kind ${schema.kind}`)
  }
}
