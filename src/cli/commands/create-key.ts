import { createApiKey, DEFAULT_SCOPES, KNOWN_SCOPES } from '../../auth/create-api-key.ts'
import { AppError } from '../../errors.ts'
import { slugProblem } from '../../org/slug.ts'
import { resolveSecret } from '../../store/secrets.ts'
import type { Command } from '../command.ts'
import { openRuntime, stringOption } from '../runtime.ts'

export const createKeyCommand: Command = {
  help: `
Usage: strata create-key --org <slug> --name <key name> [--org-name <name>] [--scopes data:read] [--expires-at <RFC 3339>] [--reuse-signup-org]

Creates an API key for the organization with this slug, creating the organization (named
--org-name, by default the slug) when it does not exist. Slugs are 2 to 64 lower-case letters,
digits and inner hyphens, as the API requires. An organization created by self-service signup
gets a key only with --reuse-signup-org: say so when you mean that organization.

Prints the key creation result as JSON. The key itself is shown only this once. The first line on
stderr names the database it writes to (DATABASE_URL): use the server's.`,
  options: {
    org: { type: 'string' },
    'org-name': { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    'expires-at': { type: 'string' },
    'reuse-signup-org': { type: 'boolean' },
  },
  async run(values) {
    const slug = stringOption(values.org)
    const keyName = stringOption(values.name)
    if (!slug || !keyName) {
      process.stderr.write('strata create-key: --org and --name are required\n')
      return 1
    }
    // The same rule and words as the API's organization_slug.
    const problem = slugProblem(slug)
    if (problem) {
      process.stderr.write(`strata create-key: --org ${problem}\n`)
      return 1
    }
    const scopes =
      stringOption(values.scopes)
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? DEFAULT_SCOPES
    const unknown = scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s))
    if (unknown.length) {
      process.stderr.write(`strata create-key: unknown scope(s): ${unknown.join(', ')}\n`)
      return 1
    }
    const expiresRaw = stringOption(values['expires-at'])
    const expiresAt = expiresRaw === undefined ? null : Date.parse(expiresRaw)
    if (expiresAt !== null && (Number.isNaN(expiresAt) || expiresAt <= Date.now())) {
      process.stderr.write('strata create-key: --expires-at must be a future RFC 3339 time\n')
      return 1
    }
    const { config, database } = await openRuntime('create-key')
    try {
      const pepper = await resolveSecret(database.db, config.keyPepper, 'key_pepper')
      const result = await createApiKey(database.db, pepper, Date.now(), {
        organizationName: stringOption(values['org-name']) ?? slug,
        organizationSlug: slug,
        keyName,
        scopes,
        expiresAt,
        reuseSignupOrganization: values['reuse-signup-org'] === true,
        clientIp: null,
      })
      const shown = { ...result, expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString() }
      process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`)
      return 0
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      process.stderr.write(`strata create-key: ${error.message}\n`)
      return 1
    } finally {
      await database.close()
    }
  },
}
