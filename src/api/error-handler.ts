import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorDetail } from '../errors.ts'
import { isStoreUnavailable } from '../store/db.ts'

interface ValidationIssue {
  instancePath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

function fieldOf(issue: ValidationIssue): string {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.')
  const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty
  if (typeof missing === 'string') return path ? `${path}.${missing}` : missing
  return path || '(body)'
}

function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a known field'
  if (issue.keyword === 'required') return 'is required'
  return issue.message ?? 'is invalid'
}

/** Framework errors that are the client's fault, mapped to the envelope's codes. */
function fromFrameworkError(error: FastifyError): AppError | null {
  if (error.validation) {
    const seen = new Set<string>()
    const details: ErrorDetail[] = []
    for (const issue of error.validation as ValidationIssue[]) {
      // anyOf/oneOf branches repeat the same field; name each field once.
      const field = fieldOf(issue)
      if (seen.has(field)) continue
      seen.add(field)
      details.push({ field, message: messageOf(issue) })
    }
    const names = details.map((d) => d.field).join(', ')
    return new AppError('invalid_request', `invalid ${error.validationContext ?? 'request'}: ${names}`, {
      details,
    })
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

/** Three tiers: AppError as is; framework client errors mapped; anything else a logged 500. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) return sendError(error, request, reply)
  const mapped = fromFrameworkError(error)
  if (mapped) return sendError(mapped, request, reply)
  if (isStoreUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable')
    return sendError(
      new AppError('unavailable', 'the database cannot be reached; see /v1/health'),
      request,
      reply,
    )
  }
  request.log.error({ err: error }, 'unhandled error')
  return sendError(new AppError('internal', `internal error; quote request id ${request.id}`), request, reply)
}
