/**
 * What the console's browser tests share: one real `strata serve --demo` (its own SQLite store and
 * devnet), Debian's Chromium driven by playwright-core (never a downloaded browser), and the checks
 * every page passes: no console error, no failed request, no request to another host, no policy
 * violation, and no serious or critical axe-core violation.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { type ServerProcess, startServerProcess } from '../support/process.ts'

export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]

/** Where each step's screenshot goes (kept out of git: test/console/screenshots/ is ignored). */
export const SCREENSHOTS = new URL('./screenshots/', import.meta.url).pathname

export interface DemoServer {
  url: string
  /** The demo organization's key the banner prints. */
  demoKey: string
  /** The banner's accounts: one per protocol and one holding several. */
  accounts: Record<'vaultprotocol' | 'lendingprotocol' | 'ammprotocol' | 'yieldprotocol' | 'several', string>
  server: ServerProcess
}

/** Starts `strata serve --demo` on a free port and reads its banner. */
export async function startDemo(): Promise<DemoServer> {
  const server = await startServerProcess(
    ['serve', '--demo'],
    { PORT: '0', RATE_LIMIT_PER_MINUTE: '100000', STRATA_TEST_DB: '' },
    120_000,
  )
  // The banner comes after the listening line: wait for its last part.
  const deadline = Date.now() + 30_000
  while (!/What it held at ledger/.test(server.output()) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
  }
  const output = server.output()
  const demoKey = /demo API key: (strata_\w+)/.exec(output)?.[1]
  if (!demoKey) throw new Error(`no demo key in the banner:\n${output}`)
  const account = (name: string) => {
    const found = new RegExp(`^\\s+${name}:\\s+(G[A-Z2-7]{55})`, 'm').exec(output)?.[1]
    if (!found) throw new Error(`no ${name} account in the banner:\n${output}`)
    return found
  }
  return {
    url: server.url,
    demoKey,
    server,
    accounts: {
      vaultprotocol: account('vaultprotocol'),
      lendingprotocol: account('lendingprotocol'),
      ammprotocol: account('ammprotocol'),
      yieldprotocol: account('yieldprotocol'),
      several: account('several'),
    },
  }
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}

/** What went wrong on a page while a test drove it; every test asserts it stays empty. */
export interface PageProblems {
  problems: string[]
}

/**
 * A page in its own context (its own storage), recording every console error, uncaught error,
 * failed or refused request, answer of 400 or more, request to another origin and policy
 * violation into `problems`.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
  )
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request to another origin: ${url}`)
    }
  })
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`answer ${response.status()}: ${response.request().method()} ${response.url()}`)
  })
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    console.error('policy violation: ' + event.violatedDirective + ' ' + event.blockedURI)
  })
  window.__layoutShift = 0
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value
  }).observe({ type: 'layout-shift', buffered: true })`)
  return { page, context, problems }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and returns the serious and
 * critical violations, each as `rule: target (summary)`. The script is evaluated through the
 * debugging protocol, so the page's policy (no inline script) stays as it is.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const found = (await page.evaluate(`(async () => {
    ${AXE_SOURCE}
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ') + ' (' + (n.failureSummary || '').split('\\n').join(' ') + ')'))
  })()`)) as string[]
  return found
}

/**
 * The layout shift the page has had since it was loaded, or since the last `resetLayoutShift`: the
 * sum of the browser's layout-shift scores not caused by input (the Cumulative Layout Shift of the
 * Web Vitals, without its session windows). 0 when nothing on screen moved as data arrived.
 */
export async function layoutShift(page: Page): Promise<number> {
  return (await page.evaluate('window.__layoutShift')) as number
}

export async function resetLayoutShift(page: Page): Promise<void> {
  await page.evaluate('window.__layoutShift = 0')
}

/** Saves a screenshot of the viewport under `name` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: false })
  return path
}
