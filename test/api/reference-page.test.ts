import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'

/** A headless Chromium on this machine, or null (the test then skips). */
function findChromium(): string | null {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' })
    if (found.status === 0 && found.stdout.trim()) return found.stdout.trim()
  }
  return null
}

const chromium = findChromium()

describe.skipIf(chromium === null)('the /v1/docs reference page in a browser', () => {
  let t: TestApp
  let base: string
  const dir = mkdtempSync(join(tmpdir(), 'strata-docs-'))
  beforeAll(async () => {
    t = await createTestApp()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  // Asynchronous: the app answering the browser runs in this same process.
  const run = async (...args: string[]) =>
    (
      await promisify(execFile)(
        chromium as string,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          `--user-data-dir=${join(dir, 'profile')}`,
          ...args,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      )
    ).stdout

  it('renders every route with its parameters, fields, allowed values and examples', {
    timeout: 90_000,
  }, async () => {
    const dom = await run('--dump-dom', `${base}/v1/docs`)
    const routes = [
      'GET /v1/health',
      'POST /v1/auth/signup',
      'POST /v1/auth/login',
      'POST /v1/org/api-keys',
      'GET /v1/org/api-keys',
      'DELETE /v1/org/api-keys/{id}',
      'POST /v1/org/api-keys/{id}/rotate',
      'GET /v1/org/audit-log',
      'GET /v1/org',
      'PATCH /v1/org/billing',
      'GET /v1/users/{address}/positions/vaultprotocol',
      'GET /v1/users/{address}/positions/vaultprotocol/at/{ledger}',
      'GET /v1/users/{address}/positions/vaultprotocol/history',
      'GET /v1/users/{address}/positions/lendingprotocol',
      'GET /v1/users/{address}/positions/lendingprotocol/at/{ledger}',
      'GET /v1/users/{address}/positions/lendingprotocol/history',
      'GET /v1/protocols/lendingprotocol/pools/{pool}',
      'GET /v1/protocols/lendingprotocol/reserves',
      'GET /v1/protocols/lendingprotocol/emissions',
      'GET /v1/users/{address}/positions/ammprotocol',
      'GET /v1/users/{address}/positions/ammprotocol/at/{ledger}',
      'GET /v1/users/{address}/positions/ammprotocol/history',
      'GET /v1/protocols/ammprotocol/pools/{pool}',
      'GET /v1/protocols/ammprotocol/reserves',
    ]
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string]
      expect(dom, route).toContain(`<span class="method">${method}</span> <code>${path}</code>`)
    }
    // Response fields (with nesting), request fields and parameters, with types.
    for (const field of [
      'indexer.last_indexed_ledger',
      'organization_slug',
      'as_of_ledger',
      'key_prefix',
      'plan',
      'api_key.key_prefix',
      'old_key_expires_in_seconds',
      'data[].client_ip',
      'reuse_signup_organization',
      'data.groups[].health_factor',
      'data.snapshots[].data.positions[].rate_ledger',
      'data.reserves[].borrow_apr',
      'data.emissions[].eps',
      'data.groups[].share_of_pool',
      'data.pairs[].price_0_in_1',
      'meta.next_cursor',
    ]) {
      expect(dom, field).toContain(`<code>${field}</code>`)
    }
    expect(dom).toContain('string (date-time)')
    // Allowed values: the plans and the scopes.
    for (const value of ['free', 'pro', 'enterprise', 'data:read', 'api_key.rotated', 'user.login_failed'])
      expect(dom, value).toContain(`<code>"${value}"</code>`)
    expect(dom).toContain('<summary>example</summary>')
    // Examples reach the rows of a history item, with amounts shaped as amounts (the values the
    // document's examples hold, answers of the demo network).
    expect(dom).toMatch(/"rate_ledger": [0-9]+/)
    expect(dom).toMatch(/"shares": "[0-9]+\.[0-9]{7}"/)
  })

  it('takes a screenshot that is a real, non-trivial image', { timeout: 90_000 }, async () => {
    const png = process.env.STRATA_DOCS_SCREENSHOT ?? join(dir, 'docs.png')
    await run('--window-size=1280,2400', '--hide-scrollbars', `--screenshot=${png}`, `${base}/v1/docs`)
    expect(existsSync(png)).toBe(true)
    // A blank page compresses to a few KiB; a page of text does not.
    expect(statSync(png).size).toBeGreaterThan(30_000)
  })
})
