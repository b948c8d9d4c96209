import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServerProcess } from '../support/process.ts'

// SIGTERM while a real `strata serve` is busy: every request sent before the signal is answered
// (none reset, none left hanging), and the process then exits 0 within its bound.

const IN_FLIGHT = 50
const SHUTDOWN_TIMEOUT_MS = 10_000
// Generous: the machine running the suite is shared and noisy.
const MARGIN_MS = 5000

interface Outcome {
  /** When the request was fully written, and when its answer (or error) came, in ms since the epoch. */
  sentAt: number
  doneAt: number
  status: number | null
  error: string | null
}

/** One request on `agent`; resolves with its outcome, never rejects. */
function send(agent: Agent, port: number, method: string, path: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let sentAt = Number.POSITIVE_INFINITY
    const headers = body === undefined ? {} : { 'content-type': 'application/json' }
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ sentAt, doneAt: Date.now(), status: res.statusCode ?? 0, error: null }))
      res.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ sentAt, doneAt: Date.now(), status: null, error: error.code ?? error.message }),
      )
    })
    req.on('finish', () => {
      sentAt = Date.now()
    })
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ sentAt, doneAt: Date.now(), status: null, error: error.code ?? error.message }),
    )
    req.end(body)
  })
}

describe('SIGTERM under load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-sigterm-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('answers every request sent before the signal, then exits 0 within the bound', async () => {
    const server = await startServerProcess(['serve', '--port', '0'], {
      DATABASE_URL: `sqlite:${join(dir, 'strata.db')}`,
      STRATA_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      SIGNUP_ATTEMPTS_PER_WINDOW: '1000000',
    })
    const port = Number(new URL(server.url).port)
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 10 })
    try {
      // Warm the connections up, so the signal finds keep-alive connections open and idle.
      const warm = await Promise.all(Array.from({ length: 10 }, () => send(agent, port, 'GET', '/v1/health')))
      expect(warm.map((o) => o.status)).toEqual(Array(10).fill(200))

      // Requests that take a while (each signup hashes a password with argon2) and a stream of
      // quick ones on keep-alive connections, until the signal.
      const signups = Array.from({ length: IN_FLIGHT }, (_, i) =>
        send(
          agent,
          port,
          'POST',
          '/v1/auth/signup',
          JSON.stringify({
            organization_name: `Sigterm ${i}`,
            organization_slug: `sigterm-${i}`,
            email: `sigterm-${i}@example.com`,
            password: 'correct horse battery staple',
          }),
        ),
      )
      let signalled = false
      const quick: Array<Promise<Outcome>> = []
      const stream = (async () => {
        while (!signalled) {
          const next = send(agent, port, 'GET', '/v1/health')
          quick.push(next)
          await next
        }
      })()
      await new Promise((resolve) => setTimeout(resolve, 100))

      // `close`: the process has exited and everything it wrote has been read.
      const exited = new Promise<number | null>((resolve) =>
        server.child.once('close', (code) => resolve(code)),
      )
      const signalAt = Date.now()
      signalled = true
      server.child.kill('SIGTERM')
      const [code, outcomes] = await Promise.all([exited, Promise.all(signups)])
      const exitMs = Date.now() - signalAt
      await stream
      const quickOutcomes = await Promise.all(quick)

      // Every signup was sent before the signal, and every one is answered with its 201.
      expect(outcomes.every((o) => o.sentAt < signalAt)).toBe(true)
      expect(outcomes.map((o) => o.error ?? o.status)).toEqual(Array(IN_FLIGHT).fill(201))
      // The signal did come while they were being worked on: some were answered after it.
      expect(outcomes.filter((o) => o.doneAt > signalAt).length).toBeGreaterThan(0)
      // Quick requests sent before the signal are answered too (a request sent after it may be
      // refused: the server has stopped accepting).
      const sentBefore = quickOutcomes.filter((o) => o.sentAt < signalAt)
      expect(sentBefore.length).toBeGreaterThan(0)
      expect(sentBefore.filter((o) => o.status !== 200)).toEqual([])

      expect(code).toBe(0)
      expect(exitMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + MARGIN_MS)
      expect(server.output()).toContain('SIGTERM: stopping')
    } finally {
      agent.destroy()
      await server.stop()
    }
  })

  it('exits anyway, with 1 and a line saying so, when a request is still unanswered at the bound', async () => {
    const bound = 1500
    const server = await startServerProcess(['serve', '--port', '0'], {
      DATABASE_URL: `sqlite:${join(dir, 'bound.db')}`,
      STRATA_SHUTDOWN_TIMEOUT_MS: String(bound),
      STRATA_REQUEST_TIMEOUT_MS: '60000',
    })
    const port = Number(new URL(server.url).port)
    // A request whose body never comes: in flight until its own 60 s bound, long after the stop's.
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      'POST /v1/auth/login HTTP/1.1\r\nHost: strata\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    try {
      const exited = new Promise<number | null>((resolve) =>
        server.child.once('close', (code) => resolve(code)),
      )
      const signalAt = Date.now()
      server.child.kill('SIGTERM')
      const code = await exited
      const exitMs = Date.now() - signalAt
      expect(code).toBe(1)
      expect(exitMs).toBeGreaterThanOrEqual(bound - 100)
      expect(exitMs).toBeLessThan(bound + MARGIN_MS)
      expect(server.output()).toContain(
        `shutdown did not finish within ${bound} ms (STRATA_SHUTDOWN_TIMEOUT_MS); exiting anyway`,
      )
    } finally {
      socket.destroy()
      await server.stop()
    }
  })
})
