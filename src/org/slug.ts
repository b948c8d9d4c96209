/**
 * Organization slugs: one rule, one wording, for every way an organization is named (signup, the
 * admin endpoint, `strata create-key`). The HTTP schema is built from these constants and its
 * validation messages come from `slugProblem`, so the API and the CLI say the same thing.
 */
export const SLUG_MIN_LENGTH = 2
export const SLUG_MAX_LENGTH = 64
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$'
const SLUG_REGEX = new RegExp(SLUG_PATTERN)

/** Worded to complete "<field> must be …". */
export const SLUG_WORDS = 'lower-case letters, digits and inner hyphens (not at either end)'

/**
 * Names self-service signup may not take: they read as the service itself or its staff, the
 * classic impersonation targets. An operator may still create them (`POST /v1/org/api-keys`).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'api',
  'app',
  'billing',
  'demo',
  'docs',
  'help',
  'internal',
  'root',
  'security',
  'staff',
  'status',
  'strata',
  'support',
  'system',
  'www',
])

export function isValidSlug(value: string): boolean {
  return value.length >= SLUG_MIN_LENGTH && value.length <= SLUG_MAX_LENGTH && SLUG_REGEX.test(value)
}

/** The nearest valid slug ("Bad Slug" → "bad-slug"), or null when nothing sensible is left. */
export function suggestSlug(value: string): string | null {
  const suggestion = value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '')
  return isValidSlug(suggestion) ? suggestion : null
}

/**
 * What is wrong with a slug, worded to follow its field's name ("organization_slug must be …",
 * "--org must be …"), with the nearest valid slug as a hint; null when it is valid.
 */
export function slugProblem(value: string): string | null {
  if (isValidSlug(value)) return null
  const suggestion = suggestSlug(value)
  const hint = suggestion ? `; did you mean "${suggestion}"?` : ''
  if (value.length < SLUG_MIN_LENGTH) {
    return `must be at least ${SLUG_MIN_LENGTH} characters of ${SLUG_WORDS}`
  }
  if (value.length > SLUG_MAX_LENGTH) {
    return `must be at most ${SLUG_MAX_LENGTH} characters, got ${value.length}${hint}`
  }
  if (SLUG_REGEX.test(value.toLowerCase())) return `must be lower case${hint}`
  return `must be ${SLUG_WORDS}${hint}`
}
