import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TEST_DB_KIND } from './support/database.ts'
import { CLI, type ServerProcess, startServerProcess } from './support/process.ts'

const dirs: string[] = []
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-startup-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Runs the CLI to its exit (or kills it at the deadline): exit code, output, and how long it took. */
function runToExit(args: string[], env: Record<string, string>, cwd: string, timeoutMs: number) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })
}

function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer()
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 })
    }),
  )
}

/** A port nothing listens on: held, then released. */
async function closedPort(): Promise<number> {
  const { server, port } = await holdPort()
  await new Promise((resolve) => server.close(resolve))
  return port
}

const demoFiles = (dir: string) =>
  existsSync(join(dir, '.strata'))
    ? readdirSync(join(dir, '.strata')).filter((f) => f.startsWith('demo'))
    : []

// Store-independent (the demo and these failures use SQLite files of their own): the SQLite pass only.
describe.skipIf(TEST_DB_KIND !== 'sqlite')(
  'start-up failures stop what was started and exit 1 with one line',
  () => {
    it('a busy port or METRICS_PORT stops the demo at once, before its devnet starts', async () => {
      const { server, port } = await holdPort()
      try {
        for (const [args, env, setting] of [
          [['--port', String(port)], {}, '--port'],
          [['--port', '0'], { METRICS_PORT: String(port) }, 'METRICS_PORT'],
        ] as const) {
          const cwd = scratchDir()
          const run = await runToExit(['serve', '--demo', ...args], env, cwd, 60_000)
          expect(run.code, run.stderr).toBe(1)
          // Nothing but the one line: the simulated network never started (its start writes
          // "Starting the simulated network..." first). How long that takes is no unit test's
          // business on a shared host: the line and the absent demo files say it all.
          expect(run.stderr).toBe(
            `strata serve: port ${port} on 127.0.0.1 is already in use; stop what holds it, or choose another port (${setting})\n`,
          )
          expect(demoFiles(cwd)).toEqual([])
        }
      } finally {
        server.close()
      }
    }, 130_000)

    it('the held port is the one the API then listens on, and is free again once it stops', async () => {
      const port = await closedPort()
      const cwd = scratchDir()
      const demo = await startServerProcess(['serve', '--demo', '--port', String(port)], {}, 150_000, cwd)
      try {
        expect(demo.url).toBe(`http://127.0.0.1:${port}`)
        expect((await fetch(`${demo.url}/v1/health`)).status).toBe(200)
      } finally {
        await demo.stop()
      }
      expect(demo.child.exitCode).toBe(0)
      const { server } = await new Promise<{ server: Server }>((resolve, reject) => {
        const again = createServer()
        again.once('error', reject)
        again.listen(port, '127.0.0.1', () => resolve({ server: again }))
      })
      server.close()
    }, 180_000)

    it('a busy port given by PORT, without the demo', async () => {
      const { server, port } = await holdPort()
      try {
        const run = await runToExit(
          ['serve'],
          { PORT: String(port), DATABASE_URL: `sqlite:${join(scratchDir(), 's.db')}` },
          scratchDir(),
          60_000,
        )
        expect(run.code).toBe(1)
        expect(run.stderr).toBe(
          `strata serve: port ${port} on 127.0.0.1 is already in use; stop what holds it, or choose another port (PORT or --port)\n`,
        )
      } finally {
        server.close()
      }
    }, 70_000)

    it('a busy METRICS_PORT closes the API listener it had opened', async () => {
      const { server, port } = await holdPort()
      try {
        const run = await runToExit(
          ['serve', '--port', '0'],
          { METRICS_PORT: String(port), DATABASE_URL: `sqlite:${join(scratchDir(), 'm.db')}` },
          scratchDir(),
          60_000,
        )
        expect(run.code).toBe(1)
        expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
        expect(run.stderr).toContain('(METRICS_PORT)')
      } finally {
        server.close()
      }
    }, 70_000)

    it('an unreachable Stellar RPC, for serve and for index', async () => {
      const rpc = `http://127.0.0.1:${await closedPort()}`
      const db = { DATABASE_URL: `sqlite:${join(scratchDir(), 'r.db')}` }
      const described = await runToExit(
        ['serve', '--port', '0'],
        { ...db, STELLAR_RPC_URL: rpc },
        scratchDir(),
        60_000,
      )
      expect(described.code).toBe(1)
      expect(described.stderr).toMatch(
        new RegExp(
          `^strata serve: cannot reach the Stellar RPC at ${rpc} \\(STELLAR_RPC_URL\\): fetching ${rpc}/network.json failed \\(ECONNREFUSED\\)\\n$`,
        ),
      )
      const pubnet = await runToExit(
        ['serve', '--port', '0'],
        { ...db, STELLAR_RPC_URL: rpc, STRATA_NETWORK: 'pubnet' },
        scratchDir(),
        60_000,
      )
      expect(pubnet.code).toBe(1)
      expect(pubnet.stderr).toContain(
        `strata serve: cannot reach the Stellar RPC at ${rpc} (STELLAR_RPC_URL): getNetwork:`,
      )
      // The refusal's code is named once, whether the transport's message carries it or not.
      expect(pubnet.stderr.match(/ECONNREFUSED/g)).toHaveLength(1)
      const index = await runToExit(
        ['index', '--rpc-url', rpc, '--network', 'pubnet'],
        db,
        scratchDir(),
        60_000,
      )
      expect(index.code).toBe(1)
      expect(index.stderr).toContain(
        `strata index: cannot reach the Stellar RPC at ${rpc} (--rpc-url): getNetwork:`,
      )
    }, 120_000)

    it('a HOST that does not resolve, and a database file that cannot be opened, name their setting', async () => {
      const host = await runToExit(
        ['serve', '--port', '0'],
        { HOST: 'no-such-host.invalid', DATABASE_URL: `sqlite:${join(scratchDir(), 'h.db')}` },
        scratchDir(),
        60_000,
      )
      expect(host.code).toBe(1)
      expect(host.stderr).toBe(
        'strata serve: cannot listen on "no-such-host.invalid": no such host name (HOST or --host)\n',
      )
      const path = join(scratchDir(), 'missing', 's.db')
      const file = await runToExit(
        ['serve', '--port', '0'],
        { DATABASE_URL: `sqlite:${path}` },
        scratchDir(),
        60_000,
      )
      expect(file.code).toBe(1)
      expect(file.stderr).toBe(
        `strata serve: cannot use the database at ${path}: the database file cannot be opened (SQLite: unable to open database file) (check DATABASE_URL)\n`,
      )
    }, 70_000)

    it('a PostgreSQL server that refuses, or whose host does not resolve, is the database, not HOST', async () => {
      const port = await closedPort()
      const refused = await runToExit(
        ['serve', '--port', '0'],
        { DATABASE_URL: `postgres://strata:hunter2@127.0.0.1:${port}/strata` },
        scratchDir(),
        60_000,
      )
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(
        `strata serve: cannot use the database on PostgreSQL: the database cannot be reached (connect ECONNREFUSED 127.0.0.1:${port}) (check DATABASE_URL)\n`,
      )
      const unresolved = await runToExit(
        ['serve', '--port', '0'],
        { DATABASE_URL: 'postgres://strata@no-such-db-host.invalid/strata' },
        scratchDir(),
        60_000,
      )
      expect(unresolved.code).toBe(1)
      expect(unresolved.stderr).toBe(
        'strata serve: cannot use the database on PostgreSQL: the database cannot be reached (getaddrinfo ENOTFOUND no-such-db-host.invalid) (check DATABASE_URL)\n',
      )
    }, 130_000)

    it('a bad configuration names every problem', async () => {
      const run = await runToExit(['serve'], { PORT: 'eighty', LOG_FORMAT: 'yaml' }, scratchDir(), 60_000)
      expect(run.code).toBe(1)
      expect(run.stderr).toBe(
        'strata serve: invalid configuration:\n' +
          '  - PORT must be a whole number, got "eighty"\n' +
          '  - LOG_FORMAT must be one of json, pretty, got "yaml"\n',
      )
    }, 70_000)
  },
)

describe.skipIf(TEST_DB_KIND !== 'sqlite')('two demos in one checkout', () => {
  let a: ServerProcess | null = null
  let b: ServerProcess | null = null
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
  })

  it('each has its own database, keeps it while the other starts and stops, and removes only its own', async () => {
    const cwd = scratchDir()
    // A demo killed before it could clean up left its file behind; one of a live process did not.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    })
    mkdirSync(join(cwd, '.strata'))
    writeFileSync(join(cwd, '.strata', `demo-${dead.stdout}.db`), 'left over')
    writeFileSync(join(cwd, '.strata', `demo-${process.pid}.db`), 'in use')

    const start = () => startServerProcess(['serve', '--demo', '--port', '0'], {}, 150_000, cwd)
    ;[a, b] = await Promise.all([start(), start()])
    const pathOf = (p: ServerProcess) => /database: (\S+) \(this demo's own/.exec(p.output())?.[1]
    const pathA = pathOf(a)
    const pathB = pathOf(b)
    expect(pathA).toBe(`./.strata/demo-${a.child.pid}.db`)
    expect(pathB).toBe(`./.strata/demo-${b.child.pid}.db`)
    expect(demoFiles(cwd)).not.toContain(`demo-${dead.stdout}.db`)
    expect(demoFiles(cwd)).toContain(`demo-${process.pid}.db`)

    const ask = async (p: ServerProcess) => {
      const key = /demo API key: (\S+)/.exec(p.output())![1]!
      const holder = /\/v1\/users\/(G[A-Z2-7]{55})\//.exec(p.output())![1]!
      const res = await fetch(`${p.url}/v1/users/${holder}/positions/vaultprotocol`, {
        headers: { 'x-svc-token': key },
      })
      return {
        status: res.status,
        vaults: ((await res.json()) as { data: { vaults: unknown[] } }).data.vaults.length,
      }
    }
    expect(existsSync(join(cwd, pathA!))).toBe(true)
    expect(existsSync(join(cwd, pathB!))).toBe(true)
    expect((await ask(a)).status).toBe(200)
    expect((await ask(b)).vaults).toBeGreaterThan(0)

    await a.stop()
    expect(a.child.exitCode).toBe(0)
    a = null
    expect(existsSync(join(cwd, pathA!))).toBe(false)
    expect(existsSync(join(cwd, pathB!))).toBe(true)
    expect((await ask(b)).vaults).toBeGreaterThan(0)

    await b.stop()
    expect(b.child.exitCode).toBe(0)
    b = null
    expect(demoFiles(cwd).sort()).toEqual([`demo-${process.pid}.db`])
  }, 180_000)
})
