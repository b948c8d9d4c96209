import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/api/app.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { createLogger } from '../src/logger.ts'
import { createTestDatabase, type TestDatabase } from './support/database.ts'
import { CLI } from './support/process.ts'
import { BAD_SLUGS } from './support/slugs.ts'

const PEPPER = 'cli-org-test-pepper-0123456789abcdef'
const JWT = 'cli-org-test-jwt-secret-0123456789abcd'
const ADMIN = 'cli-org-admin-token-0123456789'

function strata(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', STRATA_KEY_PEPPER: PEPPER, STRATA_JWT_SECRET: JWT, ...env },
    encoding: 'utf8',
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('operator commands: create-key and set-plan', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase()
  })
  afterAll(async () => db.drop())

  /** The app on the same database, to see over HTTP what the commands did. */
  const withApp = async <T>(fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> => {
    const database = db.open()
    const config = loadConfig({
      ...db.env,
      STRATA_KEY_PEPPER: PEPPER,
      STRATA_JWT_SECRET: JWT,
      STRATA_ADMIN_TOKEN: ADMIN,
    })
    const ctx = await createContext(config, createLogger('silent'), { database })
    const app = await buildApp(ctx)
    try {
      return await fn(app)
    } finally {
      await app.close()
      await ctx.close()
      await database.close()
    }
  }

  it('refuses a bad slug with the API’s own message and a non-zero exit, creating nothing', () => {
    for (const [slug, words] of BAD_SLUGS) {
      const run = strata(['create-key', `--org=${slug}`, '--name', 'k'], db.env)
      expect(run.code, slug).toBe(1)
      expect(run.stderr).toBe(`strata create-key: --org ${words}\n`)
      expect(run.stdout).toBe('')
    }
  })

  it('documents the same synopsis in README and --help', () => {
    // A `|` inside a table cell is written `\|`.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replaceAll('\\|', '|')
    for (const command of ['create-key', 'set-plan']) {
      const usage = /^Usage: (.+)$/m.exec(strata([command, '--help'], {}).stdout)?.[1]
      expect(usage, command).toBeDefined()
      expect(readme, command).toContain(`| \`${usage}\` |`)
    }
  })

  it('lists the throttle and proxy variables in serve --help', () => {
    const help = strata(['serve', '--help'], {}).stdout
    for (const name of ['SIGNUP_ATTEMPTS_PER_WINDOW', 'SIGNUP_WINDOW_S', 'TRUST_PROXY', 'LOGIN_WINDOW_S']) {
      expect(help, name).toContain(name)
    }
  })

  it('does not hand a key to an organization made by signup unless told to, and audits as admin', async () => {
    const signup = await withApp((app) =>
      app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: { 'content-type': 'application/json' },
        payload: {
          organization_name: 'Acme',
          organization_slug: 'acme',
          email: 'owner@acme.example.com',
          password: 'long enough pw',
        },
      }),
    )
    expect(signup.statusCode).toBe(201)
    const refused = strata(['create-key', '--org', 'acme', '--name', 'ops'], db.env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      `strata create-key: database ${db.env.DATABASE_URL}\n` +
        'strata create-key: organization "acme" was created by self-service signup, not by an operator; set reuse_signup_organization (strata create-key: --reuse-signup-org) if you mean it\n',
    )
    const meant = strata(['create-key', '--org', 'acme', '--name', 'ops', '--reuse-signup-org'], db.env)
    expect(meant.code, meant.stderr).toBe(0)
    const created = JSON.parse(meant.stdout)
    expect(created).toMatchObject({
      organization_id: signup.json().organization_id,
      organization_reused: true,
    })

    const events = await withApp(async (app) =>
      (
        await app.inject({
          method: 'GET',
          url: '/v1/org/audit-log',
          headers: { authorization: `Bearer ${signup.json().access_token}` },
        })
      ).json(),
    )
    expect(events.data[0]).toMatchObject({
      action: 'api_key.created',
      actor: 'admin',
      target: created.api_key_id,
      client_ip: null,
      details: { name: 'ops', key_prefix: created.key_prefix, scopes: ['data:read'] },
    })
  })

  it('grants a plan with set-plan; the organization may then move within it', async () => {
    const signup = await withApp((app) =>
      app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: { 'content-type': 'application/json' },
        payload: {
          organization_name: 'Beta',
          organization_slug: 'beta',
          email: 'owner@beta.example.com',
          password: 'long enough pw',
        },
      }),
    )
    const token = { authorization: `Bearer ${signup.json().access_token}` }
    const bad = strata(['set-plan', '--org', 'beta', '--plan', 'platinum'], db.env)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('strata set-plan: --plan must be one of free, pro, enterprise, got "platinum"\n')
    expect(strata(['set-plan', '--org', 'nobody', '--plan', 'pro'], db.env).code).toBe(1)
    const granted = strata(['set-plan', '--org', 'beta', '--plan', 'pro'], db.env)
    expect(granted.code, granted.stderr).toBe(0)
    expect(JSON.parse(granted.stdout)).toEqual({
      organization_id: signup.json().organization_id,
      organization_slug: 'beta',
      plan: 'pro',
      plans_allowed: ['free', 'pro'],
    })
    await withApp(async (app) => {
      const patch = (plan: string) =>
        app.inject({
          method: 'PATCH',
          url: '/v1/org/billing',
          headers: { ...token, 'content-type': 'application/json' },
          payload: { plan },
        })
      expect((await patch('free')).statusCode).toBe(200)
      expect((await patch('pro')).statusCode).toBe(200)
      expect((await patch('enterprise')).statusCode).toBe(403)
      const events = (await app.inject({ method: 'GET', url: '/v1/org/audit-log', headers: token })).json()
      expect(events.data.at(-4)).toMatchObject({
        action: 'organization.plan_changed',
        actor: 'admin',
        client_ip: null,
        details: { from: 'free', to: 'pro', max_plan: 'pro' },
      })
    })
  })
})
