/**
 * The web console in Debian's Chromium against a real `strata serve --demo`: one server and one
 * browser for the whole file; each area's pages are checked by its own module (organization-pages,
 * explorer-pages, protocol-pages), and the journey a newcomer takes runs last. Every page opened
 * must end with no console error, no failed request, no request to another host and no serious or
 * critical accessibility violation. Skipped where Chromium is absent; run once (the demo has its
 * own SQLite store whatever store the suite runs on).
 */
import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeExplorerPages } from './explorer-pages.ts'
import {
  CHROMIUM,
  type DemoServer,
  launchBrowser,
  openPage,
  screenshot,
  seriousViolations,
  startDemo,
} from './harness.ts'
import { describeOrganizationPages } from './organization-pages.ts'
import { describeProtocolPages } from './protocol-pages.ts'

const run = existsSync(CHROMIUM) && process.env.STRATA_TEST_DB !== 'postgres'

export interface ConsoleSuite {
  demo: DemoServer
  browser: Browser
}

describe.skipIf(!run)('the web console', () => {
  let suite: ConsoleSuite | undefined
  const shared = (): ConsoleSuite => {
    if (!suite) throw new Error('the demo server did not start')
    return suite
  }

  beforeAll(async () => {
    const [demo, browser] = await Promise.all([startDemo(), launchBrowser()])
    suite = { demo, browser }
  }, 180_000)

  afterAll(async () => {
    await suite?.browser.close()
    await suite?.demo.server.stop()
  })

  it('serves the sign-up page with its own policy, and it passes the accessibility check', async () => {
    const { demo, browser } = shared()
    const { page, context, problems } = await openPage(browser, demo.url)
    const answer = await page.goto(`${demo.url}/console/signup`)
    expect(answer?.status()).toBe(200)
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'")
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign up')
    await screenshot(page, '00-signup')
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  describeOrganizationPages(shared)
  describeExplorerPages(shared)
  describeProtocolPages(shared)
})
