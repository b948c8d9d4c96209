/**
 * The console's organization pages in Chromium (registered by console.test.ts, which owns the server and
 * the browser). One journey, in order: sign up a fresh organization through the page, see its first
 * key once, then its organization and usage, its keys (create, rotate with an overlap, revoke through
 * the dialog), its audit log (filtered and paged), and log out and in again. Every value a page shows
 * is compared with what the API answers to this test's own requests.
 */
import { spawnSync } from 'node:child_process'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { CLI } from '../support/process.ts'
import type { ConsoleSuite } from './console.test.ts'
import { openPage, screenshot, seriousViolations } from './harness.ts'

interface Journey {
  slug: string
  name: string
  email: string
  password: string
  /** The key signup answered, shown once on the page. */
  signupKey: string
  /** The refresh token the console stored after signup: later pages start signed in with it. */
  refreshToken: string
  /** The key the keys page created, then its rotated successor. */
  created?: { name: string; secret: string; id: string }
  rotated?: { secret: string; id: string }
}

const KEY_PATTERN = /^strata_[0-9A-Za-z]{49}$/

export function describeOrganizationPages(shared: () => ConsoleSuite): void {
  describe('organization pages', () => {
    let journey: Journey | undefined
    const started = (): Journey => {
      if (!journey) throw new Error('the signup step did not complete')
      return journey
    }
    let bearer: string | undefined

    /** This test's own access token (a login of its own), for asking the API what the pages should show. */
    async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
      const { demo } = shared()
      const { email, password } = started()
      if (!bearer) {
        const login = await fetch(`${demo.url}/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        })
        expect(login.status).toBe(200)
        bearer = ((await login.json()) as { access_token: string }).access_token
      }
      const answer = await fetch(`${demo.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${bearer}`, ...(init.headers ?? {}) },
      })
      const text = await answer.text()
      return { status: answer.status, body: (text ? JSON.parse(text) : undefined) as T }
    }

    /** A data request with an API key; its status. */
    async function dataRequest(key: string): Promise<number> {
      const answer = await fetch(`${shared().demo.url}/v1/protocols`, { headers: { 'x-svc-token': key } })
      await answer.arrayBuffer()
      return answer.status
    }

    /** A page already signed in: the console finds the stored refresh token, as after a reload. */
    async function signedInPage(options: { width?: number; colorScheme?: 'light' | 'dark' } = {}) {
      const { demo, browser } = shared()
      const opened = await openPage(browser, demo.url, options)
      const { refreshToken, email } = started()
      await opened.page.addInitScript(`if (localStorage.getItem('strata.console.signed-out') === null) {
        localStorage.setItem('strata.console.refresh-token', ${JSON.stringify(refreshToken)})
        localStorage.setItem('strata.console.email', ${JSON.stringify(email)})
      }`)
      return opened
    }

    async function heading(page: Page): Promise<string | null> {
      return page.getByRole('heading', { level: 1 }).textContent()
    }

    it('signs up a fresh organization through the page and shows its first key once', async () => {
      const { demo, browser } = shared()
      const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
      const slug = `org-pages-${unique}`
      const name = `Org Pages ${unique}`
      const email = `owner-${unique}@example.com`
      const password = `long enough ${unique}`
      const { page, context, problems } = await openPage(browser, demo.url)
      await page.goto(`${demo.url}/console/signup`)
      await page.getByLabel('Organization name').fill(name)
      await page.getByLabel('Organization slug').fill(slug)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(password)
      for (const [label, value] of [
        ['Organization name', name],
        ['Organization slug', slug],
        ['Email', email],
        ['Password', password],
      ] as const)
        await expect.poll(() => page.getByLabel(label).inputValue()).toBe(value)
      await page.getByRole('button', { name: 'Create organization' }).click()
      // The page answers with the key, or says why not (shown here when it does).
      await expect
        .poll(
          async () =>
            (await page.locator('[role=alert]').allTextContents()).join(' ') || (await heading(page)),
        )
        .toBe('Your organization is ready')
      const signupKey = (await page.getByTestId('new-secret').textContent()) ?? ''
      expect(signupKey).toMatch(KEY_PATTERN)
      expect(await page.locator('.warning').textContent()).toContain('cannot be shown again')
      // The key shown is the organization's real key: a data request with it is answered.
      expect(await dataRequest(signupKey)).toBe(200)
      await screenshot(page, 'org-01-signup-secret')
      expect(await seriousViolations(page)).toEqual([])

      const refreshToken = (await page.evaluate("localStorage.getItem('strata.console.refresh-token')")) as
        | string
        | null
      expect(refreshToken).toBeTruthy()
      journey = {
        slug,
        name,
        email,
        password,
        signupKey,
        refreshToken: refreshToken ?? '',
      }
      const usage = await api('/v1/org/usage')
      expect(usage.status).toBe(200)

      await page.getByRole('button', { name: 'Continue to your organization' }).click()
      await expect.poll(() => heading(page)).toBe('Organization')
      await expect.poll(() => page.getByTestId('org-slug').textContent()).toBe(slug)
      expect(problems).toEqual([])
      await context.close()
    })

    it('shows the organization, its plan and its usage as the API counts them, in the dark theme', async () => {
      const { demo } = shared()
      const { signupKey } = started()
      const requests = 7
      for (let i = 0; i < requests; i += 1) expect(await dataRequest(signupKey)).toBe(200)

      const { page, context, problems } = await signedInPage({ colorScheme: 'dark' })
      await page.goto(`${demo.url}/console/organization`)
      await expect.poll(() => heading(page)).toBe('Organization')
      const org = await api<{
        name: string
        slug: string
        plan: string
        max_plan: string
        billing_email: string | null
      }>('/v1/org')
      expect(org.status).toBe(200)
      await expect.poll(() => page.getByTestId('org-name').textContent()).toBe(org.body.name)
      expect(org.body.name).toBe(started().name)
      expect(await page.getByTestId('org-slug').textContent()).toBe(org.body.slug)
      expect(await page.getByTestId('org-plan').textContent()).toBe(org.body.plan)
      expect(await page.getByTestId('org-max-plan').textContent()).toBe(org.body.max_plan)
      expect(await page.getByTestId('org-billing-email').textContent()).toBe(
        org.body.billing_email ?? 'None set',
      )
      if (org.body.max_plan === 'free') {
        await expect.poll(() => page.getByText('there is no other plan to choose').count()).toBe(1)
      } else {
        expect(await page.getByLabel('New plan').count()).toBe(1)
      }

      await expect.poll(() => page.getByTestId('usage-today-requests').count()).toBe(1)
      const shownToday = Number(
        (await page.getByTestId('usage-today-requests').textContent())?.replace(/,/g, ''),
      )
      const shownUsed = Number((await page.getByTestId('usage-used').textContent())?.replace(/,/g, ''))
      const shownLimit = Number((await page.getByTestId('usage-limit').textContent())?.replace(/,/g, ''))
      const shownResets = await page.getByTestId('usage-window').locator('time').getAttribute('datetime')
      const usage = await api<{
        rate_limit: { used: number; limit: number; resets_at: string }
        today: { requests: number }
      }>('/v1/org/usage')
      // Reading usage is no data request, and nothing else used this organization's keys since the
      // page asked: the API's counts now are the ones the page showed (the signup key made
      // `requests` + 1 data requests).
      expect(shownToday).toBe(usage.body.today.requests)
      expect(shownToday).toBeGreaterThanOrEqual(requests + 1)
      expect(shownLimit).toBe(usage.body.rate_limit.limit)
      if (shownResets === usage.body.rate_limit.resets_at) expect(shownUsed).toBe(usage.body.rate_limit.used)
      // The dark theme follows the system: the page's background is the dark one.
      expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(17, 19, 24)')
      await screenshot(page, 'org-02-organization-dark')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    })

    it('changes the plan within the highest plan the operator allows, after a confirmation', async () => {
      const { demo } = shared()
      const { slug } = started()
      // The operator grants pro with the CLI on the demo's own database (its banner names it).
      const databaseUrl = /DATABASE_URL=(\S+)/.exec(demo.server.output())?.[1]
      expect(databaseUrl).toBeTruthy()
      const granted = spawnSync(process.execPath, [CLI, 'set-plan', '--org', slug, '--plan', 'pro'], {
        env: { ...process.env, DATABASE_URL: databaseUrl ?? '', STRATA_TEST_DB: '', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      })
      expect(granted.status, granted.stderr).toBe(0)

      const { page, context, problems } = await signedInPage()
      await page.goto(`${demo.url}/console/organization`)
      await expect.poll(() => page.getByTestId('org-plan').textContent()).toBe('pro')
      expect(await page.getByTestId('org-max-plan').textContent()).toBe('pro')
      const plan = page.getByLabel('New plan')
      expect(await plan.locator('option').allTextContents()).toEqual(['free', 'pro (current)'])
      await plan.selectOption('free')
      await page.getByRole('button', { name: 'Change plan' }).click()
      const dialog = page.getByRole('dialog', { name: 'Change the plan to free?' })
      await expect.poll(() => dialog.isVisible()).toBe(true)
      expect(await page.evaluate("document.activeElement?.closest('dialog') != null")).toBe(true)
      // Escape cancels: the plan stays.
      await page.keyboard.press('Escape')
      await expect.poll(() => dialog.isVisible()).toBe(false)
      expect((await api<{ plan: string }>('/v1/org')).body.plan).toBe('pro')

      await page.getByRole('button', { name: 'Change plan' }).click()
      await expect.poll(() => dialog.isVisible()).toBe(true)
      await screenshot(page, 'org-02b-plan-dialog')
      expect(await seriousViolations(page)).toEqual([])
      await dialog.getByRole('button', { name: 'Change to free' }).click()
      await expect.poll(() => page.getByTestId('org-plan').textContent()).toBe('free')
      const org = await api<{ plan: string; max_plan: string; rate_limit: { limit: number } }>('/v1/org')
      expect(org.body).toMatchObject({ plan: 'free', max_plan: 'pro' })
      const said = await page.getByRole('status').filter({ hasText: 'The plan is now free' }).textContent()
      expect(said?.replace(/,/g, '')).toContain(`${org.body.rate_limit.limit} requests`)
      const log = await api<{
        data: Array<{ action: string; actor: string | null; details: { to?: string } }>
      }>('/v1/org/audit-log?limit=1')
      expect(log.body.data[0]).toMatchObject({ action: 'organization.plan_changed', details: { to: 'free' } })
      expect(log.body.data[0]?.actor).not.toBe('admin')
      expect(problems).toEqual([])
      await context.close()
    })

    it('creates a key and shows its secret once, with copy and "Use in the explorer"', async () => {
      const { demo } = shared()
      const { page, context, problems } = await signedInPage()
      await page.goto(`${demo.url}/console/keys`)
      await expect.poll(() => heading(page)).toBe('API keys')
      const before = await api<Array<{ id: string; name: string; prefix: string }>>('/v1/org/api-keys')
      await expect
        .poll(() => page.locator('[data-testid=keys-table] tbody tr').count())
        .toBe(before.body.length)
      for (const key of before.body) {
        expect(await page.locator(`tr[data-key-id="${key.id}"]`).textContent()).toContain(key.prefix)
      }

      const name = `ci-${Date.now().toString(36)}`
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByRole('button', { name: 'Create key' }).click()
      await expect.poll(() => page.getByTestId('new-secret').count()).toBe(1)
      const secret = (await page.getByTestId('new-secret').textContent()) ?? ''
      expect(secret).toMatch(KEY_PATTERN)
      expect(await dataRequest(secret)).toBe(200)
      const after =
        await api<Array<{ id: string; name: string; prefix: string; scopes: string[] }>>('/v1/org/api-keys')
      const made = after.body.find((key) => key.name === name)
      expect(made?.scopes).toEqual(['data:read'])
      expect(secret.startsWith(made?.prefix ?? '-')).toBe(true)
      await expect
        .poll(() => page.locator('[data-testid=keys-table] tbody tr').count())
        .toBe(after.body.length)
      expect(await page.locator(`tr[data-key-id="${made?.id}"]`).textContent()).toContain('Active')

      await page.getByRole('button', { name: `Copy key: ${secret}` }).click()
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
      await page.getByRole('button', { name: 'Use in the explorer' }).click()
      expect(await page.evaluate("sessionStorage.getItem('strata.console.api-key')")).toBe(secret)
      await screenshot(page, 'org-03-key-created')
      expect(await seriousViolations(page)).toEqual([])

      // Once: dismissed, then reloaded, the secret is nowhere on the page.
      await page.getByRole('button', { name: 'I have stored it' }).click()
      expect(await page.getByTestId('new-secret').count()).toBe(0)
      await page.reload()
      await expect.poll(() => page.locator(`tr[data-key-id="${made?.id}"]`).count()).toBe(1)
      expect(await page.content()).not.toContain(secret)
      journey = { ...started(), created: { name, secret, id: made?.id ?? '' } }
      expect(problems).toEqual([])
      await context.close()
    })

    it('rotates the key with the overlap chosen in the dialog; both keys work during it', async () => {
      const { demo } = shared()
      const created = started().created
      if (!created) throw new Error('no key was created')
      const { page, context, problems } = await signedInPage()
      await page.goto(`${demo.url}/console/keys`)
      await expect.poll(() => page.locator(`tr[data-key-id="${created.id}"]`).count()).toBe(1)
      await page.getByRole('button', { name: new RegExp(`^Rotate ${created.name} `) }).click()
      const dialog = page.getByRole('dialog', { name: `Rotate ${created.name}?` })
      await expect.poll(() => dialog.isVisible()).toBe(true)
      // Focus moved into the dialog.
      expect(await page.evaluate("document.activeElement?.closest('dialog') != null")).toBe(true)
      await dialog.getByLabel('How long the old key keeps working').selectOption('86400')
      await screenshot(page, 'org-04-rotate-dialog')
      expect(await seriousViolations(page)).toEqual([])
      const asked = Date.now()
      await dialog.getByRole('button', { name: 'Rotate key' }).click()
      await expect.poll(() => page.getByRole('heading', { name: 'The rotated key' }).count()).toBe(1)
      const secret = (await page.getByTestId('new-secret').textContent()) ?? ''
      expect(secret).toMatch(KEY_PATTERN)
      expect(secret).not.toBe(created.secret)
      // During the overlap both keys are answered.
      expect(await dataRequest(secret)).toBe(200)
      expect(await dataRequest(created.secret)).toBe(200)
      const keys =
        await api<Array<{ id: string; name: string; prefix: string; expires_at: string | null }>>(
          '/v1/org/api-keys',
        )
      const old = keys.body.find((key) => key.id === created.id)
      const fresh = keys.body.find((key) => key.name === created.name && key.id !== created.id)
      expect(secret.startsWith(fresh?.prefix ?? '-')).toBe(true)
      // The old key ends a day after the rotation (the API sets it; the page chose 86,400 s).
      const ends = Date.parse(old?.expires_at ?? '')
      expect(ends).toBeGreaterThanOrEqual(asked + 86_400_000 - 5_000)
      expect(ends).toBeLessThanOrEqual(Date.now() + 86_400_000 + 5_000)
      await expect.poll(() => page.locator(`tr[data-key-id="${fresh?.id}"]`).count()).toBe(1)
      expect(await page.getByRole('status').filter({ hasText: 'was rotated' }).textContent()).toContain(
        '1 day',
      )
      await screenshot(page, 'org-05-key-rotated')
      expect(await seriousViolations(page)).toEqual([])
      journey = { ...started(), rotated: { secret, id: fresh?.id ?? '' } }
      expect(problems).toEqual([])
      await context.close()
    })

    it('revokes a key through a dialog that names it and that Escape cancels, at 360 px wide', async () => {
      const { demo } = shared()
      const rotated = started().rotated
      const name = started().created?.name ?? ''
      if (!rotated) throw new Error('no key was rotated')
      const { page, context, problems } = await signedInPage({ width: 360 })
      await page.goto(`${demo.url}/console/keys`)
      await expect.poll(() => page.locator(`tr[data-key-id="${rotated.id}"]`).count()).toBe(1)
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      const revoke = page.locator(`tr[data-key-id="${rotated.id}"]`).getByRole('button', { name: /^Revoke / })
      await revoke.click()
      const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` })
      await expect.poll(() => dialog.isVisible()).toBe(true)
      expect(await dialog.textContent()).toContain(name)
      // Escape cancels: nothing is revoked.
      await page.keyboard.press('Escape')
      await expect.poll(() => dialog.isVisible()).toBe(false)
      expect(await dataRequest(rotated.secret)).toBe(200)

      await revoke.click()
      await expect.poll(() => dialog.isVisible()).toBe(true)
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      await screenshot(page, 'org-06-revoke-dialog-360')
      expect(await seriousViolations(page)).toEqual([])
      await dialog.getByRole('button', { name: 'Revoke key' }).click()
      await expect
        .poll(() => page.locator(`tr[data-key-id="${rotated.id}"]`).textContent())
        .toContain('Revoked')
      expect(await dataRequest(rotated.secret)).toBe(401)
      const keys = await api<Array<{ id: string; revoked: boolean }>>('/v1/org/api-keys')
      expect(keys.body.find((key) => key.id === rotated.id)?.revoked).toBe(true)
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      await screenshot(page, 'org-07-key-revoked-360')
      expect(await seriousViolations(page)).toEqual([])

      // The signup key is now the last active one (the rotated-out key in its overlap does not
      // count): the dialog asks for the explicit confirmation before revoking it.
      const listed = await api<Array<{ id: string; prefix: string }>>('/v1/org/api-keys')
      const first = listed.body.find((key) => started().signupKey.startsWith(key.prefix))
      expect(first).toBeDefined()
      await page
        .locator(`tr[data-key-id="${first?.id}"]`)
        .getByRole('button', { name: /^Revoke / })
        .click()
      const lastDialog = page.getByRole('dialog', { name: /^Revoke / })
      await expect.poll(() => lastDialog.isVisible()).toBe(true)
      const confirm = lastDialog.getByLabel(/last active key/)
      expect(await confirm.isChecked()).toBe(false)
      expect(await lastDialog.getByRole('button', { name: 'Revoke key' }).isDisabled()).toBe(true)
      await confirm.check()
      await lastDialog.getByRole('button', { name: 'Revoke key' }).click()
      await expect
        .poll(() => page.locator(`tr[data-key-id="${first?.id}"]`).textContent())
        .toContain('Revoked')
      expect(await dataRequest(started().signupKey)).toBe(401)
      expect(problems).toEqual([])
      await context.close()
    })

    it('shows the audit log as the API pages it, filtered by action and by days, and paged with the cursor', async () => {
      const { demo } = shared()
      interface AuditPage {
        data: Array<{ id: string; action: string; target: string | null }>
        meta: { next_cursor: string | null }
      }
      const all = await api<AuditPage>('/v1/org/audit-log?limit=100')
      const actions = all.body.data.map((event) => event.action)
      for (const action of ['organization.created', 'api_key.created', 'api_key.rotated', 'api_key.revoked'])
        expect(actions).toContain(action)
      const rotatedEvent = all.body.data.find((event) => event.action === 'api_key.rotated')
      expect(rotatedEvent?.target).toBe(started().created?.id)

      const { page, context, problems } = await signedInPage()
      await page.goto(`${demo.url}/console/audit-log`)
      await expect.poll(() => heading(page)).toBe('Audit log')
      const rows = page.locator('[data-testid=audit-table] tbody tr')
      const firstPage = all.body.data.slice(0, 25)
      await expect.poll(() => rows.count()).toBe(firstPage.length)
      const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id')))
      // The page may have loaded after this test's own login: compare with the API's page from the top.
      const fresh = await api<AuditPage>('/v1/org/audit-log?limit=25')
      expect(ids).toEqual(fresh.body.data.map((event) => event.id))
      await screenshot(page, 'org-08-audit-log')
      expect(await seriousViolations(page)).toEqual([])

      // Filters, applied by the API: the form's values go into the URL, the rows are the API's
      // filtered page.
      await page.getByLabel('Action').selectOption('api_key.created')
      await page.getByRole('button', { name: 'Apply' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('api_key.created')
      const created = await api<AuditPage>('/v1/org/audit-log?limit=25&action=api_key.created')
      expect(created.body.data.length).toBeGreaterThanOrEqual(2)
      await expect
        .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id'))))
        .toEqual(created.body.data.map((event) => event.id))
      for (const text of await rows.locator('td:nth-child(2)').allTextContents())
        expect(text).toBe('api_key.created')
      // A range of UTC days: today holds them all; a day long past holds none, said in words.
      const today = new Date().toISOString().slice(0, 10)
      await page.getByLabel('From (UTC day)').fill(today)
      await page.getByLabel('To (UTC day, included)').fill(today)
      await page.getByRole('button', { name: 'Apply' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(today)
      const todays = await api<AuditPage>(
        `/v1/org/audit-log?limit=25&action=api_key.created&since=${today}T00:00:00Z`,
      )
      await expect
        .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id'))))
        .toEqual(todays.body.data.map((event) => event.id))
      await page.goto(`${demo.url}/console/audit-log?from=2020-01-01&to=2020-01-31`)
      await expect
        .poll(() => page.locator('.empty').textContent())
        .toBe('No event of the organization matches this filter.')
      expect(await rows.count()).toBe(0)

      // Paging: two events a page, the next page by the API's cursor, and back to the first.
      await page.goto(`${demo.url}/console/audit-log?limit=2`)
      const first = await api<AuditPage>('/v1/org/audit-log?limit=2')
      await expect
        .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id'))))
        .toEqual(first.body.data.map((event) => event.id))
      expect(first.body.meta.next_cursor).toBeTruthy()
      await page.getByRole('link', { name: 'Next page' }).click()
      await expect
        .poll(() => new URL(page.url()).searchParams.get('cursor'))
        .toBe(first.body.meta.next_cursor)
      const second = await api<AuditPage>(
        `/v1/org/audit-log?limit=2&cursor=${encodeURIComponent(first.body.meta.next_cursor ?? '')}`,
      )
      await expect
        .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id'))))
        .toEqual(second.body.data.map((event) => event.id))
      await screenshot(page, 'org-09-audit-log-page-2')
      expect(await seriousViolations(page)).toEqual([])
      await page.getByRole('link', { name: 'First page' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get('cursor')).toBe(null)
      await expect
        .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event-id'))))
        .toEqual(first.body.data.map((event) => event.id))
      expect(problems).toEqual([])
      await context.close()
    })

    it('stays signed in across a reload, and logs out and in again through the pages', async () => {
      const { demo } = shared()
      const { email, password } = started()
      const { page, context, problems } = await signedInPage()
      await page.goto(`${demo.url}/console/keys`)
      await expect.poll(() => heading(page)).toBe('API keys')
      // The list is in before the reload, so the reload cuts no request of the page short.
      await expect.poll(() => page.locator('[data-testid=keys-table] tbody tr').count()).toBeGreaterThan(0)
      // A reload has no access token in memory: the stored refresh token gets a new one, silently.
      await page.reload()
      await expect.poll(() => heading(page)).toBe('API keys')
      await expect.poll(() => page.locator('[data-testid=keys-table] tbody tr').count()).toBeGreaterThan(0)

      await page.evaluate("localStorage.setItem('strata.console.signed-out', 'yes')")
      await page.getByRole('button', { name: 'Log out' }).click()
      await expect.poll(() => heading(page)).toBe('Log in')
      expect(await page.evaluate("localStorage.getItem('strata.console.refresh-token')")).toBe(null)
      expect(new URL(page.url()).searchParams.get('next')).toBe('/console/keys')
      await screenshot(page, 'org-10-logged-out')
      expect(await seriousViolations(page)).toEqual([])

      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await expect.poll(() => heading(page)).toBe('API keys')
      await expect.poll(() => page.locator('[data-testid=keys-table] tbody tr').count()).toBeGreaterThan(0)
      const log = await api<{ data: Array<{ action: string }> }>('/v1/org/audit-log?limit=5')
      const recent = log.body.data.map((event) => event.action)
      expect(recent).toContain('user.logout')
      expect(recent).toContain('user.login')
      expect(problems).toEqual([])
      await context.close()
    })
  })
}
