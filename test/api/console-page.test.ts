// The web console's files as the server serves them: the page for every console path (so its URLs
// can be shared), its policy, the hashed assets immutable and gzipped once, 304 on a known tag,
// the error envelope for a missing file, and a clear 503 when the console was never built.
import { readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { CONSOLE_CSP, CONSOLE_DIST } from '../../src/api/console-page.ts'
import { createTestApp, type TestApp } from '../support/app.ts'

describe('the console page', () => {
  let t: TestApp
  const index = readFileSync(join(CONSOLE_DIST, 'index.html'), 'utf8')
  const script = readdirSync(join(CONSOLE_DIST, 'assets')).find((name) => /^index-.*\.js$/.test(name))!
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  it('answers the built page for /console and every path under it, with its query untouched', async () => {
    for (const url of [
      '/console',
      '/console/',
      '/console/login?next=%2Fconsole%2Fkeys',
      '/console/accounts/GABC/at/1200',
    ]) {
      const answer = await t.app.inject({ method: 'GET', url })
      expect(answer.statusCode, url).toBe(200)
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(answer.body).toBe(index)
      expect(answer.headers['content-security-policy']).toBe(CONSOLE_CSP)
      expect(answer.headers['cache-control']).toBe('no-cache')
      expect(answer.headers['x-frame-options']).toBe('DENY')
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toContain('unsafe')
  })

  it('names only its own assets, and serves each immutable, gzipped when asked, 304 when held', async () => {
    const named = [...index.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => !u.startsWith('data:'))
    expect(named.length).toBeGreaterThanOrEqual(2)
    for (const url of named) expect(url.startsWith('/console/assets/')).toBe(true)
    const raw = readFileSync(join(CONSOLE_DIST, 'assets', script))
    const plain = await t.app.inject({ method: 'GET', url: `/console/assets/${script}` })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(plain.rawPayload.equals(raw)).toBe(true)
    const zipped = await t.app.inject({
      method: 'GET',
      url: `/console/assets/${script}`,
      headers: { 'accept-encoding': 'gzip, deflate' },
    })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.rawPayload.length).toBeLessThan(raw.length)
    expect(gunzipSync(zipped.rawPayload).equals(raw)).toBe(true)
    const held = await t.app.inject({
      method: 'GET',
      url: `/console/assets/${script}`,
      headers: { 'if-none-match': String(plain.headers.etag) },
    })
    expect(held.statusCode).toBe(304)
    expect(held.body).toBe('')
  })

  it('refuses a file it does not have in the error envelope', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/console/assets/nothing-here.js' })
    expect(answer.statusCode).toBe(404)
    expect(answer.json().error.code).toBe('not_found')
    expect(answer.json().error.message).toContain('nothing-here.js')
  })

  it('is not in the API document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: object }
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/console'))).toEqual([])
  })

  it('says how to build it when it was never built', async () => {
    const app = await buildApp(t.ctx, { consoleDist: join(tmpdir(), 'strata-no-console-here') })
    try {
      const answer = await app.inject({ method: 'GET', url: '/console/keys' })
      expect(answer.statusCode).toBe(503)
      expect(answer.json().error.message).toContain('npm run console:build')
    } finally {
      await app.close()
    }
  })
})
