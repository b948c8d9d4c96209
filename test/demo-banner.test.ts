import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TEST_DB_KIND } from './support/database.ts'
import { CLI, type ServerProcess, startServerProcess } from './support/process.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

// The demo runs on a SQLite file of its own whatever the test store: the SQLite pass only.
describe.skipIf(TEST_DB_KIND !== 'sqlite')("the demo banner's CLI line and accounts", () => {
  let demo: ServerProcess | null = null
  afterAll(async () => {
    await demo?.stop()
  })

  it('gives a DATABASE_URL the CLI writes to the store the demo serves, from another directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'strata-demo-banner-'))
    dirs.push(cwd)
    demo = await startServerProcess(['serve', '--demo', '--port', '0'], {}, 150_000, cwd)
    // The banner is written at once after the URL line; wait for its end.
    for (let i = 0; i < 100 && !demo.output().includes('Ctrl-C stops it.'); i++) {
      await new Promise((r) => setTimeout(r, 50))
    }
    const output = demo.output()
    const line = /the CLI on it: DATABASE_URL=(\S+) npx strata create-key --org demo --name mine/.exec(output)
    expect(line?.[1]).toBe(`sqlite:${join(cwd, '.strata', `demo-${demo.child.pid}.db`)}`)

    // Run from elsewhere (the scratch directory's parent): the URL names the file absolutely.
    const created = spawnSync(process.execPath, [CLI, 'create-key', '--org', 'demo', '--name', 'mine'], {
      cwd: tmpdir(),
      env: { ...process.env, DATABASE_URL: line![1]!, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    })
    expect(created.status, created.stderr).toBe(0)
    const key = (JSON.parse(created.stdout) as { key: string }).key
    const answer = await fetch(`${demo.url}/v1/demo/accounts`, { headers: { 'x-svc-token': key } })
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { data: unknown[] }).data).toHaveLength(5)

    // The banner names an account for every protocol and one holding several, each with its curl
    // line (the endpoint's own choice is tested in demo-accounts.test.ts).
    const listed = [...output.matchAll(/^ {2}([a-z]+): +(G[A-Z2-7]{55}) \(([a-z, ]+)\)$/gm)]
    expect(listed.map((m) => m[1])).toEqual([
      'vaultprotocol',
      'lendingprotocol',
      'ammprotocol',
      'yieldprotocol',
      'several',
    ])
    for (const [, example, address] of listed) {
      const path = example === 'several' ? 'at/latest' : example
      expect(output).toContain(`'${demo.url}/v1/users/${address}/positions/${path}'`)
    }
    expect(output).toContain(`'${demo.url}/v1/demo/accounts'`)
  }, 180_000)
})
