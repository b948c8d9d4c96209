// The reference page's weight and time to show, one JSON report:
// 1. bytes of what the page loads (the HTML, Scalar's script, the OpenAPI document), raw and as
//    gzip and brotli would send them (Node's zlib at its defaults);
// 2. in headless Chromium (/usr/bin/chromium, nothing downloaded), the time from navigation to the
//    sidebar listing the tags of the document's first tag group: BENCH_DOCS_RUNS (default 7) cold loads, each in
//    a fresh browser context, each followed by a warm load in the same context (Scalar's script then
//    comes from the browser's cache: its URL names its version and it is served immutable).
//
//   node bench/reference-page.ts
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { buildApp } from '../src/api/app.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { createLogger } from '../src/logger.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

const RUNS = Number(process.env.BENCH_DOCS_RUNS) || 7

/** Bytes raw, gzip and brotli. */
function weigh(body: Buffer): { raw: number; gzip: number; brotli: number } {
  return { raw: body.length, gzip: gzipSync(body).length, brotli: brotliCompressSync(body).length }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

// A fresh SQLite store: the page and the document do not depend on what is indexed.
const dir = mkdtempSync(join(tmpdir(), 'strata-bench-docs-'))
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  STRATA_ADMIN_TOKEN: 'bench-admin-token-0123456789',
  LOG_LEVEL: 'silent',
})
const database = createDatabase(config.database)
await migrateToLatest(database)
const ctx = await createContext(config, createLogger('silent'), { database })
const app = await buildApp(ctx)
try {
  const documentAnswer = await app.inject({ method: 'GET', url: '/v1/openapi.json' })
  const page = await app.inject({ method: 'GET', url: '/v1/docs' })
  const scriptPath = /<script src="([^"]*)"/.exec(page.body)?.[1]
  if (!scriptPath) throw new Error('the page names no script')
  const script = await app.inject({ method: 'GET', url: scriptPath })
  const weights = {
    html: weigh(page.rawPayload),
    script: weigh(script.rawPayload),
    document: weigh(documentAnswer.rawPayload),
  }

  const doc = documentAnswer.json() as { 'x-tagGroups'?: Array<{ tags: string[] }> }
  // The sidebar opens with the first tag group's tags listed: the page is usable from then on.
  const firstTag = doc['x-tagGroups']?.[0]?.tags[0] ?? ''
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/docs`
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
  const cold: number[] = []
  const warm: number[] = []
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      const firstTagEntry = tab
        .locator('li[data-sidebar-id^="api-1/tag/"] a')
        .filter({ hasText: firstTag })
        .first()
      for (const times of [cold, warm]) {
        if (times === warm) await tab.goto('about:blank')
        const started = performance.now()
        await tab.goto(url)
        await firstTagEntry.waitFor()
        times.push(Math.round(performance.now() - started))
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
  console.log(
    JSON.stringify(
      {
        bytes: weights,
        sidebar_ms: { cold, cold_median: median(cold), warm, warm_median: median(warm) },
        machine: {
          cpus: cpus().length,
          cpu: cpus()[0]?.model,
          load_average: loadavg().map((l) => +l.toFixed(2)),
        },
        node: process.version,
      },
      null,
      2,
    ),
  )
} finally {
  await app.close()
  await ctx.close()
  await database.close()
  rmSync(dir, { recursive: true, force: true })
}
