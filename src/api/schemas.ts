import { type TSchema, Type } from 'typebox'
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from '../errors.ts'
import { SLUG_MAX_LENGTH, SLUG_MIN_LENGTH, SLUG_PATTERN, SLUG_WORDS } from '../org/slug.ts'
import { named } from '../protocols/kit/response-schema.ts'

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Machine-readable code, lower snake case' }),
        message: Type.String(),
        details: Type.Optional(
          Type.Array(
            Type.Object({ field: Type.String(), message: Type.String() }, { title: 'ErrorDetail' }),
            {
              description: 'One entry per invalid field',
            },
          ),
        ),
      },
      { title: 'ErrorBody' },
    ),
    meta: Type.Object(
      { request_id: Type.String(), response_time_ms: Type.Integer() },
      { title: 'ErrorMeta' },
    ),
  },
  { $id: 'ErrorEnvelope', description: 'Every error answer' },
)

/** Error responses of a route, from the same code table the error handler uses. */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set<ErrorCode>([...codes, 'internal'])) {
    const status = ERROR_STATUS[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const out: Record<number, TSchema> = {}
  for (const [status, list] of byStatus) {
    const description = list.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(' ')
    out[status] = Type.Unsafe({ ...Type.Ref('ErrorEnvelope'), description })
  }
  return out
}

export const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 timestamp (UTC)' })
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()])

/**
 * An organization slug. The `slug` format runs the same rule as the CLI (`src/org/slug.ts`) and
 * words its errors; length and pattern are spelt out too, for the OpenAPI document.
 */
export const Slug = Type.String({
  minLength: SLUG_MIN_LENGTH,
  maxLength: SLUG_MAX_LENGTH,
  pattern: SLUG_PATTERN,
  format: 'slug',
  description: `${SLUG_WORDS.charAt(0).toUpperCase()}${SLUG_WORDS.slice(1)}, ${SLUG_MIN_LENGTH} to ${SLUG_MAX_LENGTH} characters`,
})
export const DisplayName = Type.String({ minLength: 1, maxLength: 200 })
export const Email = Type.String({ format: 'email', maxLength: 254 })

export function toRfc3339(ms: number): string
export function toRfc3339(ms: number | null): string | null
export function toRfc3339(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString()
}

/** The seed's key creation result: admin creation, the first key at signup, and a rotation. */
export const KeyCreationResult = Type.Object({
  organization_id: Type.String(),
  organization_slug: Type.String(),
  organization_reused: Type.Boolean({
    description: 'true when the key joined an organization that existed before this request',
  }),
  api_key_id: Type.String(),
  key_prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  key: Type.String({ description: 'The secret, shown in this response only' }),
  expires_at: NullableTimestamp,
})
named('KeyCreationResult', KeyCreationResult)
