/**
 * The console's explorer pages in Chromium (registered by console.test.ts, which owns the server and
 * the browser): the address lookup, every demo account's positions against the API's own answer,
 * the value chart, choosing a ledger by number and by date, activities and a transaction. Every
 * expected string is formatted here, from the API's answer, by this file's own formatters.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ConsoleSuite } from './console.test.ts'
import { openPage, screenshot, seriousViolations } from './harness.ts'

// biome-ignore lint/suspicious/noExplicitAny: the answers are read as plain JSON here, on purpose untyped
type Json = any

/** expect.poll with room for a page on a busy machine (its default waits one second). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 })

const PROTOCOLS = ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol'] as const

/** Thousands separators and at most `maxFraction` fraction digits, trailing zeros dropped (truncated). */
function digits(value: string, maxFraction = 7): string {
  const negative = value.startsWith('-')
  const [whole = '', fraction = ''] = (negative ? value.slice(1) : value).split('.')
  let grouped = ''
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) grouped += ','
    grouped += whole[i]
  }
  let kept = fraction.slice(0, maxFraction)
  while (kept.endsWith('0')) kept = kept.slice(0, -1)
  return `${negative ? '-' : ''}${grouped}${kept ? `.${kept}` : ''}`
}

/** `$1,234.56`, cents truncated; unknown (null) is an em dash. */
function usd(value: string | null): string {
  if (value === null) return '—'
  const negative = value.startsWith('-')
  const [whole = '', fraction = ''] = (negative ? value.slice(1) : value).split('.')
  return `${negative ? '-' : ''}$${digits(whole)}.${`${fraction}00`.slice(0, 2)}`
}

/** A cell's text, with an unknown value's reason dropped (the reason's wording is the page's). */
function cell(text: string): string {
  const trimmed = text.trim()
  return trimmed.startsWith('—') ? '—' : trimmed
}

async function api(origin: string, key: string, path: string): Promise<Json> {
  const response = await fetch(`${origin}${path}`, { headers: { 'x-svc-token': key } })
  expect(response.status, path).toBe(200)
  return response.json()
}

/** Types the key into the page's key picker. */
async function pickKey(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key for data requests').fill(key)
  await page.getByRole('button', { name: 'Use key' }).click()
  await poll(() => page.locator('.key-picker').textContent()).toContain('Data requests use the key')
}

/** The number a card or cell shows, without its separators. */
async function shownNumber(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? ''
  return Number(text.replaceAll(',', ''))
}

/** The rows a protocol's section shows, as the cells that hold amounts and USD, sorted. */
async function shownRows(page: Page, protocol: string): Promise<string[]> {
  const rows = page.locator(`section[data-protocol="${protocol}"] [data-testid="position-row"]`)
  const cells = protocol === 'vaultprotocol' ? [2, 3, 4, 5] : [1, 2, 3]
  const shown: string[] = []
  for (const row of await rows.all()) {
    const texts = await row.locator('td').allInnerTexts()
    shown.push(cells.map((i) => cell(texts[i] ?? '')).join(' | '))
  }
  return shown.sort()
}

/** The same rows, from the API's section, formatted here. */
function expectedRows(protocol: string, section: Json, symbols: Record<string, string>): string[] {
  if (protocol === 'vaultprotocol') {
    return section.data.vaults
      .map((v: Json) =>
        [digits(v.collateral), usd(v.collateral_usd), digits(v.debt), usd(v.debt_usd)].join(' | '),
      )
      .sort()
  }
  return section.data.positions
    .map((p: Json) =>
      [
        p.asset === null
          ? 'unknown asset'
          : (symbols[p.asset] ?? `${p.asset.slice(0, 4)}…${p.asset.slice(-4)}`),
        p.amount === null ? '—' : digits(p.amount),
        usd(p.amount_usd),
      ].join(' | '),
    )
    .sort()
}

/** Checks every protocol's section of the page against the API's answer. */
async function expectPositions(page: Page, answer: Json): Promise<void> {
  const symbols: Record<string, string> = {}
  for (const [contract, asset] of Object.entries(answer.enrichment.assets as Record<string, Json>)) {
    symbols[contract] = asset.symbol
  }
  for (const protocol of PROTOCOLS) {
    const section = answer.data.protocols[protocol]
    const shown = page.locator(`section[data-protocol="${protocol}"]`)
    await poll(() => shown.getByTestId('as-of').textContent()).toBe(
      section.as_of_ledger === null ? '—' : digits(String(section.as_of_ledger)),
    )
    expect(await shownRows(page, protocol), protocol).toEqual(expectedRows(protocol, section, symbols))
    const held = (section.data.vaults ?? section.data.positions).length
    if (held > 0) {
      expect(cell(await shown.getByTestId('net-usd').innerText())).toBe(usd(section.totals.net_usd))
    }
    if (protocol === 'lendingprotocol') {
      const factors = await shown.getByTestId('health-factor').allInnerTexts()
      expect(factors.map(cell)).toEqual(
        section.data.groups.map((g: Json) => (g.health_factor === null ? '—' : digits(g.health_factor, 4))),
      )
    }
  }
  expect(cell(await page.getByTestId('total-net-usd').innerText())).toBe(usd(answer.data.totals.net_usd))
}

async function finish(page: Page, problems: string[], name: string): Promise<void> {
  await screenshot(page, name)
  expect(await seriousViolations(page)).toEqual([])
  expect(problems).toEqual([])
}

export function describeExplorerPages(shared: () => ConsoleSuite): void {
  describe('explorer pages', () => {
    it('looks up an address only when it is one, and lists the demo accounts once a key is picked', async () => {
      const { demo, browser } = shared()
      const { page, context, problems } = await openPage(browser, demo.url)
      await page.goto(`${demo.url}/console/explorer`)
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Explorer')
      // No key yet: nothing is asked of the data endpoints, the examples are not listed.
      expect(await page.getByTestId('demo-account').count()).toBe(0)
      await pickKey(page, demo.demoKey)
      const listed = (await api(demo.url, demo.demoKey, '/v1/demo/accounts')).data as Json[]
      await poll(async () =>
        (await page.getByTestId('demo-account').allInnerTexts()).map((t) => t.split(/\s/)[0]),
      ).toEqual(listed.map((a) => a.example_of))

      const field = page.getByLabel('Account or contract address')
      await field.fill('GABC')
      await page.getByRole('button', { name: 'Look up' }).click()
      await poll(() => page.locator('#address-error').textContent()).toBe(
        'An address has 56 characters; this one has 4.',
      )
      const good = demo.accounts.several
      const typo = `${good.slice(0, 55)}${good.endsWith('A') ? 'B' : 'A'}`
      await field.fill(typo)
      await page.getByRole('button', { name: 'Look up' }).click()
      await poll(() => page.locator('#address-error').textContent()).toContain('checksum does not match')
      expect(new URL(page.url()).pathname).toBe('/console/explorer')
      await screenshot(page, 'explorer-01-lookup-error')

      await field.fill(good)
      await page.getByRole('button', { name: 'Look up' }).click()
      await poll(() => new URL(page.url()).pathname).toBe(`/console/accounts/${good}`)
      await page.getByTestId('last-indexed').waitFor()
      // Back through the console's own navigation once the account's chart is drawn.
      await page.locator('[data-testid="value-chart"] figure canvas').first().waitFor({ timeout: 30_000 })
      await page.getByRole('link', { name: 'Explorer', exact: true }).click()
      await page.getByTestId('demo-account').first().waitFor()
      await finish(page, problems, 'explorer-02-demo-accounts')
      await context.close()
    }, 60_000)

    for (const example of [
      'vaultprotocol',
      'lendingprotocol',
      'ammprotocol',
      'yieldprotocol',
      'several',
    ] as const) {
      it(`shows the ${example} example account's latest positions as the API answers them`, async () => {
        const { demo, browser } = shared()
        const address = demo.accounts[example]
        const { page, context, problems } = await openPage(browser, demo.url)
        await page.goto(`${demo.url}/console/accounts/${address}`)
        await pickKey(page, demo.demoKey)
        await page.getByTestId('last-indexed').waitFor()
        // The demo's head moves: the page's answer is the snapshot surface at the head it names.
        const head = await shownNumber(page, 'last-indexed')
        const answer = await api(
          demo.url,
          demo.demoKey,
          `/v1/users/${address}/positions?as_of_ledger=${head}`,
        )
        expect(await shownNumber(page, 'as-of-ledger')).toBe(answer.meta.as_of_ledger)
        await expectPositions(page, answer)
        if (example !== 'several') {
          const section = answer.data.protocols[example]
          expect((section.data.vaults ?? section.data.positions).length).toBeGreaterThan(0)
        }
        // The value chart is drawn once every sample is valued.
        await page.locator('[data-testid="value-chart"] figure canvas').first().waitFor({ timeout: 30_000 })
        await page.getByTestId('activity-row').first().waitFor()
        await finish(page, problems, `explorer-03-account-${example}`)
        await context.close()
      }, 90_000)
    }

    it('draws the value chart from the sampled ledgers, one series per protocol held at one of them', async () => {
      const { demo, browser } = shared()
      const address = demo.accounts.several
      const { page, context, problems } = await openPage(browser, demo.url)
      await page.goto(`${demo.url}/console/accounts/${address}`)
      await pickKey(page, demo.demoKey)
      await page.locator('[data-testid="value-chart"] figure canvas').first().waitFor({ timeout: 45_000 })
      const listed = ((await page.getByTestId('sampled-ledgers').textContent()) ?? '')
        .split(', ')
        .map((l) => Number(l.replaceAll(',', '')))
      const meta = (await api(demo.url, demo.demoKey, `/v1/users/${address}/positions?as_of_ledger=1000`))
        .meta
      expect(listed.length).toBeGreaterThanOrEqual(24)
      expect(listed.length).toBeLessThanOrEqual(40)
      expect(listed[0]).toBe(meta.indexed_from_ledger)
      expect(listed.every((l, i) => i === 0 || l > (listed[i - 1] as number))).toBe(true)
      // The last sample is the head the page read, at or below the head now.
      expect(listed.at(-1)).toBeLessThanOrEqual(meta.last_indexed_ledger)
      const held = new Set<string>()
      for (const ledger of listed) {
        const answer = await api(demo.url, demo.demoKey, `/v1/users/${address}/positions/at/${ledger}`)
        for (const protocol of PROTOCOLS) {
          const section = answer.data.protocols[protocol]
          if ((section.data.vaults ?? section.data.positions).length > 0) held.add(protocol)
        }
      }
      const legend = await page
        .locator('[data-testid="value-chart"] .u-legend .u-series .u-label')
        .allInnerTexts()
      expect(legend.slice(1).sort()).toEqual([...held].sort())
      expect(await page.locator('[data-testid="value-chart"] figcaption').textContent()).toContain(
        `at ${listed.length} ledgers`,
      )
      await finish(page, problems, 'explorer-04-value-chart')
      await context.close()
    }, 90_000)

    it('moves to a ledger typed in, values every protocol there as /at does, and opens a transaction from an activity', async () => {
      const { demo, browser } = shared()
      const address = demo.accounts.several
      const { page, context, problems } = await openPage(browser, demo.url)
      await page.goto(`${demo.url}/console/accounts/${address}`)
      await pickKey(page, demo.demoKey)
      await page.getByTestId('last-indexed').waitFor()
      const ledger = 2999
      await page.getByLabel('Ledger', { exact: true }).fill(String(ledger))
      await page.getByRole('button', { name: 'Show at ledger' }).click()
      await poll(() => new URL(page.url()).pathname).toBe(`/console/accounts/${address}/at/${ledger}`)
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
        `Account at ledger ${digits(String(ledger))}`,
      )
      const answer = await api(demo.url, demo.demoKey, `/v1/users/${address}/positions/at/${ledger}`)
      await poll(() => page.getByTestId('valuation-ledger').textContent()).toBe(digits(String(ledger)))
      expect(answer.meta.valuation_ledger).toBe(ledger)
      await expectPositions(page, answer)
      // The value chart samples the ledger shown too, and marks it.
      await poll(() => page.locator('[data-testid="value-chart"] figure').getAttribute('data-marker')).toBe(
        String(ledger),
      )
      expect((await page.getByTestId('sampled-ledgers').textContent())?.split(', ')).toContain(
        digits(String(ledger)),
      )
      expect(await page.getByTestId('chart-marker').textContent()).toContain(
        `The dashed line marks ledger ${digits(String(ledger))}`,
      )

      // The activities up to that ledger, newest first, each linking to its transaction.
      const activities = (
        await api(demo.url, demo.demoKey, `/v1/users/${address}/activities?limit=20&to_ledger=${ledger}`)
      ).data.activities as Json[]
      expect(activities.length).toBeGreaterThan(0)
      const rows = page.getByTestId('activity-row')
      await poll(() => rows.count()).toBe(activities.length)
      const links = await rows
        .getByRole('link', { name: /^Transaction/ })
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')))
      expect(links).toEqual(activities.map((a) => `/console/transactions/${a.tx_hash}`))
      const firstRow = await rows.first().innerText()
      for (const leg of activities[0].legs)
        if (leg.amount !== null) expect(firstRow).toContain(digits(leg.amount))
      expect(firstRow).toContain(usd(activities[0].amount_usd))
      await finish(page, problems, 'explorer-05-account-at-ledger')

      // The transaction of the newest activity.
      const hash = activities[0].tx_hash as string
      await rows
        .first()
        .getByRole('link', { name: /^Transaction/ })
        .click()
      await poll(() => new URL(page.url()).pathname).toBe(`/console/transactions/${hash}`)
      const tx = (await api(demo.url, demo.demoKey, `/v1/transactions/${hash}`)).data
      await poll(() => page.getByTestId('tx-ledger').textContent()).toBe(digits(String(tx.ledger)))
      const actionRows = page.getByTestId('activity-row')
      expect(await actionRows.count()).toBe(tx.actions.length)
      for (const [i, action] of (tx.actions as Json[]).entries()) {
        const text = await actionRows.nth(i).innerText()
        expect(text).toContain(action.type.replaceAll('_', ' '))
        for (const leg of action.legs) if (leg.amount !== null) expect(text).toContain(digits(leg.amount))
      }
      await finish(page, problems, 'explorer-06-transaction')
      const account = tx.actions[0].account as string
      await actionRows.first().locator(`a[href="/console/accounts/${account}"]`).click()
      await poll(() => new URL(page.url()).pathname).toBe(`/console/accounts/${account}`)
      await page.getByTestId('last-indexed').waitFor()
      expect(problems).toEqual([])
      await context.close()
    }, 90_000)

    it('moves to the ledger closed at a date and time chosen', async () => {
      const { demo, browser } = shared()
      const address = demo.accounts.several
      const activities = (await api(demo.url, demo.demoKey, `/v1/users/${address}/activities?limit=5`)).data
        .activities as Json[]
      // An activity's ledger closed at its closed_at: the ledger at that time is that ledger.
      const known = activities.find((a) => a.closed_at !== null)
      expect(known).toBeDefined()
      const { page, context, problems } = await openPage(browser, demo.url)
      await page.goto(`${demo.url}/console/accounts/${address}`)
      await pickKey(page, demo.demoKey)
      await page.getByTestId('last-indexed').waitFor()
      // datetime-local takes the browser's own time zone: the instant written in it.
      const local = await page.evaluate((iso) => {
        const d = new Date(iso)
        const pad = (n: number) => String(n).padStart(2, '0')
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
      }, known.closed_at as string)
      await page.getByLabel('Date and time (your time zone)').fill(local)
      await page.getByRole('button', { name: 'Show at that time' }).click()
      await poll(() => new URL(page.url()).pathname).toBe(`/console/accounts/${address}/at/${known.ledger}`)
      const answer = await api(demo.url, demo.demoKey, `/v1/users/${address}/positions/at/${known.ledger}`)
      await poll(() => page.getByTestId('valuation-ledger').textContent()).toBe(digits(String(known.ledger)))
      await expectPositions(page, answer)
      // The time chosen stays: in the URL (so a shared link says it), in its field, and in words.
      expect(new Date(new URL(page.url()).searchParams.get('time')!).getTime()).toBe(
        new Date(known.closed_at as string).getTime(),
      )
      expect(await page.getByLabel('Date and time (your time zone)').inputValue()).toBe(local)
      expect(await page.getByTestId('chosen-time').textContent()).toMatch(
        new RegExp(`^Ledger ${digits(String(known.ledger))} is the last indexed ledger closed at or before `),
      )
      await page.reload()
      await page.getByTestId('valuation-ledger').waitFor()
      expect(await page.getByLabel('Date and time (your time zone)').inputValue()).toBe(local)
      await finish(page, problems, 'explorer-07-account-at-time')
      await context.close()
    }, 60_000)

    it('says in words what is wrong with a shared URL, and shows the API own message for an unknown transaction', async () => {
      const { demo, browser } = shared()
      const { page, context, problems } = await openPage(browser, demo.url)
      // Refused before any request: a malformed address, a ledger that is not a number.
      await page.goto(`${demo.url}/console/accounts/GABC`)
      await pickKey(page, demo.demoKey)
      await poll(() => page.getByRole('alert').textContent()).toContain(
        'An address has 56 characters; this one has 4.',
      )
      await page.goto(`${demo.url}/console/accounts/${demo.accounts.several}/at/yesterday`)
      await poll(() => page.getByRole('alert').textContent()).toContain('"yesterday" is not a ledger number')
      expect(await page.getByTestId('as-of-ledger').count()).toBe(0)
      await screenshot(page, 'explorer-09-bad-ledger')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])

      // A hash nothing indexed holds: the API answers 404 and the page says what it said.
      const unknown = '0'.repeat(64)
      const refused = await fetch(`${demo.url}/v1/transactions/${unknown}`, {
        headers: { 'x-svc-token': demo.demoKey },
      })
      expect(refused.status).toBe(404)
      const message = ((await refused.json()) as Json).error.message as string
      await page.goto(`${demo.url}/console/transactions/${unknown}`)
      await poll(() => page.getByRole('alert').textContent()).toContain(message)
      await screenshot(page, 'explorer-10-unknown-transaction')
      expect(await seriousViolations(page)).toEqual([])
      // The one refused request, and Chromium's console line about it: nothing else.
      expect(problems.length).toBeGreaterThan(0)
      expect(problems.filter((p) => !p.includes('404'))).toEqual([])
      await context.close()
    }, 60_000)

    it('fits an account at 360 px wide in the dark scheme', async () => {
      const { demo, browser } = shared()
      const address = demo.accounts.lendingprotocol
      const { page, context, problems } = await openPage(browser, demo.url, {
        width: 360,
        colorScheme: 'dark',
      })
      await page.goto(`${demo.url}/console/accounts/${address}/at/2999`)
      await pickKey(page, demo.demoKey)
      await page.getByTestId('valuation-ledger').waitFor()
      await page.locator('[data-testid="value-chart"] figure canvas').first().waitFor({ timeout: 30_000 })
      await page.getByTestId('activity-row').first().waitFor()
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      expect(await page.evaluate("window.matchMedia('(prefers-color-scheme: dark)').matches")).toBe(true)
      await finish(page, problems, 'explorer-08-account-360-dark')
      await context.close()
    }, 60_000)
  })
}
