// Embedded mode under a backfill: `strata serve` with its in-process indexer catching up on a long
// devnet history, while a steady load asks for positions. The same load runs again once the indexer
// is at the head (idle), in the same run, and the report compares the latencies.
//
//   npm run bench:embedded
//   BENCH_EMBEDDED_LEDGERS=60000 BENCH_EMBEDDED_RATE=200 npm run bench:embedded
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

const LEDGERS = Number(process.env.BENCH_EMBEDDED_LEDGERS ?? 60_000)
const RATE = Number(process.env.BENCH_EMBEDDED_RATE ?? 200)
const DURATION_S = Number(process.env.BENCH_EMBEDDED_DURATION_S ?? 8)
const CLI = new URL('../src/cli/main.ts', import.meta.url).pathname
const ADMIN = 'bench-admin-token-0123456789'

function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk
      const match = ready.exec(out)
      if (match) resolve({ child, match })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`strata ${args[0]} exited with ${code}: ${out.slice(-2000)}`)),
    )
  })
}

async function lastIndexed(api: string): Promise<number | null> {
  const health = (await (await fetch(`${api}/v1/health`)).json()) as {
    indexer: { last_indexed_ledger: number | null }
  }
  return health.indexer.last_indexed_ledger
}

async function measure(url: string, key: string) {
  const result = await autocannon({
    url,
    connections: 8,
    duration: DURATION_S,
    overallRate: RATE,
    headers: { 'x-svc-token': key },
  })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-embedded-'))
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'embedded.db')}`,
    STRATA_ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
  }
  const devnet = await start(
    [
      'devnet',
      '--port',
      '0',
      '--seed',
      'bench-embedded',
      '--ledgers',
      String(LEDGERS),
      '--accounts',
      '2000',
      '--activity',
      '0.01',
      // The same ledgers on every run, so runs compare.
      '--genesis-time',
      '2025-01-01T00:00:00Z',
    ],
    {},
    /\(latest (\d+)\)[\s\S]*JSON-RPC on (http:\S+), contracts[\s\S]*open vault: (G[A-Z0-9]{55})/,
  )
  const latest = Number(devnet.match[1])
  const rpcUrl = devnet.match[2]!
  const holder = devnet.match[3]!
  let api: ChildProcess | null = null
  try {
    spawnSync(process.execPath, [CLI, 'migrate'], { env: { ...process.env, ...env } })
    const created = spawnSync(process.execPath, [CLI, 'create-key', '--org', 'bench', '--name', 'bench'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    })
    const key = /"key": "(strata_[A-Za-z0-9]+)"/.exec(created.stdout)?.[1]
    if (!key) throw new Error(`no key: ${created.stdout}${created.stderr}`)
    const served = await start(
      ['serve', '--port', '0'],
      { ...env, STELLAR_RPC_URL: rpcUrl },
      /listening on (http:\S+)/,
    )
    api = served.child
    const base = served.match[1]!.replace(/\/$/, '')
    const url = `${base}/v1/users/${holder}/positions/vaultprotocol`
    // Wait for the first batch so answers are real, then load while the rest is ingested.
    while (((await lastIndexed(base)) ?? 0) === 0) await new Promise((r) => setTimeout(r, 200))
    const before = await lastIndexed(base)
    const duringBackfill = await measure(url, key)
    const after = await lastIndexed(base)
    // Idle: the indexer has reached the devnet's head (which closes no new ledgers).
    const deadline = Date.now() + 900_000
    let head = await lastIndexed(base)
    while (head !== latest) {
      if (Date.now() > deadline) throw new Error(`the indexer did not reach ${latest} (at ${head})`)
      await new Promise((r) => setTimeout(r, 500))
      head = await lastIndexed(base)
    }
    const idle = await measure(url, key)
    const report = {
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
      devnet: { ledgers: LEDGERS },
      load: { rate: RATE, durationSeconds: DURATION_S },
      duringBackfill: { ...duringBackfill, indexedFrom: before, indexedTo: after },
      idle: { ...idle, head },
      p99Ratio: (duringBackfill.p99Ms / Math.max(1, idle.p99Ms)).toFixed(2),
      p50Ratio: (duringBackfill.p50Ms / Math.max(1, idle.p50Ms)).toFixed(2),
    }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } finally {
    api?.kill('SIGTERM')
    devnet.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
