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
  layoutShift,
  openPage,
  resetLayoutShift,
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

  it('takes a newcomer in one tab from sign-up to a key created, the demo accounts explored, a chart, the key rotated and revoked, and both in the audit log', async () => {
    const { demo, browser } = shared()
    const { page, context, problems } = await openPage(browser, demo.url)
    const heading = () => page.getByRole('heading', { level: 1 }).textContent()
    const step = async (name: string) => {
      await screenshot(page, `journey-${name}`)
      expect(await seriousViolations(page), name).toEqual([])
      expect(problems, name).toEqual([])
    }
    const stamp = `${Date.now().toString(36)}${process.pid}`
    const who = {
      slug: `journey-${stamp}`,
      email: `journey-${stamp}@example.com`,
      password: 'a journey of ten words',
    }

    // 1. Sign up: the first key is shown once.
    await page.goto(`${demo.url}/console/signup`)
    await page.getByLabel('Organization name').fill('Journey Org')
    await page.getByLabel('Organization slug').fill(who.slug)
    await page.getByLabel('Email').fill(who.email)
    await page.getByLabel('Password').fill(who.password)
    await page.getByRole('button', { name: 'Create organization' }).click()
    await expect.poll(() => page.getByTestId('new-secret').count(), { timeout: 15_000 }).toBe(1)
    const signupKey = (await page.getByTestId('new-secret').textContent()) ?? ''
    expect(signupKey).toMatch(KEY_PATTERN)
    await step('01-signed-up')
    await page.getByRole('button', { name: 'Continue to your organization' }).click()
    await expect.poll(heading).toBe('Organization')
    await expect.poll(() => page.getByTestId('org-slug').textContent()).toBe(who.slug)
    await step('02-organization')

    // This test's own view of the organization, to check what the pages say.
    const login = await fetch(`${demo.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: who.password }),
    })
    expect(login.status).toBe(200)
    const bearer = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    }
    const keys = async () =>
      (await (await fetch(`${demo.url}/v1/org/api-keys`, { headers: bearer })).json()) as Array<{
        id: string
        name: string
        prefix: string
        revoked: boolean
      }>

    // 2. Create a key, and take it to the explorer.
    await page.getByRole('link', { name: 'API keys', exact: true }).click()
    await expect.poll(heading).toBe('API keys')
    await page.getByLabel('Name', { exact: true }).fill('journey')
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect.poll(() => page.getByTestId('new-secret').count()).toBe(1)
    const created = (await page.getByTestId('new-secret').textContent()) ?? ''
    expect(created).toMatch(KEY_PATTERN)
    expect(created).not.toBe(signupKey)
    const createdRecord = (await keys()).find((key) => key.prefix === created.slice(0, 12))
    expect(createdRecord?.name).toBe('journey')
    await page.getByRole('button', { name: 'Use in the explorer' }).click()
    await step('03-key-created')
    await page.getByRole('button', { name: 'I have stored it' }).click()

    // 3. The demo accounts of every protocol, with the new key.
    await page.getByRole('link', { name: 'Explorer', exact: true }).click()
    await expect.poll(heading).toBe('Explorer')
    await expect.poll(() => page.getByTestId('demo-account').count()).toBe(5)
    await step('04-explorer')
    for (const example of [
      'vaultprotocol',
      'lendingprotocol',
      'ammprotocol',
      'yieldprotocol',
      'several',
    ] as const) {
      await page.getByRole('link', { name: 'Explorer', exact: true }).click()
      await resetLayoutShift(page)
      // The demo lists its example of each protocol as it stands now (it may differ from the banner's).
      const link = page.getByRole('link', { name: example, exact: true })
      const address = decodeURIComponent(((await link.getAttribute('href')) ?? '').split('/').pop() ?? '')
      expect(address).toMatch(/^G[A-Z2-7]{55}$/)
      await link.click()
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/accounts/${address}`)
      await page.getByTestId('last-indexed').waitFor()
      // The page answers at the head it names; the API asked at that head with the same key agrees.
      const head = Number(
        ((await page.getByTestId('last-indexed').first().textContent()) ?? '').replaceAll(',', ''),
      )
      const answer = await fetch(`${demo.url}/v1/users/${address}/positions?as_of_ledger=${head}`, {
        headers: { 'x-svc-token': created },
      })
      expect(answer.status).toBe(200)
      const body = (await answer.json()) as {
        data: {
          totals: { net_usd: string | null }
          protocols: Record<string, { data: { vaults?: unknown[]; positions?: unknown[] } }>
        }
      }
      // A total of protocols valued at different ledgers is unknown (null): a dash and its reason.
      const total = body.data.totals.net_usd
      await expect
        .poll(async () => ((await page.getByTestId('total-net-usd').innerText()) ?? '').trim())
        .toMatch(total === null ? /^— \(/ : new RegExp(`^${dollars(total).replace(/[$.]/g, '\\$&')}$`))
      for (const [protocol, section] of Object.entries(body.data.protocols)) {
        const held = (section.data.vaults ?? section.data.positions ?? []).length
        expect(
          await page.locator(`section[data-protocol="${protocol}"] [data-testid="position-row"]`).count(),
          protocol,
        ).toBe(held)
      }
      if (example !== 'several')
        expect(
          (body.data.protocols[example]?.data.vaults ?? body.data.protocols[example]?.data.positions ?? [])
            .length,
        ).toBeGreaterThan(0)

      // 4. A chart: the account's value over time, drawn once every sample is valued.
      await page.locator('[data-testid="value-chart"] figure canvas').first().waitFor({ timeout: 45_000 })
      expect(
        ((await page.getByTestId('sampled-ledgers').textContent()) ?? '').split(',').length,
      ).toBeGreaterThan(1)
      // Placeholders hold the place of what they wait for: the page barely moves as its answers
      // arrive (0.1 is the Web Vitals' bound of "good"; the account page measures about 0.03).
      expect(await layoutShift(page), example).toBeLessThan(0.05)
      await step(`05-account-${example}`)
    }

    // 5. Rotate the key, then revoke its successor after the confirmation.
    await page.getByRole('link', { name: 'API keys', exact: true }).click()
    await expect.poll(() => page.locator(`tr[data-key-id="${createdRecord?.id}"]`).count()).toBe(1)
    await page.getByRole('button', { name: /^Rotate journey / }).click()
    const rotate = page.getByRole('dialog', { name: 'Rotate journey?' })
    await expect.poll(() => rotate.isVisible()).toBe(true)
    await rotate.getByRole('button', { name: 'Rotate key' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'The rotated key' }).count()).toBe(1)
    const rotated = (await page.getByTestId('new-secret').textContent()) ?? ''
    expect(rotated).toMatch(KEY_PATTERN)
    expect(rotated).not.toBe(created)
    await step('06-key-rotated')
    await page.getByRole('button', { name: 'I have stored it' }).click()
    const successor = (await keys()).find((key) => key.prefix === rotated.slice(0, 12))
    expect(successor?.name).toBe('journey')
    const row = page.locator(`tr[data-key-id="${successor?.id}"]`)
    await row.getByRole('button', { name: /^Revoke / }).click()
    const revoke = page.getByRole('dialog', { name: 'Revoke journey?' })
    await expect.poll(() => revoke.isVisible()).toBe(true)
    await step('07-revoke-dialog')
    await revoke.getByRole('button', { name: 'Revoke key' }).click()
    await expect.poll(() => row.textContent()).toContain('Revoked')
    expect((await keys()).find((key) => key.id === successor?.id)?.revoked).toBe(true)
    const refused = await fetch(`${demo.url}/v1/protocols`, { headers: { 'x-svc-token': rotated } })
    expect(refused.status).toBe(401)
    await refused.arrayBuffer()
    await step('08-key-revoked')

    // 6. Both in the audit log, as the API lists them.
    await page.getByRole('link', { name: 'Audit log', exact: true }).click()
    await expect.poll(heading).toBe('Audit log')
    const log = (await (
      await fetch(`${demo.url}/v1/org/audit-log?limit=10`, { headers: bearer })
    ).json()) as {
      data: Array<{ action: string; target: string | null }>
    }
    const rotation = log.data.find((event) => event.action === 'api_key.rotated')
    const revocation = log.data.find((event) => event.action === 'api_key.revoked')
    expect(rotation?.target).toBe(createdRecord?.id)
    expect(revocation?.target).toBe(successor?.id)
    await expect.poll(() => page.locator('main table').first().innerText()).toContain('api_key.rotated')
    const shown = await page.locator('main table').first().innerText()
    expect(shown).toContain('api_key.revoked')
    expect(shown).toContain('api_key.created')
    await step('09-audit-log')
    await context.close()
  }, 240_000)
})

const KEY_PATTERN = /^strata_[0-9A-Za-z]{49}$/

/** A USD decimal string as the console shows it, written here from the digits: `$1,234.56`; null is an em dash. */
function dollars(value: string | null): string {
  if (value === null) return '—'
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${value.startsWith('-') ? '-' : ''}$${grouped}.${`${fraction}00`.slice(0, 2)}`
}
