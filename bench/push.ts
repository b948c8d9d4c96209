// Push benchmark, one report, every figure from the same run:
// 1. Latency: a devnet of BENCH_PUSH_ACCOUNTS accounts (default 1,000) closing a ledger every
//    BENCH_PUSH_CLOSE_MS (default 1,000 ms) in its own process, `strata serve` indexing it in
//    another (the API, the indexer and the webhooks' dispatcher, as production runs them), and in
//    this process a webhook receiver and Server-Sent Events clients following all of those
//    accounts (one subscription of every account; streams of 200 addresses each). For
//    BENCH_PUSH_DURATION_S (default 60 s) after the indexer caught up, each event's latency is its
//    arrival minus its ledger's commit (the indexer's `batch committed` log line, same clock):
//    p50, p99 and max for the webhook and for the stream.
// 2. Ingest rate with the outbox on versus off: the same pre-generated ledgers
//    (BENCH_PUSH_INGEST_LEDGERS, default 2,000, same accounts) indexed into fresh stores, with a
//    subscription of every account (every event) and with none, BENCH_PUSH_PAIRS pairs (default 3)
//    alternating which goes first; the ratio of pooled ledgers per second (aim: >= 0.90).
//
//   npm run bench:push
//   BENCH_PUSH_DURATION_S=20 BENCH_PUSH_PAIRS=2 npm run bench:push
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import type { NetworkConfig } from '../src/chain/network.ts'
import { createIdentities } from '../src/devnet/world/identities.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { sealWebhookSecret } from '../src/push/webhook-secrets.ts'
import { createDatabase, type Database } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { createWebhook } from '../src/store/webhooks.ts'
import { updateBenchSection } from './report.ts'

const ACCOUNTS = Number(process.env.BENCH_PUSH_ACCOUNTS ?? 1000)
const CLOSE_MS = Number(process.env.BENCH_PUSH_CLOSE_MS ?? 1000)
const DURATION_S = Number(process.env.BENCH_PUSH_DURATION_S ?? 60)
const INGEST_LEDGERS = Number(process.env.BENCH_PUSH_INGEST_LEDGERS ?? 2000)
const PAIRS = Number(process.env.BENCH_PUSH_PAIRS ?? 3)
const SEED = 'push-bench'
const PEPPER = 'push-bench-key-pepper-0123456789abcdef0123'
const ADMIN = 'push-bench-admin-token-0123'
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`
const STREAM_ADDRESSES = 200
const CLI = new URL('../src/cli/main.ts', import.meta.url).pathname
const ADDRESSES = Array.from({ length: ACCOUNTS }, (_, i) => createIdentities(SEED).accountAddress(i))

/** `strata devnet` in its own process; resolves with its RPC URL once it serves. */
async function startDevnet(args: string[]): Promise<{ child: ChildProcess; url: string; latest: number }> {
  const child = spawn(
    process.execPath,
    [CLI, 'devnet', '--seed', SEED, '--port', '0', '--accounts', String(ACCOUNTS), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } },
  )
  let out = ''
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const url = /JSON-RPC on (http:\/\/\S+),/.exec(out)
      const latest = /\(latest (\d+)\)/.exec(out)
      if (url && latest) resolve({ child, url: url[1]!, latest: Number(latest[1]) })
    })
    child.once('exit', (code) => reject(new Error(`devnet exited with ${code}:\n${out}`)))
  })
}

/** A fresh migrated SQLite store in a temporary directory. */
async function freshStore(): Promise<{ database: Database; path: string; drop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-push-'))
  const path = join(dir, 'push.db')
  const database = createDatabase({ kind: 'sqlite', path })
  await migrateToLatest(database)
  return { database, path, drop: () => rmSync(dir, { recursive: true, force: true }) }
}

/** An enterprise organization and one subscription of every account of the devnet. */
async function subscribe(database: Database, url: string, events: string[]): Promise<void> {
  await database.db
    .insertInto('organizations')
    .values({
      id: 'org_bench',
      slug: 'bench',
      name: 'bench',
      plan: 'enterprise',
      billing_email: null,
      created_at: Date.now(),
      created_by: 'admin',
      max_plan: 'enterprise',
    })
    .execute()
  await createWebhook(database.db, {
    id: 'wh_bench',
    organizationId: 'org_bench',
    url,
    description: 'bench:push',
    events,
    addresses: ADDRESSES,
    protocols: null,
    healthFactorThreshold: null,
    sealedSecret: sealWebhookSecret(SECRET, PEPPER),
    now: Date.now(),
  })
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    events: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  }
}

/** Part 1: latency from a ledger's commit to the webhook and to the SSE event. */
async function measureLatency() {
  const devnet = await startDevnet(['--ledgers', '30', '--close-interval-ms', String(CLOSE_MS)])
  const store = await freshStore()
  const arrivals: Array<{ ledger: number; at: number }> = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const at = Date.now()
      arrivals.push({ ledger: JSON.parse(body).ledger, at })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  await subscribe(store.database, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, [
    'position.changed',
  ])
  await store.database.close()

  const commits = new Map<number, number>()
  const server = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${store.path}`,
      STELLAR_RPC_URL: devnet.url,
      STRATA_KEY_PEPPER: PEPPER,
      STRATA_ADMIN_TOKEN: ADMIN,
      STRATA_WEBHOOKS_ALLOW_LOOPBACK: '1',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let url: string | null = null
  let resolveListening: (url: string) => void = () => {}
  const listening = new Promise<string>((resolve) => {
    resolveListening = resolve
  })
  /** Reads the server's lines (the banner on stderr, JSON log lines on stdout). */
  const readLines = (stream: NodeJS.ReadableStream | null) => {
    let pending = ''
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (url === null) {
          const match = /listening on (http:\/\/[^\s"]+)/.exec(line)
          if (match) {
            url = match[1]!
            resolveListening(url)
          }
        }
        if (!line.includes('batch committed')) continue
        try {
          const entry = JSON.parse(line) as { lastLedger?: number; ledgers?: number; time?: number | string }
          // The log line's time, epoch milliseconds (a number, or an RFC 3339 text).
          const at = typeof entry.time === 'string' ? Date.parse(entry.time) : entry.time
          // Only ledgers committed one by one, as they close: not the catch-up batches.
          if (
            entry.lastLedger !== undefined &&
            entry.ledgers === 1 &&
            at !== undefined &&
            Number.isFinite(at)
          )
            commits.set(entry.lastLedger, at)
        } catch {}
      }
    })
  }
  readLines(server.stdout)
  readLines(server.stderr)
  const base = await listening
  const key = await fetch(`${base}/v1/org/api-keys`, {
    method: 'POST',
    headers: { 'x-svc-admin-token': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ organization_name: 'bench', organization_slug: 'bench', key_name: 'push' }),
  }).then((r) => r.json() as Promise<{ key: string }>)

  const streamArrivals: Array<{ ledger: number; at: number }> = []
  const streams: Array<() => void> = []
  for (let i = 0; i < ADDRESSES.length; i += STREAM_ADDRESSES) {
    const addresses = ADDRESSES.slice(i, i + STREAM_ADDRESSES).join(',')
    const req = request(`${base}/v1/stream/positions?addresses=${addresses}`, {
      headers: { 'x-svc-token': key.key, accept: 'text/event-stream' },
    })
    req.on('response', (res) => {
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        const at = Date.now()
        buffer += chunk
        const events = buffer.split('\n\n')
        buffer = events.pop() ?? ''
        for (const event of events) {
          const data = event.split('\n').find((l) => l.startsWith('data: '))
          if (data) streamArrivals.push({ ledger: JSON.parse(data.slice(6)).ledger, at })
        }
      })
    })
    req.on('error', () => {})
    req.end()
    streams.push(() => req.destroy())
  }

  // Wait for the indexer to follow the head ledger by ledger, then measure.
  const started = Date.now()
  while (commits.size < 3 && Date.now() - started < 300_000) await new Promise((r) => setTimeout(r, 200))
  if (commits.size === 0)
    throw new Error('the server logged no committed ledger: is LOG_LEVEL=debug honoured?')
  const from = Math.max(...commits.keys())
  process.stderr.write(`push: following the head from ledger ${from}; measuring ${DURATION_S} s\n`)
  await new Promise((r) => setTimeout(r, DURATION_S * 1000))
  const to = Math.max(...commits.keys()) - 2
  // The last ledgers' events may still be on their way.
  await new Promise((r) => setTimeout(r, 3000))
  for (const close of streams) close()
  server.kill('SIGTERM')
  devnet.child.kill('SIGTERM')
  receiver.close()
  await new Promise((r) => server.once('exit', r))
  store.drop()

  const latencies = (list: typeof arrivals) =>
    list
      .filter((a) => a.ledger > from && a.ledger <= to && commits.has(a.ledger))
      .map((a) => a.at - commits.get(a.ledger)!)
  return {
    ledgers: to - from,
    webhook: summary(latencies(arrivals)),
    stream: summary(latencies(streamArrivals)),
  }
}

/** Part 2: the indexer's ingest rate with the outbox on (a subscription of every account) and off. */
async function measureIngest() {
  const devnet = await startDevnet(['--ledgers', String(INGEST_LEDGERS)])
  const network = (await (await fetch(`${devnet.url}/network.json`)).json()) as NetworkConfig
  const first = devnet.latest - INGEST_LEDGERS + 1
  const runs: Array<{ mode: 'on' | 'off'; ms: number; messages: number }> = []
  for (let pair = 0; pair < PAIRS; pair++) {
    const order: Array<'on' | 'off'> = pair % 2 === 0 ? ['off', 'on'] : ['on', 'off']
    for (const mode of order) {
      const store = await freshStore()
      if (mode === 'on')
        await subscribe(store.database, 'https://receiver.invalid/hook', [
          'position.changed',
          'activity.created',
        ])
      const indexer = createIndexer({
        database: store.database,
        logger: pino({ level: 'warn' }),
        rpcUrl: devnet.url,
        network,
        fromLedger: first,
      })
      const t = performance.now()
      await indexer.syncTo(devnet.latest)
      const ms = performance.now() - t
      const counted = await store.database.db
        .selectFrom('webhook_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      runs.push({ mode, ms, messages: Number(counted.n) })
      process.stderr.write(
        `push: ingest with the outbox ${mode}: ${(INGEST_LEDGERS / (ms / 1000)).toFixed(0)} ledgers/s, ${counted.n} messages\n`,
      )
      await store.database.close()
      store.drop()
    }
  }
  devnet.child.kill('SIGTERM')
  const pooled = (mode: 'on' | 'off') => {
    const chosen = runs.filter((r) => r.mode === mode)
    return (chosen.length * INGEST_LEDGERS) / (chosen.reduce((s, r) => s + r.ms, 0) / 1000)
  }
  return {
    ledgers: INGEST_LEDGERS,
    pairs: PAIRS,
    offLedgersPerS: pooled('off'),
    onLedgersPerS: pooled('on'),
    ratio: pooled('on') / pooled('off'),
    messagesPerRun: runs.find((r) => r.mode === 'on')?.messages ?? 0,
  }
}

const latency = await measureLatency()
const ingest = await measureIngest()
const report = { accounts: ACCOUNTS, closeMs: CLOSE_MS, durationS: DURATION_S, latency, ingest }
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`)
updateBenchSection(
  'push',
  [
    `\`npm run bench:push\` (${new Date().toISOString().slice(0, 10)}; ${ACCOUNTS} subscribed accounts, a ledger closed every ${CLOSE_MS} ms, ${latency.ledgers} ledgers measured):`,
    '',
    "| from a ledger's commit to | events | p50 | p99 | max |",
    '|---|---|---|---|---|',
    `| the webhook received | ${latency.webhook.events} | ${ms(latency.webhook.p50)} | ${ms(latency.webhook.p99)} | ${ms(latency.webhook.max)} |`,
    `| the SSE event received | ${latency.stream.events} | ${ms(latency.stream.p50)} | ${ms(latency.stream.p99)} | ${ms(latency.stream.max)} |`,
    '',
    `Ingest of ${ingest.ledgers} ledgers, ${ingest.pairs} pairs: outbox off ${ingest.offLedgersPerS.toFixed(0)} ledgers/s, on ${ingest.onLedgersPerS.toFixed(0)} ledgers/s (${ingest.messagesPerRun} messages a run): **ratio ${ingest.ratio.toFixed(3)}**.`,
  ].join('\n'),
)
