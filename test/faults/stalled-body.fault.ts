import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from '../support/process.ts'

// A client that sends complete headers and then trickles (or stops sending) its body, and one that
// opens connection after connection, against a real `strata serve`: the first is cut at the
// request bound, the second refused past its share, and other clients are answered meanwhile.

const REQUEST_TIMEOUT_MS = 2000
const LIMIT = 6
// Generous: the machine running the suite is shared and noisy.
const MARGIN_MS = 4000

/** What a raw connection received, and when it closed. */
interface RawExchange {
  socket: Socket
  received: () => string
  closed: Promise<number>
}

/** A connection from `localAddress` that sends `bytes` and then nothing more. */
function openRaw(port: number, bytes: string, localAddress = '127.0.0.1'): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      if (bytes !== '') socket.write(bytes)
      resolve({ socket, received: () => received, closed })
    })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)))
    socket.once('error', reject)
  })
}

/** A GET from `localAddress` on a fresh connection: its status and body, or the error's code. */
function get(port: number, path: string, localAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.once('error', reject)
    req.end()
  })
}

/**
 * The server's log lines containing `text`, once there are `count` of them (or after 5 s): the
 * lines reach this process through a pipe, possibly after the socket they are about has closed.
 */
async function logLines(server: ServerProcess, text: string, count: number): Promise<string[]> {
  const lines = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.includes(text))
  for (let i = 0; i < 100 && lines().length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return lines()
}

const STALLED_LOGIN =
  'POST /v1/auth/login HTTP/1.1\r\nHost: strata\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":'

describe('a stalled request body and too many connections from one client', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-stall-'))
  let server: ServerProcess
  let port: number
  beforeAll(async () => {
    server = await startServerProcess(['serve', '--port', '0'], {
      DATABASE_URL: `sqlite:${join(dir, 'strata.db')}`,
      STRATA_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      STRATA_MAX_CONNECTIONS_PER_CLIENT: String(LIMIT),
      LOG_FORMAT: 'json',
    })
    port = Number(new URL(server.url).port)
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('cuts a body that stops arriving at the bound with a 408, while other clients are answered', async () => {
    // Three bodies that stop arriving, and headers that stop arriving half-way (slowloris).
    const stalled = await Promise.all([
      ...[1, 2, 3].map(() => openRaw(port, STALLED_LOGIN)),
      openRaw(port, 'GET /v1/health HTTP/1.1\r\nHost: str'),
    ])
    // Meanwhile another client is answered at once.
    const other = await get(port, '/v1/health', '127.0.0.2')
    expect(other.status).toBe(200)
    expect(stalled.every((s) => s.received() === '')).toBe(true)

    const elapsed = await Promise.all(stalled.map((s) => s.closed))
    for (const ms of elapsed) {
      expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100)
      expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + MARGIN_MS)
    }
    for (const s of stalled) {
      const [head = '', body = ''] = s.received().split('\r\n\r\n')
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout')
      expect(head.toLowerCase()).toContain('connection: close')
      expect(JSON.parse(body).error).toEqual({
        code: 'request_timeout',
        message: `the request did not arrive within ${REQUEST_TIMEOUT_MS} ms`,
      })
    }
    // One log line per request cut, saying why.
    const cuts = await logLines(server, 'request timed out', stalled.length)
    expect(cuts).toHaveLength(stalled.length)
    expect(cuts.filter((line) => line.includes('its headers did not arrive'))).toHaveLength(1)
    expect(JSON.parse(cuts.find((line) => line.includes('its body')) as string)).toMatchObject({
      level: 40,
      client: '127.0.0.1',
      method: 'POST',
      url: '/v1/auth/login',
      timeout_ms: REQUEST_TIMEOUT_MS,
    })
  })

  it('refuses connections past the per-client limit with a 429, serves other addresses, and serves again once they close', async () => {
    // Keep-alive connections, each answered once and then idle (so no request bound applies to
    // them): each holds one of the client's share.
    const held = await Promise.all(
      Array.from({ length: LIMIT }, () => openRaw(port, 'GET /v1/health HTTP/1.1\r\nHost: strata\r\n\r\n')),
    )
    for (let i = 0; i < 100 && !held.every((h) => h.received().includes('\r\n\r\n{')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(held.map((h) => h.received().split('\r\n')[0])).toEqual(Array(LIMIT).fill('HTTP/1.1 200 OK'))

    const refused = await get(port, '/v1/health', '127.0.0.1')
    expect(refused.status).toBe(429)
    expect(JSON.parse(refused.body).error.code).toBe('rate_limited')
    expect(JSON.parse(refused.body).error.message).toContain(`at most ${LIMIT}`)
    // Another address has its own share.
    expect((await get(port, '/v1/health', '127.0.0.2')).status).toBe(200)

    for (const h of held) h.socket.destroy()
    await Promise.all(held.map((h) => h.closed))
    // The server counts a connection as gone when it sees it close: give it that moment.
    let again = await get(port, '/v1/health', '127.0.0.1')
    for (let i = 0; again.status === 429 && i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      again = await get(port, '/v1/health', '127.0.0.1')
    }
    expect(again.status).toBe(200)
    const warnings = await logLines(server, 'connections refused', 1)
    expect(warnings).toHaveLength(1)
    expect(JSON.parse(warnings[0] as string)).toMatchObject({ level: 40, client: '127.0.0.1', limit: LIMIT })
  })
})
