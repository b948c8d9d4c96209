// What every part of the API benchmark shares: where it keeps its stores, the run's settings (from
// the environment), reading a child's output, CPU time from /proc, and pinning a server to core 0.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'

export const ROOT = new URL('..', import.meta.url).pathname
export const CACHE = join(ROOT, 'bench/.cache')
export const CLI = join(ROOT, 'src/cli/main.ts')
export const DURATION_S = Number(process.env.BENCH_API_DURATION_S ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 16)
/** Alternating pairs (endpoint round, ceiling round) per endpoint. */
export const PAIRS = Number(process.env.BENCH_API_PAIRS ?? 4)
/** Whether to profile each endpoint (BENCH_API_PROFILE=0 skips it). */
export const PROFILE = process.env.BENCH_API_PROFILE !== '0'
export const HAS_TASKSET = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return true
  } catch {
    return false
  }
})()
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

export function readLine(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    child[stream]?.on('data', (chunk) => {
      out += chunk
      const match = pattern.exec(out)
      if (match) resolve(match)
    })
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${out.slice(-2000)}`)))
  })
}

export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** A process's CPU time so far (user + system, all threads), in µs; null without /proc. */
export function cpuUs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6
  } catch {
    return null
  }
}

/** `node args…` on core 0 (when taskset exists). */
export function spawnOnServerCore(args: string[], env: NodeJS.ProcessEnv, stdio: Array<'ignore' | 'pipe'>) {
  return spawnOnCores('0', args, env, stdio)
}

/**
 * `node args…` on the cores of a taskset list (`0`, `1`, `0-1`; when taskset exists). A child
 * inherits this process's affinity (core 1 once pinned), so a child meant to run anywhere is given
 * every core: `ALL_CORES`.
 */
export function spawnOnCores(
  cores: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdio: Array<'ignore' | 'pipe'>,
) {
  return HAS_TASKSET
    ? spawn('taskset', ['-c', cores, process.execPath, ...args], { stdio, env })
    : spawn(process.execPath, args, { stdio, env })
}

/** Every core of the host, as a taskset list. */
export const ALL_CORES = `0-${Math.max(0, cpus().length - 1)}`

export const round3 = (value: number) => Math.round(value * 1000) / 1000
