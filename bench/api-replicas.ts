// The API benchmark's two-replica run, on PostgreSQL: two `strata serve` processes on the same
// PostgreSQL store and one Redis (the rate limiter shared, as in production), one pinned to each
// core, against one of them alone, measured the same way in alternating rounds on the vault
// endpoint. The load comes from two load-generator processes free to run on either core (this
// process is pinned to core 1, and a child inherits that, so they are given every core): with two
// replicas each generator drives one; with one, both drive it, so the connections and the load
// generators' work are the same in both. Each round reports requests/s per replica and in total,
// each replica's CPU per request, and what PostgreSQL's backends and Redis spent beside them.
import type { ChildProcess } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  ALL_CORES,
  CACHE,
  CONNECTIONS,
  cpuUs,
  HAS_TASKSET,
  median,
  PAIRS,
  ROOT,
  round3,
  spawnOnCores,
} from './api-env.ts'
import { sideCpuBetween } from './api-postgres.ts'
import { type ApiProcess, load, type Measured, warmPaths } from './api-rounds.ts'

export interface ReplicaRound {
  /** The replicas serving in the round, in order (replica 1 on core 0, replica 2 on core 1). */
  replicas: Array<{
    requestsPerSecond: number
    requests: number
    /** The server's CPU per request (its process, all threads), µs. */
    cpuUsPerRequest: number | null
  }>
  totalRequestsPerSecond: number
  /** The higher of the two load generators' p99 (autocannon, whole milliseconds). */
  clientP99Ms: number
  non2xx: number
  /** Both load generators' CPU per request, µs. */
  clientCpuUsPerRequest: number
  /** The serving replicas' database backends' CPU per request, µs (null: PostgreSQL is on another host). */
  databaseCpuUsPerRequest: number | null
  /** Redis's CPU per request, µs (null: not read). */
  redisCpuUsPerRequest: number | null
}

export interface ReplicaResult {
  pinned: boolean
  /** Load generators, and connections each opens. */
  generators: number
  connections: number
  pairs: Array<{ one: ReplicaRound; two: ReplicaRound; scaling: number }>
  /** Medians over the pairs. */
  oneTotal: number
  twoPerReplica: number[]
  twoTotal: number
  /** Two replicas' total over one replica's, median and range over the pairs. */
  scaling: number
  scalingRange: [number, number]
  oneCpuUs: number | null
  twoCpuUs: Array<number | null>
  oneSideUs: { database: number | null; redis: number | null }
  twoSideUs: { database: number | null; redis: number | null }
  oneClientCpuUs: number
  twoClientCpuUs: number
}

/** Child mode: a load generator that runs one round per line of stdin (`{url, pid}`), answering its Measured. */
export async function runLoadGenerator(pathsFile: string, key: string, offset: number): Promise<void> {
  const { readFileSync } = await import('node:fs')
  const all = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[]
  // Each generator walks the paths from its own point, so two on one server ask different answers.
  const paths = [...all.slice(offset % all.length), ...all.slice(0, offset % all.length)]
  process.stdout.write('ready\n')
  for await (const line of createInterface({ input: process.stdin })) {
    const { url, pid } = JSON.parse(line) as { url: string; pid: number }
    const measured = await load({ url, pid, stop: () => {} }, { paths, key })
    process.stdout.write(`${JSON.stringify(measured)}\n`)
  }
}

interface Generator {
  child: ChildProcess
  run(target: ApiProcess): Promise<Measured>
}

async function startGenerator(pathsFile: string, key: string, offset: number): Promise<Generator> {
  const child = spawnOnCores(
    ALL_CORES,
    [join(ROOT, 'bench/api.ts'), '--load-generator', pathsFile, key, String(offset)],
    process.env,
    ['pipe', 'pipe', 'pipe'],
  )
  child.stderr?.on('data', (chunk) => process.stderr.write(chunk))
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const next = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error('a load generator ended early')
    return value as string
  }
  if ((await next()) !== 'ready') throw new Error('a load generator did not start')
  return {
    child,
    async run(target) {
      child.stdin!.write(`${JSON.stringify({ url: target.url, pid: target.pid })}\n`)
      return JSON.parse(await next()) as Measured
    },
  }
}

/** One round: both generators at once, on `serving` (one replica: both on it; two: one each). */
async function replicaRound(serving: ApiProcess[], generators: Generator[]): Promise<ReplicaRound> {
  const sideBefore = await Promise.all(serving.map((s) => s.sideCpu!()))
  const cpuBefore = serving.map((s) => cpuUs(s.pid))
  const measured = await Promise.all(generators.map((g, i) => g.run(serving[i % serving.length]!)))
  const cpuAfter = serving.map((s) => cpuUs(s.pid))
  const sideAfter = await Promise.all(serving.map((s) => s.sideCpu!()))
  const replicas = serving.map((_, r) => {
    const own = measured.filter((_, i) => i % serving.length === r)
    const requests = own.reduce((sum, m) => sum + m.requests, 0)
    const before = cpuBefore[r]
    const after = cpuAfter[r]
    return {
      requestsPerSecond: own.reduce((sum, m) => sum + m.requestsPerSecond, 0),
      requests,
      cpuUsPerRequest:
        before == null || after == null || requests === 0
          ? null
          : Math.round(((after - before) / requests) * 10) / 10,
    }
  })
  const requests = measured.reduce((sum, m) => sum + m.requests, 0)
  const per = (us: number | null) =>
    us === null || requests === 0 ? null : Math.round((us / requests) * 10) / 10
  const sides = serving.map((_, r) => sideCpuBetween(sideBefore[r]!, sideAfter[r]!))
  const database = sides.every((s) => s.databaseUs !== null)
    ? sides.reduce((sum, s) => sum + s.databaseUs!, 0)
    : null
  return {
    replicas,
    totalRequestsPerSecond: replicas.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    clientP99Ms: Math.max(...measured.map((m) => m.p99Ms)),
    non2xx: measured.reduce((sum, m) => sum + m.non2xx, 0),
    clientCpuUsPerRequest:
      requests === 0
        ? 0
        : Math.round(
            (measured.reduce((sum, m) => sum + m.clientCpuUsPerRequest * m.requests, 0) / requests) * 10,
          ) / 10,
    databaseCpuUsPerRequest: per(database),
    // One Redis for both: read once (through the first replica's reading).
    redisCpuUsPerRequest: per(sides[0]!.redisUs),
  }
}

/**
 * Two replicas against one, in alternating pairs of rounds (one then two, two then one, …) after a
 * warm-up of each, on `paths` with `key`. `replicas` are two servers on the same PostgreSQL store,
 * the first pinned to core 0 and the second to core 1.
 */
export async function measureReplicas(
  replicas: [ApiProcess, ApiProcess],
  paths: string[],
  key: string,
): Promise<ReplicaResult> {
  const pathsFile = join(CACHE, `replica-paths-${process.pid}.json`)
  writeFileSync(pathsFile, JSON.stringify(paths))
  const generators = await Promise.all(
    [0, 1].map((i) => startGenerator(pathsFile, key, i * Math.floor(paths.length / 2))),
  )
  try {
    const one = () => replicaRound([replicas[0]], generators)
    const two = () => replicaRound(replicas, generators)
    for (const replica of replicas) await warmPaths(replica, key, paths)
    await two() // warm-up rounds
    await one()
    const pairs: ReplicaResult['pairs'] = []
    for (let i = 0; i < PAIRS; i++) {
      let a: ReplicaRound
      let b: ReplicaRound
      if (i % 2 === 0) {
        a = await one()
        b = await two()
      } else {
        b = await two()
        a = await one()
      }
      if (a.non2xx > 0 || b.non2xx > 0) throw new Error(`replicas: ${a.non2xx + b.non2xx} non-2xx answers`)
      const scaling = round3(b.totalRequestsPerSecond / a.totalRequestsPerSecond)
      pairs.push({ one: a, two: b, scaling })
      process.stderr.write(
        `  replicas pair ${i + 1}: one ${a.totalRequestsPerSecond} req/s; two ${b.replicas.map((r) => r.requestsPerSecond).join(' + ')} = ${b.totalRequestsPerSecond} req/s (×${scaling}); CPU µs/req one ${a.replicas[0]!.cpuUsPerRequest}, two ${b.replicas.map((r) => r.cpuUsPerRequest).join(' / ')}; database ${a.databaseCpuUsPerRequest} / ${b.databaseCpuUsPerRequest}, Redis ${a.redisCpuUsPerRequest} / ${b.redisCpuUsPerRequest}, load generators ${a.clientCpuUsPerRequest} / ${b.clientCpuUsPerRequest}\n`,
      )
    }
    const med = (values: Array<number | null>) =>
      values.every((v) => v !== null) ? round3(median(values as number[])) : null
    const scalings = pairs.map((p) => p.scaling)
    return {
      pinned: HAS_TASKSET,
      generators: generators.length,
      connections: CONNECTIONS,
      pairs,
      oneTotal: Math.round(median(pairs.map((p) => p.one.totalRequestsPerSecond))),
      twoPerReplica: [0, 1].map((r) =>
        Math.round(median(pairs.map((p) => p.two.replicas[r]!.requestsPerSecond))),
      ),
      twoTotal: Math.round(median(pairs.map((p) => p.two.totalRequestsPerSecond))),
      scaling: round3(median(scalings)),
      scalingRange: [Math.min(...scalings), Math.max(...scalings)],
      oneCpuUs: med(pairs.map((p) => p.one.replicas[0]!.cpuUsPerRequest)),
      twoCpuUs: [0, 1].map((r) => med(pairs.map((p) => p.two.replicas[r]!.cpuUsPerRequest))),
      oneSideUs: {
        database: med(pairs.map((p) => p.one.databaseCpuUsPerRequest)),
        redis: med(pairs.map((p) => p.one.redisCpuUsPerRequest)),
      },
      twoSideUs: {
        database: med(pairs.map((p) => p.two.databaseCpuUsPerRequest)),
        redis: med(pairs.map((p) => p.two.redisCpuUsPerRequest)),
      },
      oneClientCpuUs: round3(median(pairs.map((p) => p.one.clientCpuUsPerRequest))),
      twoClientCpuUs: round3(median(pairs.map((p) => p.two.clientCpuUsPerRequest))),
    }
  } finally {
    for (const g of generators) g.child.kill()
    rmSync(pathsFile, { force: true })
  }
}
