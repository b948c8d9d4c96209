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

/** Where a value that starts at `offset` ends. */
type Skip = (view: DataView, offset: number) => number

const compiled = new WeakMap<Schema, Skip>()
const fixedSizes = new WeakMap<Schema, number | null>()

function resolve(schema: Schema): Schema {
  let at = schema
  while (at.kind === 'lazy') at = (at as Lazy).getSchema()
  return at
}

function armSchema(arm: Schema | { name: string; schema: Schema }): Schema {
  return 'schema' in arm ? arm.schema : arm
}

/**
 * The size of every value of `schema` when it is the same for all (numbers, fixed opaque, structs and
 * fixed arrays of such), else null. A recursive schema is never of fixed size.
 */
function fixedSize(schema: Schema, visiting = new Set<Schema>()): number | null {
  const known = fixedSizes.get(schema)
  if (known !== undefined) return known
  if (visiting.has(schema)) return null
  visiting.add(schema)
  let size: number | null
  switch (schema.kind) {
    case 'int32':
    case 'uint32':
    case 'bool':
    case 'enum':
    case 'float':
      size = 4
      break
    case 'int64':
    case 'uint64':
    case 'double':
      size = 8
      break
    case 'void':
      size = 0
      break
    case 'opaque':
      size = padded((schema as Sized).length)
      break
    case 'fixedArray': {
      const element = fixedSize((schema as Element).element, visiting)
      size = element === null ? null : element * (schema as Sized).length
      break
    }
    case 'struct': {
      size = 0
      for (const [, field] of (schema as Struct).entries) {
        const part = fixedSize(field, visiting)
        if (part === null) {
          size = null
          break
        }
        size += part
      }
      break
    }
    case 'lazy':
      size = fixedSize((schema as Lazy).getSchema(), visiting)
      break
    default:
      size = null
  }
  visiting.delete(schema)
  fixedSizes.set(schema, size)
  return size
}

/**
 * A function that skips a value of `schema`, built once per schema: runs of fixed-size fields become
 * one addition, arrays of fixed-size elements one multiplication, and union arms are looked up in a
 * table, so stepping over a transaction costs a few reads of lengths and discriminants.
 */
function compile(schema: Schema): Skip {
  const done = compiled.get(schema)
  if (done) return done
  // Recursive schemas (ScVal in a vector of ScVal) call through the cell until it is built.
  let built: Skip | null = null
  const cell: Skip = (view, offset) => built!(view, offset)
  compiled.set(schema, cell)
  built = build(schema)
  compiled.set(schema, built)
  return built
}

function build(schema: Schema): Skip {
  const size = fixedSize(schema)
  if (size !== null) return (_view, offset) => offset + size
  switch (schema.kind) {
    case 'varOpaque':
    case 'string':
      return (view, offset) => offset + 4 + padded(view.getUint32(offset))
    case 'option': {
      const element = compile((schema as Element).element)
      return (view, offset) => (view.getUint32(offset) === 0 ? offset + 4 : element(view, offset + 4))
    }
    case 'array': {
      const elementSchema = (schema as Element).element
      const elementSize = fixedSize(elementSchema)
      if (elementSize !== null) return (view, offset) => offset + 4 + view.getUint32(offset) * elementSize
      const element = compile(elementSchema)
      return (view, offset) => {
        const count = view.getUint32(offset)
        let at = offset + 4
        for (let i = 0; i < count; i++) at = element(view, at)
        return at
      }
    }
    case 'fixedArray': {
      const { element: elementSchema, length } = schema as Element & Sized
      const element = compile(elementSchema)
      return (view, offset) => {
        let at = offset
        for (let i = 0; i < length; i++) at = element(view, at)
        return at
      }
    }
    case 'struct': {
      // Consecutive fixed-size fields fold into one step.
      const steps: Array<Skip | number> = []
      for (const [, field] of (schema as Struct).entries) {
        const fieldSize = fixedSize(field)
        const last = steps[steps.length - 1]
        if (fieldSize !== null && typeof last === 'number') steps[steps.length - 1] = last + fieldSize
        else steps.push(fieldSize ?? compile(field))
      }
      return (view, offset) => {
        let at = offset
        for (const step of steps) at = typeof step === 'number' ? at + step : step(view, at)
        return at
      }
    }
    case 'union': {
      const union = schema as Union
      const byBool = resolve(union.switchOn).kind === 'bool'
      const arms = new Map<number | boolean, Skip | null>()
      for (const c of union.cases) {
        const arm = armSchema(c.arm)
        arms.set(c.discriminant, arm.kind === 'void' ? null : compile(arm))
      }
      const fallback = union.defaultArm === undefined ? undefined : compile(armSchema(union.defaultArm))
      return (view, offset) => {
        const raw = view.getInt32(offset)
        const discriminant = byBool ? raw !== 0 : raw
        let arm = arms.get(discriminant)
        if (arm === undefined) {
          if (fallback === undefined)
            throw new XdrSpanError(`no case for discriminant ${String(discriminant)}`)
          arm = fallback
        }
        return arm === null ? offset + 4 : arm(view, offset + 4)
      }
    }
    case 'lazy': {
      const target = compile((schema as Lazy).getSchema())
      return target
    }
    default:
      throw new XdrSpanError(`unknown XDR schema kind ${schema.kind}`)
  }
}

/** The offset just past the value of `schema` that starts at `offset` in `view`. */
export function skipXdr(schema: Schema, view: DataView, offset: number): number {
  return compile(schema)(view, offset)
}

const containsByTarget = new WeakMap<Schema, WeakMap<Schema, boolean>>()

/** Whether a value of `schema` can hold a value of `target` (a recursive path counts as not). */
function contains(schema: Schema, target: Schema, visiting = new Set<Schema>()): boolean {
  let known = containsByTarget.get(target)
  if (!known) {
    known = new WeakMap()
    containsByTarget.set(target, known)
  }
  const cached = known.get(schema)
  if (cached !== undefined) return cached
  if (schema === target) return true
  if (visiting.has(schema)) return false
  visiting.add(schema)
  let found = false
  switch (schema.kind) {
    case 'option':
    case 'array':
    case 'fixedArray':
      found = contains((schema as Element).element, target, visiting)
      break
    case 'struct':
      found = (schema as Struct).entries.some(([, field]) => contains(field, target, visiting))
      break
    case 'union': {
      const union = schema as Union
      found =
        union.cases.some((c) => contains(armSchema(c.arm), target, visiting)) ||
        (union.defaultArm !== undefined && contains(armSchema(union.defaultArm), target, visiting))
      break
    }
    case 'lazy':
      found = contains((schema as Lazy).getSchema(), target, visiting)
      break
  }
  visiting.delete(schema)
  known.set(schema, found)
  return found
}

/**
 * Steps over the value of `schema` at `offset` like `skipXdr`, and tells where every value of
 * `target` inside it starts and ends (`visit(start, end)`, in order), without building any: a
 * ledger's transaction envelopes can then be decoded one by one, only those that matter.
 */
export function visitXdr(
  schema: Schema,
  target: Schema,
  view: DataView,
  offset: number,
  visit: (start: number, end: number) => void,
): number {
  if (schema === target) {
    const end = skipXdr(schema, view, offset)
    visit(offset, end)
    return end
  }
  if (!contains(schema, target)) return skipXdr(schema, view, offset)
  switch (schema.kind) {
    case 'option':
      return view.getUint32(offset) === 0
        ? offset + 4
        : visitXdr((schema as Element).element, target, view, offset + 4, visit)
    case 'array': {
      const count = view.getUint32(offset)
      let at = offset + 4
      for (let i = 0; i < count; i++) at = visitXdr((schema as Element).element, target, view, at, visit)
      return at
    }
    case 'fixedArray': {
      let at = offset
      const { element, length } = schema as Element & Sized
      for (let i = 0; i < length; i++) at = visitXdr(element, target, view, at, visit)
      return at
    }
    case 'struct': {
      let at = offset
      for (const [, field] of (schema as Struct).entries) at = visitXdr(field, target, view, at, visit)
      return at
    }
    case 'union': {
      const union = schema as Union
      const raw = view.getInt32(offset)
      const discriminant = resolve(union.switchOn).kind === 'bool' ? raw !== 0 : raw
      const match = union.cases.find((c) => c.discriminant === discriminant)
      const arm = match ? match.arm : union.defaultArm
      if (arm === undefined) throw new XdrSpanError(`no case for discriminant ${String(discriminant)}`)
      const armSchemaOf = armSchema(arm)
      return armSchemaOf.kind === 'void' ? offset + 4 : visitXdr(armSchemaOf, target, view, offset + 4, visit)
    }
    case 'lazy':
      return visitXdr((schema as Lazy).getSchema(), target, view, offset, visit)
    default:
      return skipXdr(schema, view, offset)
  }
}
