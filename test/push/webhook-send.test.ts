import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createCheckedLookup,
  createWebhookAgents,
  retryDelayMs,
  type SendOptions,
  sendWebhook,
  signWebhook,
  type WebhookDelivery,
} from '../../src/push/webhook-send.ts'
import { isPublicAddress } from '../../src/push/webhook-url.ts'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

interface Receiver {
  port: number
  url: string
  seen: Seen[]
  connections: number
}

const servers: http.Server[] = []

/** A real local receiver: records each request (and each connection), then lets `answer` reply. */
async function startReceiver(answer: (res: http.ServerResponse, seen: Seen) => void): Promise<Receiver> {
  const receiver: Receiver = { port: 0, url: '', seen: [], connections: 0 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) }
      receiver.seen.push(seen)
      answer(res, seen)
    })
  })
  server.on('connection', () => {
    receiver.connections += 1
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  receiver.port = (server.address() as AddressInfo).port
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks/strata?x=1`
  return receiver
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
})

const secret = () => `whsec_${randomBytes(24).toString('base64')}`

/** A payload with non-ASCII text and odd spacing: what arrives must be these very bytes. */
const PAYLOAD = '{"type":"position.changed", "data":{"note":"é 💸 \\u0000","amount":"123456789012345678901"}}'

function delivery(url: string, secrets = [secret()]): WebhookDelivery {
  return {
    url,
    messageId: `msg_${randomBytes(6).toString('hex')}`,
    timestampS: Math.floor(Date.now() / 1000),
    payload: PAYLOAD,
    secrets,
  }
}

const LOOPBACK: SendOptions = { timeoutMs: 5000, allowLoopback: true, userAgent: 'Strata-Webhooks/1 (test)' }
const STRICT: SendOptions = { ...LOOPBACK, allowLoopback: false }

function verifyHeaders(seen: Seen): Record<string, string> {
  return {
    'webhook-id': String(seen.headers['webhook-id']),
    'webhook-timestamp': String(seen.headers['webhook-timestamp']),
    'webhook-signature': String(seen.headers['webhook-signature']),
  }
}

describe('sendWebhook to a real receiver', () => {
  it('delivers the exact body, signed for every secret, with the Standard Webhooks headers', async () => {
    const receiver = await startReceiver((res) => res.writeHead(204).end())
    const current = secret()
    const previous = secret()
    const message = delivery(receiver.url, [current, previous])
    const outcome = await sendWebhook(message, LOOPBACK)

    expect(outcome).toMatchObject({ ok: true, status: 204 })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0)
    expect(receiver.seen).toHaveLength(1)
    const seen = receiver.seen[0]!
    expect(seen.method).toBe('POST')
    expect(seen.url).toBe('/hooks/strata?x=1')
    expect(seen.body.equals(Buffer.from(PAYLOAD, 'utf8'))).toBe(true)
    expect(seen.headers['content-type']).toBe('application/json')
    expect(seen.headers['user-agent']).toBe('Strata-Webhooks/1 (test)')
    expect(seen.headers['webhook-id']).toBe(message.messageId)
    expect(seen.headers['webhook-timestamp']).toBe(String(message.timestampS))
    const signatures = String(seen.headers['webhook-signature']).split(' ')
    expect(signatures).toHaveLength(2)
    for (const s of signatures) expect(s).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)

    // Each secret alone verifies the message as received (the package's own verifier).
    const body = seen.body.toString('utf8')
    for (const key of [current, previous]) {
      expect(new Webhook(key).verify(body, verifyHeaders(seen))).toEqual(JSON.parse(PAYLOAD))
    }
    // A secret that was not used does not, and neither does a changed body.
    expect(() => new Webhook(secret()).verify(body, verifyHeaders(seen))).toThrow(/No matching signature/)
    expect(() => new Webhook(current).verify(body.replace('é', 'e'), verifyHeaders(seen))).toThrow()
  })

  it('signs the same message identically on every retry', () => {
    const message = delivery('https://example.com/')
    const once = signWebhook(message.secrets, message.messageId, message.timestampS, message.payload)
    const again = signWebhook(message.secrets, message.messageId, message.timestampS, message.payload)
    expect(again).toBe(once)
    expect(signWebhook(message.secrets, 'msg_other', message.timestampS, message.payload)).not.toBe(once)
    expect(() => signWebhook([], 'msg_1', 1, '{}')).toThrow(RangeError)
  })

  it('fails a 500 with its status and the first 500 characters of the body', async () => {
    const text = `${'x'.repeat(498)}éé${'y'.repeat(100)}`
    const receiver = await startReceiver((res) =>
      res.writeHead(500, { 'content-type': 'text/plain' }).end(text),
    )
    const outcome = await sendWebhook(delivery(receiver.url), LOOPBACK)
    expect(outcome).toMatchObject({ ok: false, status: 500, error: `${'x'.repeat(498)}éé` })
  })

  it('stops reading a long error body at 64 KiB', async () => {
    const receiver = await startReceiver((res) => {
      res.writeHead(503)
      res.write('z'.repeat(70 * 1024))
      // never ends: the sender must not wait for the rest
    })
    const outcome = await sendWebhook(delivery(receiver.url), { ...LOOPBACK, timeoutMs: 10_000 })
    expect(outcome).toMatchObject({ ok: false, status: 503, error: 'z'.repeat(500) })
  })

  it('fails a 2xx whose body does not arrive within timeoutMs, keeping its status', async () => {
    const receiver = await startReceiver((res) => {
      res.writeHead(200)
      res.write('accepted, but the rest never comes')
    })
    const outcome = await sendWebhook(delivery(receiver.url), { ...LOOPBACK, timeoutMs: 300 })
    expect(outcome).toMatchObject({ ok: false, status: 200, error: 'timed out after 300 ms' })
  })

  it('does not follow a redirect: a 302 fails and its target sees nothing', async () => {
    const target = await startReceiver((res) => res.writeHead(200).end())
    const redirecting = await startReceiver((res) => res.writeHead(302, { location: target.url }).end())
    const outcome = await sendWebhook(delivery(redirecting.url), LOOPBACK)
    expect(outcome).toMatchObject({ ok: false, status: 302, error: 'redirect not followed (302)' })
    expect(redirecting.seen).toHaveLength(1)
    expect(target.seen).toHaveLength(0)
    expect(target.connections).toBe(0)
  })

  it('fails a receiver that never answers once timeoutMs has passed', async () => {
    const receiver = await startReceiver(() => {})
    const outcome = await sendWebhook(delivery(receiver.url), { ...LOOPBACK, timeoutMs: 300 })
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(250)
    expect(outcome.durationMs).toBeLessThan(4000)
    expect(receiver.seen).toHaveLength(1)
  })

  it("stops when the caller's signal aborts", async () => {
    const receiver = await startReceiver(() => {})
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const outcome = await sendWebhook(delivery(receiver.url), LOOPBACK, controller.signal)
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'aborted before the receiver answered' })
  })

  it('does not connect when the signal has already aborted', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end())
    const outcome = await sendWebhook(delivery(receiver.url), LOOPBACK, AbortSignal.abort())
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'aborted before the receiver answered' })
    await new Promise((done) => setTimeout(done, 50))
    expect(receiver.connections).toBe(0)
  })

  it('fails a refused connection with no status', async () => {
    const receiver = await startReceiver(() => {})
    const closed = receiver.url
    const server = servers.pop()!
    await new Promise((done) => server.close(done))
    const outcome = await sendWebhook(delivery(closed), LOOPBACK)
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'connection refused (ECONNREFUSED)' })
  })

  it('reuses one keep-alive connection through the agents', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end('ok'))
    const agents = createWebhookAgents()
    try {
      for (let i = 0; i < 3; i++) {
        expect(await sendWebhook(delivery(receiver.url), LOOPBACK, undefined, agents)).toMatchObject({
          ok: true,
          status: 200,
        })
      }
    } finally {
      agents.close()
    }
    expect(receiver.seen).toHaveLength(3)
    expect(receiver.connections).toBe(1)
  })
})

/**
 * This host's own name resolves (through the system resolver, not a URL rule) to a loopback or
 * private address on most machines: a delivery to it is refused at lookup time.
 */
const own = hostname()
const ownAddresses = await lookup(own, { all: true }).catch(() => [])
const ownIsInternal = ownAddresses.length > 0 && ownAddresses.every((a) => !isPublicAddress(a.address))

describe('sendWebhook refuses what is not the public internet', () => {
  it('refuses http://127.0.0.1 without allowLoopback, before any connection', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end())
    const outcome = await sendWebhook(delivery(receiver.url), STRICT)
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'url not allowed: url must use https' })
    const literal = await sendWebhook(delivery(`https://127.0.0.1:${receiver.port}/`), STRICT)
    expect(literal).toMatchObject({ ok: false, status: null })
    expect(literal.ok === false && literal.error).toMatch(
      /^url not allowed: url must point at a public address/,
    )
    expect(receiver.connections).toBe(0)
  })

  it('refuses https://localhost without allowLoopback, before any connection', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end())
    const outcome = await sendWebhook(delivery(`https://localhost:${receiver.port}/`), STRICT)
    expect(outcome).toMatchObject({ ok: false, status: null })
    expect(receiver.connections).toBe(0)
  })

  it('reaches http://localhost with allowLoopback', async () => {
    const receiver = await startReceiver((res) => res.writeHead(202).end())
    const outcome = await sendWebhook(delivery(`http://localhost:${receiver.port}/`), LOOPBACK)
    expect(outcome).toMatchObject({ ok: true, status: 202 })
    expect(receiver.seen).toHaveLength(1)
  })

  it('the checked lookup refuses a name that resolves to loopback, and passes it with allowLoopback', async () => {
    const resolve = (allowLoopback: boolean, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((done) =>
        createCheckedLookup(allowLoopback)('localhost', { all }, (error, address) =>
          done({ error, address }),
        ),
      )
    const expected = (await lookup('localhost', { all: true })).map((a) => a.address)
    expect(expected.length).toBeGreaterThan(0)

    const refused = await resolve(false, true)
    expect(refused.error?.message).toBe(`address not allowed: ${expected[0]}`)
    const allowed = await resolve(true, true)
    expect(allowed.error).toBeNull()
    expect((allowed.address as { address: string }[]).map((a) => a.address)).toEqual(expected)
    const single = await resolve(true, false)
    expect(single).toEqual({ error: null, address: expected[0] })
  })

  it.skipIf(!ownIsInternal)('refuses a host name that resolves to an internal address', async () => {
    let connections = 0
    const server = http.createServer((_req, res) => res.end())
    server.on('connection', () => {
      connections += 1
    })
    servers.push(server)
    await new Promise<void>((done) => server.listen(0, done))
    const port = (server.address() as AddressInfo).port
    const outcome = await sendWebhook(delivery(`https://${own}:${port}/`), STRICT)
    expect(outcome).toMatchObject({
      ok: false,
      status: null,
      error: `address not allowed: ${ownAddresses[0]!.address}`,
    })
    expect(connections).toBe(0)
  })
})

/**
 * A self-signed certificate for localhost, made by the openssl command (null where it is not
 * installed): a receiver whose certificate no authority signed.
 */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } | null {
  const dir = mkdtempSync(join(tmpdir(), 'strata-webhook-tls-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
  } catch {
    return null
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
const tls = selfSignedCertificate()

describe('sendWebhook over TLS', () => {
  it.skipIf(tls === null)('refuses a certificate no authority signed, even with allowLoopback', async () => {
    let requests = 0
    const server = https.createServer(tls!, (_req, res) => {
      requests += 1
      res.end()
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const port = (server.address() as AddressInfo).port
      const outcome = await sendWebhook(delivery(`https://localhost:${port}/`), LOOPBACK)
      expect(outcome).toMatchObject({
        ok: false,
        status: null,
        error: 'tls error (DEPTH_ZERO_SELF_SIGNED_CERT)',
      })
      expect(requests).toBe(0)
    } finally {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    }
  })
})

describe('retryDelayMs', () => {
  const schedule = [5_000, 60_000, 600_000]

  it('waits schedule[attempt - 1] and then stops', () => {
    const middle = () => 0.5
    expect(retryDelayMs(schedule, 1, middle)).toBe(5_000)
    expect(retryDelayMs(schedule, 2, middle)).toBe(60_000)
    expect(retryDelayMs(schedule, 3, middle)).toBe(600_000)
    expect(retryDelayMs(schedule, 4, middle)).toBeNull()
    expect(retryDelayMs([], 1, middle)).toBeNull()
    expect(() => retryDelayMs(schedule, 0)).toThrow(RangeError)
    expect(() => retryDelayMs(schedule, 1.5)).toThrow(RangeError)
  })

  it('jitters by at most 10% either way', () => {
    expect(retryDelayMs(schedule, 2, () => 0)).toBe(54_000)
    expect(retryDelayMs(schedule, 2, () => 0.75)).toBe(63_000)
    expect(retryDelayMs(schedule, 2, () => 0.999999)).toBe(66_000)
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(schedule, 1)!
      expect(delay).toBeGreaterThanOrEqual(4_500)
      expect(delay).toBeLessThanOrEqual(5_500)
    }
  })
})
