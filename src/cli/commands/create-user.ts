import { newId } from '../../auth/ids.ts'
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.ts'
import { insertAuditEvent } from '../../store/audit-log.ts'
import { getOrganizationBySlug } from '../../store/organizations.ts'
import { insertUser } from '../../store/users.ts'
import type { Command } from '../command.ts'
import { openRuntime, readStdin, stringOption } from '../runtime.ts'

export const createUserCommand: Command = {
  help: `
Usage: echo "$PASSWORD" | strata create-user --org <slug> --email <email> --password-stdin

Creates a user of an existing organization (e.g. one created with POST /v1/org/api-keys), who can
then log in with POST /v1/auth/login. The password is read from standard input, never from
arguments, so it stays out of shell history and process lists. The first line on stderr names the
database it writes to (DATABASE_URL): use the server's.`,
  options: { org: { type: 'string' }, email: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
  async run(values) {
    const slug = stringOption(values.org)
    const email = stringOption(values.email)
    if (!slug || !email || values['password-stdin'] !== true) {
      process.stderr.write('strata create-user: --org, --email and --password-stdin are required\n')
      return 1
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      process.stderr.write(`strata create-user: "${email}" is not an email address\n`)
      return 1
    }
    const problem = passwordProblem((await readStdin()).replace(/\r?\n$/, ''))
    if (typeof problem === 'string') {
      process.stderr.write(`strata create-user: ${problem}\n`)
      return 1
    }
    const { password } = problem
    const { database } = await openRuntime('create-user')
    try {
      const org = await getOrganizationBySlug(database.db, slug)
      if (!org) {
        process.stderr.write(`strata create-user: no organization with slug "${slug}"\n`)
        return 1
      }
      const id = newId('usr')
      const passwordHash = await hashPassword(password)
      const now = Date.now()
      const inserted = await database.db.transaction().execute(async (trx) => {
        const inserted = await insertUser(trx, {
          id,
          organization_id: org.id,
          email,
          password_hash: passwordHash,
          created_at: now,
        })
        if (inserted) {
          await insertAuditEvent(trx, {
            organizationId: org.id,
            at: now,
            action: 'user.created',
            actor: 'admin',
            target: id,
            clientIp: null,
          })
        }
        return inserted
      })
      if (!inserted) {
        process.stderr.write(`strata create-user: a user with email "${email}" exists already\n`)
        return 1
      }
      process.stdout.write(
        `${JSON.stringify({ user_id: id, organization_id: org.id, organization_slug: slug, email })}\n`,
      )
      return 0
    } finally {
      await database.close()
    }
  },
}

/** The password read from stdin (--password-stdin), or what is wrong with it. */
export function passwordProblem(password: string): string | { password: string } {
  if (password === '') {
    return 'no password on standard input (--password-stdin reads it from there, e.g. echo "$PASSWORD" | ...)'
  }
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    return `the password on standard input (--password-stdin) must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`
  }
  return { password }
}
