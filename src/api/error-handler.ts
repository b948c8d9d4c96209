import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorDetail } from '../errors.ts'
import type { HealthBoard } from '../health.ts'
import { slugProblem } from '../org/slug.ts'
import { isStoreUnavailable } from '../store/db.ts'
import { classifyStoreError, createStoreFailureLog, isUnanswered } from '../store/store-errors.ts'

interface ValidationIssue {
  instancePath?: string
  keyword?: string
  message?: string
  /** The failing value (ajv's `verbose` option). */
  data?: unknown
  params?: Record<string, unknown>
  /** The failing schema (ajv's `verbose` option); its description words pattern failures. */
  parentSchema?: {
    description?: string
    anyOf?: BranchSchema[]
    format?: string
    properties?: Record<string, unknown>
  }
}

/** A branch of a union, as far as its wording needs. */
interface BranchSchema {
  const?: unknown
  type?: string
  format?: string
  description?: string
}

function fieldOf(issue: ValidationIssue): string {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.')
  const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty
  if (typeof missing === 'string') return path ? `${path}.${missing}` : missing
  return path || '(body)'
}

const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'an RFC 3339 timestamp such as 2026-01-31T00:00:00Z',
  email: 'an email address',
}

/**
 * Formats whose rule lives in one function shared with the CLI: that function words the message
 * from the value, whichever of the schema's keywords failed first, so both say the same thing.
 */
const FORMAT_EXPLAINERS: Record<string, (value: string) => string | null> = { slug: slugProblem }

const listed = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ')

/**
 * Plain words for ajv's keyword and params, never its jargon ("must match pattern", "must be equal
 * to constant"): a pattern is explained by its schema's own description.
 */
function messageOf(issue: ValidationIssue): string {
  const params = issue.params ?? {}
  const schema = issue.parentSchema ?? {}
  const explain = schema.format === undefined ? undefined : FORMAT_EXPLAINERS[schema.format]
  const explained = explain && typeof issue.data === 'string' ? explain(issue.data) : null
  if (explained) return explained
  switch (issue.keyword) {
    case 'additionalProperties':
      return 'is not a known field'
    case 'required':
      return 'is required'
    case 'pattern':
      return schema.description ? `must be ${lowerFirst(schema.description)}` : 'is not in the expected form'
    case 'anyOf':
    case 'oneOf': {
      const branches = schema.anyOf ?? []
      const allowed = branches.filter((branch) => 'const' in branch).map((branch) => branch.const)
      if (allowed.length === branches.length && allowed.length > 0) return `must be one of ${listed(allowed)}`
      const forms = branches.map(branchWords)
      return forms.length > 0 ? `must be ${orList(forms)}` : 'is not in an accepted form'
    }
    case 'minProperties': {
      const fields = Object.keys(schema.properties ?? {})
      return fields.length > 0 ? `must set at least one of ${fields.join(', ')}` : 'must not be empty'
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`
    case 'enum':
      return `must be one of ${listed((params.allowedValues as unknown[]) ?? [])}`
    case 'type':
      return `must be ${typeWords(String(params.type))}`
    case 'minLength':
      return Number(params.limit) === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`
    case 'maxLength':
      return `must be at most ${params.limit} characters`
    case 'minItems':
      return `must have at least ${params.limit} items`
    case 'maxItems':
      return `must have at most ${params.limit} items`
    case 'uniqueItems':
      return 'must not repeat an item'
    case 'minimum':
    case 'maximum':
      return `must be ${issue.keyword === 'minimum' ? 'at least' : 'at most'} ${params.limit}`
    case 'format': {
      const format = String(params.format)
      return `must be ${FORMAT_WORDS[format] ?? `a valid ${format}`}`
    }
  }
  // Never the validator's own wording ("must NOT have …"): a keyword not worded above is named.
  return 'is invalid'
}

/** How one branch of a union reads in "must be …": its value, its format, or its type. */
function branchWords(branch: BranchSchema): string {
  if ('const' in branch) return JSON.stringify(branch.const)
  if (branch.type === 'null') return 'null'
  if (branch.format !== undefined) return FORMAT_WORDS[branch.format] ?? `a valid ${branch.format}`
  if (branch.description !== undefined) return lowerFirst(branch.description)
  return typeWords(branch.type ?? 'value')
}

function typeWords(type: string): string {
  return type === 'integer' || type === 'object' || type === 'array' ? `an ${type}` : `a ${type}`
}

/** "a, b or c". */
function orList(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

/** Framework errors that are the client's fault, mapped to the envelope's codes. */
function fromFrameworkError(error: FastifyError): AppError | null {
  if (error.validation) {
    // anyOf/oneOf branches repeat the same field; name each field once, by the union's own
    // issue when there is one (it lists every accepted value, a branch only its own).
    const byField = new Map<string, ValidationIssue>()
    for (const issue of error.validation as ValidationIssue[]) {
      const field = fieldOf(issue)
      const union = issue.keyword === 'anyOf' || issue.keyword === 'oneOf'
      if (!byField.has(field) || union) byField.set(field, issue)
    }
    const details: ErrorDetail[] = [...byField].map(([field, issue]) => ({
      field,
      message: `${field} ${messageOf(issue)}`,
    }))
    // The message is the details' own sentences: what each field must be, in plain words.
    return new AppError('invalid_request', details.map((d) => d.message).join('; '), { details })
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'the request body is larger than the limit')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'the request body must be application/json')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'the request body is empty; a JSON object is required')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_request', 'the request body is not valid JSON')
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new AppError('invalid_request', 'the request body is not valid JSON')
  }
  if (error.statusCode === 404) return new AppError('not_found', 'not found')
  return null
}

export function sendError(error: AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.headers) reply.headers(error.headers)
  const body: Record<string, unknown> = { code: error.code, message: error.message }
  if (error.details) body.details = error.details
  return reply.code(error.status).send({
    error: body,
    meta: { request_id: String(request.id), response_time_ms: Math.round(reply.elapsedTime) },
  })
}

type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply

/**
 * Three tiers: AppError as is; framework client errors mapped; anything else a logged 500, except
 * a store that cannot be used: `503 unavailable` naming the cause (never the stack), logged without
 * a flood (`createStoreFailureLog`), and a failed write reported to `health` as `store_writes` with
 * the cause's code (the key-usage flush clears it when a write succeeds again).
 */
export function createErrorHandler(health: HealthBoard): ErrorHandler {
  const logStoreFailure = createStoreFailureLog()
  return (error, request, reply) => {
    if (error instanceof AppError) return sendError(error, request, reply)
    const mapped = fromFrameworkError(error)
    if (mapped) return sendError(mapped, request, reply)
    const found = classifyStoreError(error)
    if (found) {
      logStoreFailure(request.log, found, error, 'database unavailable')
      // An unreachable store is the database probe's to report (`database_unreachable`).
      const writing = found.write || (request.method !== 'GET' && request.method !== 'HEAD')
      if (writing && !isUnanswered(found)) {
        health.report('store_writes', found.code, `writes fail: ${found.message}`)
      }
      return sendError(new AppError('unavailable', `${found.message}; see /v1/health`), request, reply)
    }
    if (isStoreUnavailable(error)) {
      logStoreFailure(
        request.log,
        { code: 'store_unreachable', message: 'the database cannot be reached', write: false },
        error,
        'database unavailable',
      )
      return sendError(
        new AppError('unavailable', 'the database cannot be reached; see /v1/health'),
        request,
        reply,
      )
    }
    request.log.error({ err: error }, 'unhandled error')
    return sendError(
      new AppError('internal', `internal error; quote request id ${request.id}`),
      request,
      reply,
    )
  }
}
