/**
 * How the OpenAPI document's examples are compared with a new run (scripts/openapi-examples.ts):
 * what each run draws afresh is compared by type, not value.
 */

/**
 * Fields each run draws afresh (ids, secrets, tokens and what names them) or that follow the
 * release (`version`): compared by type, not value.
 */
const DRAWN = new Set([
  'id',
  // A redelivery's outcome depends on the network the examples are asked from (no receiver answers).
  'last_error',
  'key',
  'key_prefix',
  'prefix',
  'api_key_id',
  'new_key_id',
  'organization_id',
  'user_id',
  'access_token',
  'refresh_token',
  'secret',
  'actor',
  'target',
  'next_cursor',
  // A request's cursor is a previous answer's next_cursor, which may name a drawn id.
  'cursor',
  'version',
])

/**
 * `value` with drawn fields replaced by their type. A list of records with an `id` (keys, audit
 * events) is put in a fixed order: records made in the same millisecond are ordered by their drawn
 * id. Every other list keeps its order, which is part of the answer.
 */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(comparable)
    const byId = value.every((item) => item !== null && typeof item === 'object' && 'id' in item)
    return byId ? items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : items
  }
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      DRAWN.has(key) && item !== null ? `<${typeof item}>` : comparable(item),
    ]),
  )
}

/** JSON text of `value` with every object's keys in order. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  )
}
