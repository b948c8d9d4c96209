import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestDatabase } from '../support/database.ts'
import { type ServerProcess, startServerProcess } from '../support/process.ts'
import { createKeyedPostgres, FAULT_PEPPER } from './support/keyed-store.ts'

// A NUL character anywhere in a request, against a real `strata serve` on PostgreSQL (which cannot
// store one in text): every answer is a 400 in the error envelope, never a 500, and the server logs
// no stack for any of them (issue 28: each used to log 1.5 KB, a log-flooding vector).

const ADMIN = 'a'.repeat(32)
const ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

/** Sends `request` as raw bytes on one connection and returns the status line's code. */
function rawStatus(url: string, request: string): Promise<number> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer)
      match ? resolve(Number(match[1])) : reject(new Error(`no status line in ${JSON.stringify(answer)}`))
    })
    socket.end(request)
  })
}

describe('a NUL byte anywhere, on PostgreSQL, through a real server', () => {
  let testDb: TestDatabase
  let server: ServerProcess
  let key: string
  beforeAll(async () => {
    const keyed = await createKeyedPostgres('nul')
    testDb = keyed.testDb
    key = keyed.key
    server = await startServerProcess(['serve'], {
      ...testDb.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      STRATA_KEY_PEPPER: FAULT_PEPPER,
      STRATA_JWT_SECRET: 'j'.repeat(48),
      STRATA_ADMIN_TOKEN: ADMIN,
    })
  })
  afterAll(async () => {
    await server?.stop()
    await testDb?.drop()
  })

  it('answers 400 invalid_request for each, logs no stack, and keeps answering', async () => {
    const json = { 'content-type': 'application/json' }
    const signup = await fetch(`${server.url}/v1/auth/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        organization_name: 'Nul org',
        organization_slug: 'nul-org',
        email: 'nul-org@example.com',
        password: 'a long enough password',
      }),
    })
    expect(signup.status).toBe(201)
    const { access_token: token } = (await signup.json()) as { access_token: string }
    const cases: Array<{ what: string; url: string; init?: RequestInit }> = [
      {
        what: 'address path',
        url: '/v1/users/%00/positions/vaultprotocol',
        init: { headers: { 'x-svc-token': key } },
      },
      {
        what: 'query',
        url: `/v1/users/${ADDRESS}/positions?as_of_ledger=1%00`,
        init: { headers: { 'x-svc-token': key } },
      },
      {
        what: 'login email (no credential)',
        url: '/v1/auth/login',
        init: { method: 'POST', headers: json, body: '{"email":"a\\u0000@example.com","password":"x"}' },
      },
      {
        what: 'signup name',
        url: '/v1/auth/signup',
        init: {
          method: 'POST',
          headers: json,
          body: '{"organization_name":"N\\u0000","organization_slug":"nul-three","email":"nul@example.com","password":"a long enough password"}',
        },
      },
      {
        what: 'admin key name',
        url: '/v1/org/api-keys',
        init: {
          method: 'POST',
          headers: { ...json, 'x-svc-admin-token': ADMIN },
          body: '{"organization_name":"N","organization_slug":"nul-two","key_name":"k\\u0000"}',
        },
      },
      {
        what: 'key id',
        url: '/v1/org/api-keys/key%00x',
        init: { method: 'DELETE', headers: { authorization: `Bearer ${token}` } },
      },
    ]
    for (const { what, url, init } of cases) {
      const response = await fetch(`${server.url}${url}`, init)
      const body = (await response.json()) as { error?: { code: string } }
      expect({ what, status: response.status, code: body.error?.code }).toEqual({
        what,
        status: 400,
        code: 'invalid_request',
      })
    }
    // A raw NUL in the request line is refused by the HTTP parser itself, as a 400.
    expect(await rawStatus(server.url, 'GET /v1/health\0 HTTP/1.1\r\nHost: x\r\n\r\n')).toBe(400)

    const health = await fetch(`${server.url}/v1/health`)
    expect(health.status).toBe(200)
    const logs = server.output()
    expect(logs).not.toMatch(/invalid byte sequence/)
    expect(logs).not.toMatch(/"level":50/)
    expect(logs).not.toMatch(/\\n\s+at /)
  })
})
