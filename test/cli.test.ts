import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/api/app.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { createLogger } from '../src/logger.ts'
import { createTestDatabase, type TestDatabase } from './support/database.ts'
import { CLI } from './support/process.ts'

const PEPPER = 'cli-test-pepper-0123456789abcdef0123'
const JWT = 'cli-test-jwt-secret-0123456789abcdef'

function strata(args: string[], env: Record<string, string>, input?: string) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', STRATA_KEY_PEPPER: PEPPER, STRATA_JWT_SECRET: JWT, ...env },
    input,
    encoding: 'utf8',
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('the strata command', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase()
  })
  afterAll(async () => db.drop())

  it('lists its commands and explains each one', () => {
    const usage = strata(['--help'], {})
    expect(usage.code).toBe(0)
    for (const name of ['serve', 'migrate', 'create-key', 'create-user', 'set-plan']) {
      expect(usage.stdout).toContain(name)
      const help = strata([name, '--help'], {})
      expect(help.code, name).toBe(0)
      expect(help.stdout).toContain(`strata ${name}`)
    }
    const unknown = strata(['frobnicate'], {})
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('unknown command')
  })

  it('prints its version from package.json with --version and -v', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/)
    for (const flag of ['--version', '-v']) {
      const run = strata([flag], {})
      expect(run.code, flag).toBe(0)
      expect(run.stdout).toBe(`strata ${pkg.version}\n`)
    }
    expect(strata(['--help'], {}).stdout).toContain('strata --version')
  })

  it('creates a key, then a login for that organization that works over HTTP', async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'strata-cli-')), 'fresh.db')
    const first = strata(['migrate'], { DATABASE_URL: `sqlite:${fresh}` })
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(
      'applied: 001-organizations, 002-ledger-data, 003-network, 004-mainnet-layout, 005-coverage, 006-contract-state, 007-management, 008-actions, 009-auth-generation, 010-activities, 011-idempotency, 012-webhooks, 013-console-reads, 014-state-notifications\n',
    )
    expect(strata(['migrate'], { DATABASE_URL: `sqlite:${fresh}` }).stdout).toBe('database is up to date\n')
    const key = strata(['create-key', '--org', 'cli-org', '--org-name', 'CLI Org', '--name', 'ops'], db.env)
    expect(key.code, key.stderr).toBe(0)
    const created = JSON.parse(key.stdout)
    expect(created).toMatchObject({
      organization_slug: 'cli-org',
      organization_reused: false,
      scopes: ['data:read'],
    })
    expect(created.key).toMatch(/^strata_/)

    const noPassword = strata(['create-user', '--org', 'cli-org', '--email', 'ops@example.com'], db.env)
    expect(noPassword.code).toBe(1)
    const short = strata(
      ['create-user', '--org', 'cli-org', '--email', 'ops@example.com', '--password-stdin'],
      db.env,
      'short\n',
    )
    expect(short.code).toBe(1)
    const unknownOrg = strata(
      ['create-user', '--org', 'nope', '--email', 'ops@example.com', '--password-stdin'],
      db.env,
      'a long password\n',
    )
    expect(unknownOrg.code).toBe(1)
    const user = strata(
      ['create-user', '--org', 'cli-org', '--email', 'Ops@Example.com', '--password-stdin'],
      db.env,
      'a long password\n',
    )
    expect(user.code, user.stderr).toBe(0)
    expect(user.stdout).not.toContain('a long password')

    const database = db.open()
    const config = loadConfig({
      ...db.env,
      STRATA_KEY_PEPPER: PEPPER,
      STRATA_JWT_SECRET: JWT,
      STRATA_ADMIN_TOKEN: 'x'.repeat(20),
    })
    const ctx = await createContext(config, createLogger('silent'), { database })
    const app = await buildApp(ctx)
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: { email: 'ops@example.com', password: 'a long password' },
      })
      expect(login.statusCode).toBe(200)
      const keys = await app.inject({
        method: 'GET',
        url: '/v1/org/api-keys',
        headers: { authorization: `Bearer ${login.json().access_token}` },
      })
      expect(keys.json().map((k: { id: string }) => k.id)).toEqual([created.api_key_id])
      // What the commands did is in the organization's audit log, by the operator, from no address.
      const audit = await app.inject({
        method: 'GET',
        url: '/v1/org/audit-log',
        headers: { authorization: `Bearer ${login.json().access_token}` },
      })
      const events = audit.json().data as Array<{
        action: string
        actor: string | null
        client_ip: string | null
      }>
      expect(events.map((e) => [e.action, e.actor, e.client_ip])).toEqual([
        ['user.login', JSON.parse(user.stdout).user_id, '127.0.0.1'],
        ['user.created', 'admin', null],
        ['api_key.created', 'admin', null],
        ['organization.created', 'admin', null],
      ])
      const data = await app.inject({
        method: 'GET',
        url: '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol',
        headers: { 'x-svc-token': created.key },
      })
      expect(data.statusCode).toBe(200)
    } finally {
      await app.close()
      await ctx.close()
      await database.close()
    }
  })
})
