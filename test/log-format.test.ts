import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatLogLine } from '../src/log-pretty.ts'
import { createLogger, resolveLogFormat } from '../src/logger.ts'
import { TEST_DB_KIND } from './support/database.ts'
import { CLI, type ServerProcess, startServerProcess } from './support/process.ts'

function capture() {
  const lines: string[] = []
  return { lines, destination: { write: (line: string) => void lines.push(line) } }
}

describe('readable log lines', () => {
  it('a request line reads method, URL, status and duration, then the other fields', () => {
    const json = JSON.stringify({
      level: 30,
      time: '2026-11-24T13:24:01.123Z',
      service: 'strata',
      reqId: 'r-1',
      method: 'GET',
      url: '/v1/health',
      status: 200,
      ms: 1.25,
      msg: 'request',
    })
    expect(formatLogLine(json)).toBe('13:24:01 INFO  GET /v1/health 200 1.25ms reqId=r-1\n')
  })

  it('other lines read message then fields; an error shows its message, and its stack at error level', () => {
    expect(
      formatLogLine(JSON.stringify({ level: 40, time: '2026-11-24T01:02:03.000Z', msg: 'slow', lag: 3 })),
    ).toBe('01:02:03 WARN  slow lag=3\n')
    const error = formatLogLine(
      JSON.stringify({
        level: 50,
        time: '2026-11-24T01:02:03.000Z',
        msg: 'indexer stopped',
        err: {
          type: 'Error',
          message: 'boom',
          stack: 'Error: boom\n    at a (x.ts:1:1)\n    at b (y.ts:2:2)',
        },
      }),
    )
    expect(error).toBe('01:02:03 ERROR indexer stopped: boom\n    at a (x.ts:1:1)\n    at b (y.ts:2:2)\n')
    expect(formatLogLine('not json')).toBe('not json\n')
  })

  it('keeps credentials redacted', () => {
    const { lines, destination } = capture()
    const logger = createLogger('info', destination, 'pretty')
    logger.info(
      {
        req: { headers: { 'x-svc-token': 'strata_secret', authorization: 'Bearer abc' } },
        body: { password: 'hunter22' },
      },
      'incoming',
    )
    const text = lines.join('')
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO {2}incoming /)
    for (const secret of ['strata_secret', 'Bearer abc', 'hunter22']) expect(text).not.toContain(secret)
    expect(text).toContain('[redacted]')
  })

  it('pretty on a terminal, JSON otherwise, unless LOG_FORMAT says', () => {
    expect(resolveLogFormat(null, { isTTY: true })).toBe('pretty')
    expect(resolveLogFormat(null, { isTTY: false })).toBe('json')
    expect(resolveLogFormat(null, {})).toBe('json')
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json')
    expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty')
  })
})

// Servers on SQLite files of their own: the SQLite pass only.
describe.skipIf(TEST_DB_KIND !== 'sqlite')('strata serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-logs-'))
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const s of servers) await s.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess(['serve', '--port', '0'], {
      DATABASE_URL: `sqlite:${join(dir, `${servers.length}.db`)}`,
      LOG_LEVEL: 'info',
      ...env,
    })
    servers.push(server)
    await fetch(`${server.url}/v1/health`)
    // The request's line is written after the response.
    for (let i = 0; i < 50 && !/\/v1\/health/.test(server.output().split('Ctrl-C')[1] ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 100))
    }
    return server
  }

  it('logs JSON lines when its output is not a terminal, readable lines with LOG_FORMAT=pretty', async () => {
    const json = await start({})
    const record = json
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((r) => r.url === '/v1/health')
    expect(record).toMatchObject({ msg: 'request', method: 'GET', status: 200 })

    const pretty = await start({ LOG_FORMAT: 'pretty' })
    expect(pretty.output()).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/v1\/health 200 [\d.]+ms reqId=\S+$/m)
    expect(pretty.output()).not.toMatch(/^\{"level"/m)
  }, 90_000)

  const script = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).stdout.trim()
  it.skipIf(script === '')(
    'on a terminal its log lines are readable by default',
    async () => {
      // util-linux `script` runs the server on a pseudo-terminal, as a person's shell would.
      const command = [process.execPath, CLI, 'serve', '--port', '0'].map((a) => `'${a}'`).join(' ')
      const child = spawn(script, ['-qfec', command, '/dev/null'], {
        env: {
          ...process.env,
          LOG_LEVEL: 'info',
          LOG_FORMAT: '',
          DATABASE_URL: `sqlite:${join(dir, 'tty.db')}`,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk) => {
        output += chunk
      })
      try {
        const waitFor = async (pattern: RegExp) => {
          for (let i = 0; i < 600 && !pattern.test(output); i++) await new Promise((r) => setTimeout(r, 100))
          return pattern.exec(output)
        }
        const url = (await waitFor(/listening on (http:\/\/\S+)/))?.[1]
        expect(url, output).toBeDefined()
        await fetch(`${url}/v1/health`)
        expect(await waitFor(/INFO {2}GET \/v1\/health 200/), output).not.toBeNull()
        expect(output).not.toMatch(/\{"level":/)
      } finally {
        // Ending `script` closes the terminal: the server gets SIGHUP and ends with it.
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
    },
    90_000,
  )

  it('its banner names the reference page and stands apart from the log lines', async () => {
    const server = servers[0]!
    const banner = server.output()
    expect(banner).toContain(`\nStrata API listening on ${server.url}\n`)
    expect(banner).toContain(`  reference: ${server.url}/v1/docs (${server.url} opens it in a browser)\n`)
    expect(banner).toContain(`  OpenAPI:   ${server.url}/v1/openapi.json\n`)
    expect(banner).toMatch(/\n\nCtrl-C stops it\.\n\n/)
  })
})
