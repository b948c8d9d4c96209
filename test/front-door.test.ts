// The README's promise, on a machine whose own Node is older than the one Strata runs on: a fresh
// clone, `npm install && npm start` answers the printed curl, `npm test`'s first test file passes,
// and the install leaves `git status` clean. Every command runs with that older Node first on PATH
// and none of this test runner's npm environment, as on a fresh shell.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, globSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { requiredNodeMajor, runtimePackage } from '../bin/node-version.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OLDER_NODE = '/usr/bin/node'

function olderNodeVersion(): string | null {
  if (!existsSync(OLDER_NODE)) return null
  const run = spawnSync(OLDER_NODE, ['-p', 'process.version'], { encoding: 'utf8' })
  const version = run.stdout?.trim() ?? ''
  return run.status === 0 && Number(/^v(\d+)/.exec(version)?.[1]) < requiredNodeMajor() ? version : null
}

/** This process's environment as a fresh shell would have it: no npm script variables, no vitest's. */
function freshEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /^VITEST/.test(key) || key === 'NODE_ENV' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  // npm puts node_modules/.bin (with this checkout's Node 24) first on a script's PATH; drop those.
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))
  env.PATH = [dirname(OLDER_NODE), ...path].join(delimiter)
  env.LOG_LEVEL = 'warn'
  env.NO_COLOR = '1'
  delete env.FORCE_COLOR
  delete env.STRATA_TEST_DB
  return env
}

const olderVersion = olderNodeVersion()
const env = freshEnv()
const registry =
  olderVersion === null ? null : spawnSync('npm', ['ping'], { env, encoding: 'utf8', timeout: 20_000 })
const skipWhy =
  olderVersion === null
    ? `${OLDER_NODE} is missing or not older than Node ${requiredNodeMajor()}: nothing to prove`
    : registry?.status !== 0
      ? `the npm registry is unreachable (npm ping: ${registry?.stderr.trim().split('\n').at(-1)})`
      : null
if (skipWhy) console.warn(`front door test skipped: ${skipWhy}`)

const dirs: string[] = []
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL')
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function run(command: string, args: string[], cwd: string, timeout = 150_000) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout })
  return { status: result.status, out: `${result.stdout}${result.stderr}` }
}

/** Runs `npm start` in `cwd` until the banner's first curl line; the child runs in its own group. */
function npmStart(cwd: string): Promise<{ child: ChildProcess; curl: string }> {
  const child = spawn('npm', ['start', '--', '--port', '0'], { cwd, env, detached: true })
  children.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no curl line within 60 s:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk
      const curl = /^\s*(curl .+)$/m.exec(output)?.[1]
      if (curl) {
        clearTimeout(timer)
        resolve({ child, curl })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`npm start exited ${code} before the banner:\n${output}`))
    })
  })
}

/** The executables of `pid` and its descendants (Linux /proc). */
function processTreeExes(pid: number): string[] {
  const exes: string[] = []
  const walk = (id: number) => {
    try {
      exes.push(realpathSync(readlinkSync(`/proc/${id}/exe`)))
    } catch {
      return
    }
    for (const task of globSync(`/proc/${id}/task/*/children`)) {
      const text = spawnSync('cat', [task], { encoding: 'utf8' }).stdout
      for (const child of text.split(/\s+/).filter(Boolean)) walk(Number(child))
    }
  }
  walk(pid)
  return exes
}

describe('a fresh clone on a machine whose Node is older than Strata needs', () => {
  it.skipIf(skipWhy !== null)(
    'npm install && npm start answers the printed curl, npm test runs, git status stays clean',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'strata-front-door-'))
      dirs.push(dir)
      const clone = join(dir, 'strata')
      expect(run('git', ['clone', '--quiet', ROOT, clone], dir).status).toBe(0)
      expect(run('node', ['--version'], clone).out.trim()).toBe(olderVersion)

      const install = run('npm', ['install', '--no-audit', '--no-fund'], clone)
      expect(install.status, install.out).toBe(0)
      expect(run('git', ['status', '--porcelain'], clone).out).toBe('')

      // npm's script PATH starts with node_modules/.bin, where the install put Node 24.
      const scriptNode = run('npm', ['exec', '-c', 'node -p process.version'], clone)
      expect(scriptNode.out.trim()).toMatch(new RegExp(`^v${requiredNodeMajor()}\\.`))
      const strata = run('npx', ['strata', '--version'], clone)
      expect(strata, strata.out).toMatchObject({ status: 0 })
      expect(strata.out).toMatch(/^strata \d+\.\d+\.\d+/)

      const { child, curl } = await npmStart(clone)
      const status = run('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], clone, 20_000)
      expect(status.out).toBe('200')
      if (process.platform === 'linux') {
        // The server process is the runtime package's node, not the machine's.
        const runtime = realpathSync(
          join(clone, 'node_modules', runtimePackage(process.platform, process.arch), 'bin', 'node'),
        )
        expect(processTreeExes(child.pid!)).toContain(runtime)
        expect(spawnSync(runtime, ['-p', 'process.version'], { encoding: 'utf8' }).stdout).toMatch(
          new RegExp(`^v${requiredNodeMajor()}\\.`),
        )
      }
      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(-child.pid!, 'SIGINT')
      await exited

      const first = globSync('test/**/*.test.ts', { cwd: clone }).sort()[0]!
      const tests = run('npx', ['vitest', 'run', first], clone)
      expect(tests.status, tests.out).toBe(0)
      expect(tests.out).toMatch(/Test Files\s+1 passed/)
      expect(run('git', ['status', '--porcelain'], clone).out).toBe('')
    },
    240_000,
  )
})
