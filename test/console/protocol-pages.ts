/**
 * The console's protocol pages in Chromium (registered by console.test.ts, which owns the server and
 * the browser): the protocols list, each protocol's page (TVL chart, pools) and one pool page per
 * protocol that has pools. What a page shows is compared with the API's own answers, asked here with
 * the demo key and formatted by this file's own helpers (not the console's). Pages that show a
 * ledger's figures are opened pinned (`?ledger=N`), since the demo's network keeps closing ledgers.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ConsoleSuite } from './console.test.ts'
import { openPage, screenshot, seriousViolations } from './harness.ts'

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field
type Json = any

/** Groups an integer's digits by thousands, by BigInt (independent of the console's formatter). */
function grouped(whole: string | number): string {
  return BigInt(whole).toLocaleString('en-US')
}

/** A decimal string as the console shows an amount: grouped, at most 7 decimals, trailing zeros dropped. */
function amount(value: string | null): string {
  if (value === null) return '—'
  const [whole = '0', fraction = ''] = value.split('.')
  const kept = fraction.slice(0, 7).replace(/0+$/, '')
  return `${grouped(whole)}${kept ? `.${kept}` : ''}`
}

/** A USD decimal string as `$1,234.56`, cents truncated. */
function usd(value: string | null): string {
  if (value === null) return '—'
  const [whole = '0', fraction = ''] = value.split('.')
  return `$${grouped(whole)}.${fraction.padEnd(2, '0').slice(0, 2)}`
}

/** A ratio string as a percentage with two decimals, truncated: by BigInt over the scaled ratio. */
function percent(ratio: string | null): string {
  if (ratio === null) return '—'
  const [whole = '0', fraction = ''] = ratio.split('.')
  const scaled = BigInt(`${whole}${fraction}`)
  const hundredths = (scaled * 10_000n) / 10n ** BigInt(fraction.length)
  return `${grouped((hundredths / 100n).toString())}.${(hundredths % 100n).toString().padStart(2, '0')}%`
}

function short(address: string): string {
  return `${address.slice(0, 4)}…${address.slice(-4)}`
}

async function api(suite: ConsoleSuite, path: string): Promise<Json> {
  const response = await fetch(`${suite.demo.url}${path}`, { headers: { 'x-svc-token': suite.demo.demoKey } })
  expect(response.status, path).toBe(200)
  return response.json()
}

/** Every protocol, following the cursor. */
async function allProtocols(suite: ConsoleSuite): Promise<Json[]> {
  const protocols: Json[] = []
  let cursor: string | null = null
  do {
    const page: Json = await api(
      suite,
      `/v1/protocols${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    protocols.push(...page.data)
    cursor = page.meta.next_cursor
  } while (cursor)
  return protocols
}

/** Pastes the demo key into the page's key picker, as a person would. */
async function pickKey(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key for data requests').fill(key)
  await page.getByRole('button', { name: 'Use key' }).click()
  await expect.poll(() => page.locator('.key-picker').textContent()).toContain('Data requests use the key')
}

/**
 * How many pixels of the page's first chart canvas are close to the first series' colour (the
 * theme's --chart-1): the line uPlot drew. Evaluated as a string (this file is compiled without DOM types).
 */
async function seriesPixels(page: Page): Promise<number> {
  return (await page.evaluate(`(() => {
    const canvas = document.querySelector('figure.chart canvas')
    if (!canvas) return 0
    const probe = document.createElement('span')
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--chart-1')
    document.body.append(probe)
    const [r, g, b] = (getComputedStyle(probe).color.match(/\\d+/g) || []).map(Number)
    probe.remove()
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
    let count = 0
    for (let i = 0; i < pixels.length; i += 4) {
      if (Math.abs(pixels[i] - r) < 40 && Math.abs(pixels[i + 1] - g) < 40 &&
          Math.abs(pixels[i + 2] - b) < 40 && pixels[i + 3] > 128) count++
    }
    return count
  })()`)) as number
}

/** The pools the API lists for a protocol, in its order. */
function poolsOf(protocol: string, reserves: Json): string[] {
  if (protocol === 'lendingprotocol') {
    return [...new Set<string>(reserves.data.reserves.map((r: Json) => r.contract_address))]
  }
  if (protocol === 'ammprotocol') return reserves.data.pairs.map((p: Json) => p.contract_address)
  return reserves.data.vaults.map((v: Json) => v.contract_address)
}

export function describeProtocolPages(shared: () => ConsoleSuite): void {
  describe('protocol pages', () => {
    it('lists every protocol with its kind, indexed range and contracts, as the API does', async () => {
      const suite = shared()
      const before = await allProtocols(suite)
      const { page, context, problems } = await openPage(suite.browser, suite.demo.url)
      await page.goto(`${suite.demo.url}/console/protocols`)
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Protocols')
      // No data request is made before a key is picked.
      expect(await page.locator('.protocol-section').count()).toBe(0)
      await pickKey(page, suite.demo.demoKey)
      await expect
        .poll(() => page.locator('.protocol-section').count(), { timeout: 15_000 })
        .toBe(before.length)
      const after = await allProtocols(suite)

      for (const [i, protocol] of before.entries()) {
        const section = page.locator(`.protocol-section[data-protocol="${protocol.name}"]`)
        expect(await section.getByRole('heading', { level: 2 }).textContent()).toBe(protocol.name)
        expect(await section.locator('.facts').textContent()).toContain(protocol.kind)
        // The indexed range: its start is fixed; its end moves with the head, so it lies between
        // what the API said before the page loaded and after.
        const range = (await section.locator('.indexed-range').textContent()) ?? ''
        const match = /^Ledgers ([\d,]+) to ([\d,]+)$/.exec(range)
        expect(match, range).not.toBeNull()
        expect(match?.[1]).toBe(grouped(protocol.indexed_from_ledger))
        const to = Number(match?.[2]?.replaceAll(',', ''))
        expect(to).toBeGreaterThanOrEqual(protocol.indexed_to_ledger)
        expect(to).toBeLessThanOrEqual(after[i].indexed_to_ledger)

        const rows = section.locator('tbody tr')
        expect(await rows.count()).toBe(protocol.contracts.length)
        for (const [j, contract] of protocol.contracts.entries()) {
          const cells = rows.nth(j).locator('td')
          expect(await cells.nth(0).textContent()).toBe(contract.name)
          expect(await cells.nth(1).locator('code').textContent()).toBe(short(contract.contract_address))
          expect(await cells.nth(1).locator('code').getAttribute('title')).toBe(contract.contract_address)
          expect(await cells.nth(3).textContent()).toBe(contract.version)
          expect(await cells.nth(4).textContent()).toBe(contract.status)
          expect(await cells.nth(5).textContent()).toBe(
            contract.start_ledger === null ? '—' : grouped(contract.start_ledger),
          )
          expect(await cells.nth(6).textContent()).toMatch(
            contract.history_complete ? /^Complete$/ : /^Partial/,
          )
        }
        expect(
          await section
            .getByRole('link', { name: `Open ${protocol.name}: TVL and pools` })
            .getAttribute('href'),
        ).toBe(`/console/protocols/${protocol.name}`)
      }
      await screenshot(page, 'protocols-list')
      expect(await seriousViolations(page)).toEqual([])

      // A protocol the API does not have is said so, with no request made for it.
      await page.goto(`${suite.demo.url}/console/protocols/nosuchprotocol`)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Protocol not found')
      expect(await page.locator('main').textContent()).toContain('No protocol is named “nosuchprotocol”')
      expect(problems).toEqual([])
      await context.close()
    }, 60_000)

    it("shows each protocol's TVL at a pinned ledger, its TVL chart and its pools as the API lists them", async () => {
      const suite = shared()
      const protocols = await allProtocols(suite)
      const { page, context, problems } = await openPage(suite.browser, suite.demo.url)
      await page.goto(`${suite.demo.url}/console/protocols`)
      await pickKey(page, suite.demo.demoKey)

      for (const protocol of protocols) {
        const ledger = protocol.indexed_to_ledger - 100
        const tvl = await api(suite, `/v1/protocols/${protocol.name}/tvl?as_of_ledger=${ledger}`)
        // Follow the list's link, as a person would, then pin the ledger in the URL.
        await page.goto(`${suite.demo.url}/console/protocols`)
        await page.getByRole('link', { name: `Open ${protocol.name}: TVL and pools` }).click()
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(protocol.name)
        if (protocol.name === protocols[0].name) {
          // A ledger that is not a number is refused in words, before any request.
          await page.getByLabel('Ledger', { exact: true }).fill('soon')
          await page.getByRole('button', { name: 'Show' }).click()
          expect(await page.locator('#ledger-pin-help').textContent()).toBe(
            'A ledger is a whole number, such as 2999.',
          )
          expect(new URL(page.url()).search).toBe('')
        }
        await page.getByLabel('Ledger', { exact: true }).fill(String(ledger))
        await page.getByRole('button', { name: 'Show' }).click()
        await expect.poll(() => new URL(page.url()).search).toBe(`?ledger=${ledger}`)

        await expect
          .poll(() => page.getByTestId('tvl-usd').textContent(), { timeout: 15_000 })
          .toBe(usd(tvl.data.tvl_usd))
        expect(await page.getByTestId('borrowed-usd').textContent()).toBe(usd(tvl.data.borrowed_usd))
        // The chart: drawn, titled, with the total's line in the first series colour.
        const chart = page.getByRole('img', {
          name: `${protocol.name} TVL in USD by ledger, one point per hour`,
        })
        await expect.poll(() => chart.locator('canvas').count(), { timeout: 15_000 }).toBe(1)
        await expect.poll(() => seriesPixels(page), { timeout: 10_000 }).toBeGreaterThan(30)

        if (protocol.name === 'vaultprotocol') {
          expect(await page.locator('#pools-heading + .empty').textContent()).toContain('has no pools')
        } else {
          const reserves = await api(suite, `/v1/protocols/${protocol.name}/reserves?as_of_ledger=${ledger}`)
          const expected = poolsOf(protocol.name, reserves)
          await expect
            .poll(
              () =>
                page
                  .locator('tr[data-pool]')
                  .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-pool'))),
              {
                timeout: 15_000,
              },
            )
            .toEqual(expected)
          for (const address of expected) {
            const name = reserves.enrichment.contracts[address]?.name
            const link = page.locator(`tr[data-pool="${address}"] a`).first()
            expect(await link.textContent()).toBe(name)
            expect(await link.getAttribute('href')).toBe(
              `/console/protocols/${protocol.name}/pools/${address}?ledger=${ledger}`,
            )
          }
        }
        if (protocol.name === 'lendingprotocol') {
          // By keyboard: a pool's link takes focus and Enter opens the pool's page, at the same ledger.
          const first = page.locator('tr[data-pool] a').first()
          const name = await first.textContent()
          await first.focus()
          await page.keyboard.press('Enter')
          await expect
            .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
            .toBe(name)
          expect(new URL(page.url()).search).toBe(`?ledger=${ledger}`)
          await page.goBack()
          await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(protocol.name)
        }
        await screenshot(page, `protocol-${protocol.name}`)
        expect(await seriousViolations(page)).toEqual([])
      }
      expect(problems).toEqual([])
      await context.close()
    }, 120_000)

    it('shows a Blend pool at a pinned ledger: amounts, USD, utilization, rates and APY as the API gives them', async () => {
      const suite = shared()
      const [lending] = (await allProtocols(suite)).filter((p) => p.name === 'lendingprotocol')
      const ledger = lending.indexed_to_ledger - 50
      const reserves = await api(suite, `/v1/protocols/lendingprotocol/reserves?as_of_ledger=${ledger}`)
      const pool = reserves.data.reserves[0].contract_address
      const answer = await api(suite, `/v1/protocols/lendingprotocol/pools/${pool}?as_of_ledger=${ledger}`)
      const { page, context, problems } = await openPage(suite.browser, suite.demo.url)
      await page.goto(`${suite.demo.url}/console/protocols/lendingprotocol/pools/${pool}?ledger=${ledger}`)
      await pickKey(page, suite.demo.demoKey)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe(answer.data.name)
      expect(await page.getByTestId('pool-supplied-usd').textContent()).toBe(usd(answer.data.supplied_usd))
      expect(await page.getByTestId('pool-borrowed-usd').textContent()).toBe(usd(answer.data.borrowed_usd))
      for (const reserve of answer.data.reserves) {
        const cells = page.locator(`[data-testid="reserves"] tr[data-asset="${reserve.asset}"] td`)
        expect(await cells.nth(1).textContent()).toBe(amount(reserve.supplied))
        expect(await cells.nth(2).textContent()).toBe(usd(reserve.supplied_usd))
        expect(await cells.nth(3).textContent()).toBe(amount(reserve.borrowed))
        expect(await cells.nth(4).textContent()).toBe(usd(reserve.borrowed_usd))
        expect(await cells.nth(5).textContent()).toBe(percent(reserve.utilization))
        const rates = page.locator(`[data-testid="rates"] tr[data-asset="${reserve.asset}"] td`)
        expect(await rates.nth(0).textContent()).toBe(percent(reserve.supply_apr))
        expect(await rates.nth(1).textContent()).toBe(percent(reserve.supply_apy))
        expect(await rates.nth(2).textContent()).toBe(percent(reserve.borrow_apr))
        expect(await rates.nth(3).textContent()).toBe(percent(reserve.borrow_apy))
        // An unknown figure is a dash with the reason in words, the API's code in its title.
        if (reserve.supply_emission_apr === null) {
          expect(await rates.nth(4).textContent()).toMatch(/^— \(.+\)$/)
          expect(await rates.nth(4).locator('span').getAttribute('title')).toBe(
            reserve.supply_emission_apr_unavailable_reason,
          )
        } else expect(await rates.nth(4).textContent()).toBe(percent(reserve.supply_emission_apr))
      }
      // The chart samples the pool over the indexed range, and says so.
      await expect.poll(() => page.locator('figure.chart canvas').count(), { timeout: 20_000 }).toBe(1)
      expect(await page.getByTestId('pool-chart-note').textContent()).toContain(
        `over ledgers ${grouped(answer.meta.indexed_from_ledger)} to ${grouped(ledger)}`,
      )
      await expect.poll(() => seriesPixels(page), { timeout: 10_000 }).toBeGreaterThan(30)
      await page.locator('#pool-chart-heading').scrollIntoViewIfNeeded()
      await screenshot(page, 'pool-lending')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    }, 60_000)

    it('shows a Soroswap pair at 360 px wide without the page scrolling sideways', async () => {
      const suite = shared()
      const [amm] = (await allProtocols(suite)).filter((p) => p.name === 'ammprotocol')
      const ledger = amm.indexed_to_ledger - 50
      const pairs = await api(suite, `/v1/protocols/ammprotocol/reserves?as_of_ledger=${ledger}`)
      const pool = pairs.data.pairs[0].contract_address
      const answer = await api(suite, `/v1/protocols/ammprotocol/pools/${pool}?as_of_ledger=${ledger}`)
      const { page, context, problems } = await openPage(suite.browser, suite.demo.url, {
        width: 360,
        height: 780,
      })
      await page.goto(`${suite.demo.url}/console/protocols/ammprotocol/pools/${pool}?ledger=${ledger}`)
      await pickKey(page, suite.demo.demoKey)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe(answer.enrichment.contracts[pool].name)
      expect(await page.getByTestId('pool-tvl-usd').textContent()).toBe(usd(answer.data.tvl_usd))
      const row0 = page.locator(`[data-testid="reserves"] tr[data-asset="${answer.data.token_0}"] td`)
      const row1 = page.locator(`[data-testid="reserves"] tr[data-asset="${answer.data.token_1}"] td`)
      expect(await row0.nth(1).textContent()).toBe(amount(answer.data.reserve_0))
      expect(await row1.nth(1).textContent()).toBe(amount(answer.data.reserve_1))
      const symbol1 = answer.enrichment.assets[answer.data.token_1].symbol
      expect(await row0.nth(2).textContent()).toBe(`${amount(answer.data.price_0_in_1)} ${symbol1}`)
      await expect.poll(() => page.locator('figure.chart canvas').count(), { timeout: 20_000 }).toBe(1)
      await expect.poll(() => seriesPixels(page), { timeout: 10_000 }).toBeGreaterThan(30)
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360)
      await screenshot(page, 'pool-amm-360')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    }, 60_000)

    it('shows a DeFindex vault in the dark theme: shares, managed funds and APY as the API gives them', async () => {
      const suite = shared()
      const [yieldProtocol] = (await allProtocols(suite)).filter((p) => p.name === 'yieldprotocol')
      const ledger = yieldProtocol.indexed_to_ledger - 50
      const vaults = await api(suite, `/v1/protocols/yieldprotocol/reserves?as_of_ledger=${ledger}`)
      const pool = vaults.data.vaults[0].contract_address
      const answer = await api(suite, `/v1/protocols/yieldprotocol/pools/${pool}?as_of_ledger=${ledger}`)
      const { page, context, problems } = await openPage(suite.browser, suite.demo.url, {
        colorScheme: 'dark',
      })
      await page.goto(`${suite.demo.url}/console/protocols/yieldprotocol/pools/${pool}?ledger=${ledger}`)
      await pickKey(page, suite.demo.demoKey)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe(answer.data.name)
      expect(await page.getByTestId('pool-total-supply').textContent()).toBe(amount(answer.data.total_supply))
      for (const asset of answer.data.assets) {
        const cells = page.locator(`[data-testid="reserves"] tr[data-asset="${asset.asset}"] td`)
        expect(await cells.nth(1).textContent()).toBe(amount(asset.idle))
        expect(await cells.nth(2).textContent()).toBe(amount(asset.invested))
        expect(await cells.nth(3).textContent()).toBe(amount(asset.total_managed_funds))
        if (asset.apy_7d.apy === null) {
          expect(await cells.nth(5).textContent()).toMatch(/^— \(.+\)$/)
          expect(await cells.nth(5).locator('span').getAttribute('title')).toBe(
            asset.apy_7d.unavailable_reason,
          )
        } else expect(await cells.nth(5).textContent()).toBe(percent(asset.apy_7d.apy))
      }
      // The dark theme is in force: the page's background is the dark one.
      expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(17, 19, 24)')
      await expect.poll(() => page.locator('figure.chart canvas').count(), { timeout: 20_000 }).toBe(1)
      await expect.poll(() => seriesPixels(page), { timeout: 10_000 }).toBeGreaterThan(30)
      await screenshot(page, 'pool-yield-dark')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    }, 60_000)
  })
}
