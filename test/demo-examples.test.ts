import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoDatabaseUrl, demoExamples } from '../src/demo.ts'
import { createTestApp, type TestApp } from './support/app.ts'
import { apiKey, createKey } from './support/factories.ts'

const HOLDER = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

describe("the demo banner's examples", () => {
  let t: TestApp
  let key: string

  beforeAll(async () => {
    t = await createTestApp()
    key = (await createKey(t.app)).key
  })

  afterAll(async () => {
    await t?.close()
  })

  it('asks both questions, what it held and what it is worth now, as curl lines the API answers', async () => {
    const lines = demoExamples('http://127.0.0.1:3000', key, HOLDER, 2000)
    const curls = lines.filter((l) => l.trimStart().startsWith('curl '))
    const paths = curls.map((l) => /'http:\/\/127\.0\.0\.1:3000([^']+)'$/.exec(l)?.[1])
    expect(paths).toEqual([
      `/v1/users/${HOLDER}/positions/vaultprotocol?as_of_ledger=2000`,
      `/v1/users/${HOLDER}/positions?as_of_ledger=2000`,
      `/v1/users/${HOLDER}/positions/vaultprotocol/at/latest`,
      `/v1/users/${HOLDER}/positions/at/latest`,
    ])
    for (const line of curls) expect(line).toContain(`-H 'x-svc-token: ${key}'`)
    expect(lines.some((l) => l.startsWith('What it held'))).toBe(true)
    expect(lines.some((l) => l.startsWith('What it is worth now'))).toBe(true)
    for (const url of paths) {
      const response = await t.app.inject({ method: 'GET', url: url!, headers: apiKey(key) })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    }
  })
})

describe("the demo banner's DATABASE_URL", () => {
  it('names the file absolutely, quoted when a shell would split or expand it', () => {
    expect(demoDatabaseUrl('./.strata/demo-1.db')).toBe(`sqlite:${process.cwd()}/.strata/demo-1.db`)
    for (const dir of ['/tmp/my demos', "/tmp/it's $HOME", '/tmp/plain']) {
      const word = demoDatabaseUrl(`${dir}/demo-7.db`)
      // What a shell makes of it, as the banner's line is pasted.
      const seen = execFileSync('sh', ['-c', `DATABASE_URL=${word} sh -c 'printf %s "$DATABASE_URL"'`], {
        encoding: 'utf8',
      })
      expect(seen).toBe(`sqlite:${dir}/demo-7.db`)
    }
  })
})
