import { StrKey } from '@stellar/stellar-sdk'
import { Type } from 'typebox'
import { AppError } from '../errors.ts'
import { named } from '../protocols/kit/response-schema.ts'
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX } from './route-helpers.ts'

const INT64_MAX = 2n ** 63n - 1n

/** Page size of a management list (API keys, audit log) when `limit` is omitted, and its largest. */
export const PAGE_LIMIT_DEFAULT = 100
export const PAGE_LIMIT_MAX = 500

/** `limit` of a management list: 1 to 500, as history and activity pages take it. */
export const PageLimit = Type.String({
  pattern: '^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$',
  // Worded to complete "<field> must be …" in a validation error's details.
  description: `A whole number from 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`,
})

/** `limit` of a history or activity page (the route refuses 0 and above the largest). */
export const HistoryLimit = Type.String({
  pattern: '^[0-9]{1,3}$',
  // Worded to complete "<field> must be …" in a validation error's details.
  description: `A whole number from 1 to ${HISTORY_LIMIT_MAX} (default ${HISTORY_LIMIT_DEFAULT})`,
})

/** `cursor` of a management list: the `meta.next_cursor` of an earlier page. */
export const PageCursor = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The next_cursor of an earlier page, unchanged',
})

/** The `meta` of a management list's page. */
export const PageMeta = Type.Object({
  limit: Type.Integer({ description: 'The page size used' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next (older) page; null on the last page',
  }),
})
named('PageMeta', PageMeta)

/** A page's `limit` (already shaped by `PageLimit`), or the default. */
export function parsePageLimit(value: string | undefined): number {
  return value === undefined ? PAGE_LIMIT_DEFAULT : Number(value)
}

/** The 400 of a cursor that no page handed out (edited, truncated, or of another list). */
export function invalidCursor(): AppError {
  const message = 'cursor must be the next_cursor of an earlier page, unchanged'
  return new AppError('invalid_request', message, { details: [{ field: 'cursor', message }] })
}
const MAX_SAFE_PIN = BigInt(Number.MAX_SAFE_INTEGER)

export const AddressParam = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'A Stellar account (G...) or contract (C...) StrKey',
})

const LEDGER_PIN_WORDS = 'A ledger number (a whole number from 0 to 2^63-1)'

/** Query/path text of a ledger pin; the pattern keeps the field named in `details`. */
export const LedgerPin = Type.String({
  pattern: '^[0-9]{1,19}$',
  // Worded to complete "<field> must be …" in a validation error's details.
  description: LEDGER_PIN_WORDS,
})

/** The ledger of an `/at/{ledger}` path: a pin, or `latest`, the last indexed ledger. */
export const AtLedger = Type.String({
  pattern: '^([0-9]{1,19}|latest)$',
  description: `${LEDGER_PIN_WORDS}, or latest (the last indexed ledger)`,
})

const patternOf = (schema: object) => (schema as { pattern: string }).pattern

/**
 * What the document says a parameter is, by the pattern that validates its text. The server takes
 * query and path values as text, checked by pattern with no coercion (so a bad value's 400 names
 * the field in the words of its description); the OpenAPI document types them as what they mean,
 * integers, so a generated client takes a number (src/api/openapi.ts replaces each schema whose
 * pattern is listed here). `fromText` turns an example's text into the documented value.
 */
export const DOCUMENTED_PARAMETERS: Record<
  string,
  { schema: Record<string, unknown>; fromText: (text: string) => unknown }
> = {
  [patternOf(LedgerPin)]: {
    // int64 bounds it above: a JSON number cannot write 2^63-1 exactly (it would read as 2^63).
    schema: { type: 'integer', format: 'int64', minimum: 0 },
    fromText: Number,
  },
  [patternOf(AtLedger)]: {
    schema: {
      oneOf: [
        { type: 'integer', format: 'int64', minimum: 0 },
        { type: 'string', enum: ['latest'], description: 'The last indexed ledger' },
      ],
    },
    fromText: (text) => (text === 'latest' ? text : Number(text)),
  },
  [patternOf(HistoryLimit)]: {
    schema: { type: 'integer', minimum: 1, maximum: HISTORY_LIMIT_MAX, default: HISTORY_LIMIT_DEFAULT },
    fromText: Number,
  },
  [patternOf(PageLimit)]: {
    schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
    fromText: Number,
  },
}

/** An `/at/{ledger}` path's ledger: `latest` is the checkpoint (null, as an omitted pin is). */
export function parseAtLedger(value: string, field: string): number | bigint | null {
  return value === 'latest' ? null : parseLedgerPin(value, field)
}

/**
 * Addresses recently found valid. Decoding a StrKey and its CRC16 costs about 12 µs in a busy
 * server, paid twice per data request (before the quota, and by the route); an address is valid
 * or not forever, so a repeated one is answered from here. Bounded: emptied when full.
 */
const validAddresses = new Set<string>()
const VALID_ADDRESSES_MAX = 50_000

/** Accepts a G... account or C... contract StrKey, checksum included. */
export function requireAddress(address: string): string {
  if (validAddresses.has(address)) return address
  if (StrKey.isValidEd25519PublicKey(address) || StrKey.isValidContract(address)) {
    if (validAddresses.size >= VALID_ADDRESSES_MAX) validAddresses.clear()
    validAddresses.add(address)
    return address
  }
  throw new AppError(
    'invalid_address',
    `"${address}" is not a valid Stellar account (G...) or contract (C...) address`,
  )
}

/**
 * Parses a ledger pin (already shaped by the schema pattern) and enforces the int64 bound. Pins
 * beyond Number's exact range stay BigInt so they echo back unchanged.
 */
export function parseLedgerPin(value: string, field: string): number | bigint {
  // Fifteen digits or fewer are below 2^53: the number is exact, and no BigInt is needed.
  if (value.length <= 15) return Number(value)
  const pin = BigInt(value)
  if (pin > INT64_MAX) {
    throw new AppError('invalid_request', `${field} must be at most ${INT64_MAX}`, {
      details: [{ field, message: `${field} must be ${lowerFirst(LEDGER_PIN_WORDS)}` }],
    })
  }
  return pin <= MAX_SAFE_PIN ? Number(pin) : pin
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
