import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './support/database.ts'
import { CLI } from './support/process.ts'
import { BAD_SLUGS } from './support/slugs.ts'

const PEPPER = 'cli-org-test-pepper-0123456789abcdef'
const JWT = 'cli-org-test-jwt-secret-0123456789abcd'

function strata(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', STRATA_KEY_PEPPER: PEPPER, STRATA_JWT_SECRET: JWT, ...env },
    encoding: 'utf8',
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('operator commands: create-key', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase()
  })
  afterAll(async () => db.drop())

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
    for (const command of ['create-key']) {
      const usage = /^Usage: (.+)$/m.exec(strata([command, '--help'], {}).stdout)?.[1]
      expect(usage, command).toBeDefined()
      expect(readme, command).toContain(`| \`${usage}\` |`)
    }
  })
})
