/** Every error code the API answers with, and its HTTP status. Docs and OpenAPI read this table. */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_address: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  ledger_not_indexed: 409,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: 'A body, query or path value failed validation; `details` names each field.',
  invalid_address: 'The address is not a valid Stellar account (G...) or contract (C...) StrKey.',
  unauthorized: 'The credential is missing, malformed, unknown, revoked, expired or of the wrong type.',
  insufficient_scope: 'The API key lacks the scope this endpoint needs.',
  forbidden: 'The caller may not make this change (a paid plan is granted by the operator).',
  not_found: 'The route or resource does not exist, or belongs to another organization.',
  method_not_allowed: 'The route exists but not with this method.',
  conflict:
    'The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds).',
  ledger_not_indexed:
    'The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds.',
  request_timeout:
    'The request (its headers and body) did not arrive within the time allowed; the connection is closed.',
  payload_too_large: 'The request body is larger than the limit.',
  uri_too_long: 'A path segment (such as the address) is longer than the router accepts.',
  unsupported_media_type: 'The request body is not application/json.',
  idempotency_key_reused:
    'The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key.',
  rate_limited:
    "The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds.",
  internal: 'An unexpected error; it is logged with the request id.',
  unavailable: 'A dependency (the database) cannot be reached.',
}

export interface ErrorDetail {
  field: string
  message: string
}

/** The one error type the application throws on purpose. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetail[] | undefined
  readonly headers: Record<string, string> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.status = ERROR_STATUS[code]
    this.details = options.details
    this.headers = options.headers
  }
}
