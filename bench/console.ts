// The web console's weight and time to show, one JSON report (docs/performance.md, "Console"):
// 1. bytes of every file of the build (console/dist), raw and as the server sends them (gzip), and
//    what each of three pages loads on a cold visit: the HTML, the entry script and style sheet,
//    the page's own chunk and what it imports;
// 2. against a real `strata serve --demo`, in headless Chromium (/usr/bin/chromium, nothing
//    downloaded), BENCH_CONSOLE_RUNS (default 7) cold loads each of
//    - the log-in page: first contentful paint, and the form shown (its submit button visible);
//    - an account's page: first contentful paint, and its first meaningful paint: the positions of
//      the account at the latest ledger drawn (the first table of positions visible), the data
//      asked of the API included;
//    each in a fresh browser context (nothing cached), the key set in the tab's storage as the
//    key picker sets it; and the layout shift of the whole load (every answer in, the network idle).
//
//   node bench/console.ts        (npm run bench:console)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from 'playwright-core'
import { CONSOLE_DIST } from '../src/api/console-page.ts'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/console/harness.ts'
import { startServerProcess } from '../test/support/process.ts'

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS) || 7

if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
  throw new Error('the console is not built: run `npm run console:build` first')
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10

/** Every file of the build, raw and gzip (level 9, as the server keeps it). */
const files: Record<string, { raw: number; gzip: number }> = {}
const walk = (dir: string, prefix = '') => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`)
    else {
      const body = readFileSync(path)
      files[`${prefix}${name}`] = { raw: body.length, gzip: gzipSync(body, { level: 9 }).length }
    }
  }
}
walk(CONSOLE_DIST)
const total = Object.values(files).reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
  raw: 0,
  gzip: 0,
})

const demo = await startServerProcess(
  ['serve', '--demo'],
  { PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' },
  180_000,
)
try {
  const deadline = Date.now() + 30_000
  while (!/What it held at ledger/.test(demo.output()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100))
  const key = /demo API key: (strata_\w+)/.exec(demo.output())?.[1]
  const account = /^\s+several:\s+(G[A-Z2-7]{55})/m.exec(demo.output())?.[1]
  if (!key || !account) throw new Error(`the demo banner names no key or account:\n${demo.output()}`)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })

  /** One cold load: its FCP, the time `ready` appeared, and the bytes it transferred. */
  const load = async (path: string, ready: (page: Page) => Promise<unknown>) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addInitScript(`sessionStorage.setItem('strata.console.api-key', ${JSON.stringify(key)})
      window.__layoutShift = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value
      }).observe({ type: 'layout-shift', buffered: true })`)
    const page = await context.newPage()
    const transferred: Array<{ url: string; bytes: number }> = []
    page.on('requestfinished', async (request) => {
      const sizes = await request.sizes().catch(() => null)
      if (sizes)
        transferred.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize })
    })
    await page.goto(`${demo.url}${path}`)
    await ready(page)
    const readyMs = (await page.evaluate('performance.now()')) as number
    const fcpMs = (await page.evaluate(
      `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null`,
    )) as number | null
    await page.waitForLoadState('networkidle')
    // Every answer in and drawn: the layout shift of the whole load.
    const shift = (await page.evaluate('window.__layoutShift')) as number
    await context.close()
    return { readyMs, fcpMs: fcpMs ?? Number.NaN, shift, transferred }
  }

  const pages = {
    login: {
      path: '/console/login',
      ready: (page: Page) => page.getByRole('button', { name: 'Log in' }).first().waitFor(),
    },
    account: {
      path: `/console/accounts/${account}`,
      ready: (page: Page) =>
        page.locator('main table').first().waitFor({ state: 'visible', timeout: 60_000 }),
    },
    protocols: {
      path: '/console/protocols',
      ready: (page: Page) =>
        page.locator('main table, main .card').first().waitFor({ state: 'visible', timeout: 60_000 }),
    },
  }
  const results: Record<string, unknown> = {}
  for (const [name, { path, ready }] of Object.entries(pages)) {
    await load(path, ready) // one warm-up of the server's answer caches
    const runs = []
    for (let i = 0; i < RUNS; i++) runs.push(await load(path, ready))
    const last = runs[runs.length - 1]!
    const own = last.transferred.filter((t) => t.url.includes('/console/'))
    const api = last.transferred.filter((t) => t.url.includes('/v1/'))
    results[name] = {
      path: path.replace(account, '{several}'),
      first_contentful_paint_ms: {
        median: Math.round(median(runs.map((r) => r.fcpMs))),
        all: runs.map((r) => Math.round(r.fcpMs)),
      },
      first_meaningful_paint_ms: {
        median: Math.round(median(runs.map((r) => r.readyMs))),
        all: runs.map((r) => Math.round(r.readyMs)),
      },
      layout_shift: { max: Math.round(Math.max(...runs.map((r) => r.shift)) * 1000) / 1000 },
      console_files: own.length,
      console_kb_transferred: kb(own.reduce((s, t) => s + t.bytes, 0)),
      api_requests: api.length,
      api_kb_transferred: kb(api.reduce((s, t) => s + t.bytes, 0)),
    }
  }
  await browser.close()
  const report = {
    measured_at: new Date().toISOString(),
    host: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      node: process.version,
    },
    runs: RUNS,
    build: {
      total_kb: { raw: kb(total.raw), gzip: kb(total.gzip) },
      files: Object.fromEntries(
        Object.entries(files).map(([name, f]) => [name, { raw_kb: kb(f.raw), gzip_kb: kb(f.gzip) }]),
      ),
    },
    pages: results,
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
} finally {
  await demo.stop()
}
