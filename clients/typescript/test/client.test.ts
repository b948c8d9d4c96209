import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseDemoAccounts } from '../../../src/api/routes/demo.ts'
import { ADMIN_TOKEN } from '../../../test/support/app.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../../../test/support/indexed-devnet.ts'
import {
  type Activities,
  type AllPositions,
  type AllPositionsAt,
  type AmmPositions,
  type Answer,
  createStrataClient,
  type ErrorEnvelope,
  type Health,
  type LendingPositions,
  type Protocols,
  type StrataClient,
  type StrataClientOptions,
  type VaultPositions,
  type YieldPositions,
} from '../src/index.ts'

/** The repository's root, where npm's workspace is. */
const REPOSITORY = resolve(import.meta.dirname, '../../..')
const execFileAsync = promisify(execFile)

/**
 * Runs a command to completion without blocking this process (the server under test answers from
 * it): its standard output, or an error carrying everything it printed.
 */
async function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { ...options, encoding: 'utf8', timeout: 120_000 })
    return stdout
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string }
    throw new Error(
      `${command} ${args.join(' ')} exited ${failed.code}:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    )
  }
}

/** A world small enough to index in seconds, busy enough that every protocol has holders. */
const WORLD = { seed: 'strata-demo', ledgers: 600, accounts: 80 }

/** What differs between two askings of the same thing: the request's id and its timing. */
// biome-ignore lint/suspicious/noExplicitAny: answers are compared as plain JSON
function stable(body: any): unknown {
  if (body === null || body === undefined) return body
  const copy = structuredClone(body)
  if (copy.meta && typeof copy.meta === 'object') {
    delete copy.meta.request_id
    delete copy.meta.response_time_ms
  }
  return copy
}

/** What one request through the client looked like on the wire. */
interface Sent {
  method: string
  url: string
  headers: Record<string, string>
}

describe('the typed client against a live server', () => {
  let w: IndexedDevnet
  let base: string
  let holders: Record<string, string>
  let several: string
  let head: number
  let past: number
  const sent: Sent[] = []
  /** `METHOD /path/{template}` → the statuses the client received for it. */
  const answered = new Map<string, number[]>()

  /** A client that records what it sends and which operation each answer was for. */
  function client(
    options: Pick<StrataClientOptions, 'apiKey' | 'accessToken' | 'adminToken'> = {},
  ): StrataClient {
    const c = createStrataClient({
      baseUrl: base,
      ...options,
      fetch: (request) => {
        sent.push({
          method: request.method,
          url: request.url.slice(base.length),
          headers: Object.fromEntries(request.headers),
        })
        return fetch(request)
      },
    })
    c.use({
      onResponse({ request, response, schemaPath }) {
        const key = `${request.method} ${schemaPath}`
        answered.set(key, [...(answered.get(key) ?? []), response.status])
        return response
      },
    })
    return c
  }

  /** The same request made with plain fetch, the way the API's documentation describes it. */
  async function plain(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${base}${url}`, {
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : JSON.parse(text) }
  }

  let key: string
  let data: StrataClient

  /**
   * Asserts the client asked for exactly `url` and that its answer (data or error) is what plain
   * fetch gets for it, and returns the data.
   */
  async function same<D>(
    result: { data?: D; error?: unknown; response: Response },
    url: string,
    status = 200,
    headers: Record<string, string> = { 'x-svc-token': key },
  ): Promise<D> {
    const { pathname, search } = new URL(result.response.url)
    expect(pathname + search).toBe(url)
    expect(result.response.status, JSON.stringify(result.error ?? null)).toBe(status)
    const expected = await plain(url, { headers })
    expect(expected.status).toBe(status)
    expect(stable(result.data ?? result.error)).toEqual(stable(expected.body))
    if (status < 300) expect(result.data).toBeDefined()
    return result.data as D
  }

  beforeAll(async () => {
    w = await startIndexedDevnet(WORLD)
    await w.t.app.listen({ port: 0, host: '127.0.0.1' })
    const address = w.t.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('the app listens on no port')
    base = `http://127.0.0.1:${address.port}`
    const accounts = await chooseDemoAccounts(w.t.database)
    holders = Object.fromEntries(accounts.map((a) => [a.example_of, a.address]))
    several = holders.several!
    head = w.devnet.latestLedger()
    past = head - 200
    key = w.key
    data = client({ apiKey: key })
  }, 240_000)

  afterAll(async () => {
    await w?.close()
  })

  it('answers health as plain fetch does', async () => {
    const health = await same(await data.GET('/v1/health'), '/v1/health', 200, {})
    expect(health.indexer.last_indexed_ledger).toBe(head)
  })

  it('answers the liveness and readiness probes as plain fetch does', async () => {
    const live = await same(await data.GET('/v1/health/live'), '/v1/health/live', 200, {})
    expect(live.status).toBe('live')
    // Not ready while the last indexed ledger closed long before the app's clock: a 503 read as the
    // error; then, the clock a minute after that close, ready.
    const clock = w.t.clock
    const before = clock.now()
    const behind = await data.GET('/v1/health/ready')
    expect(behind.response.status).toBe(503)
    // The 503 is the readiness answer itself (not the error envelope) in the error's place.
    const notReady = behind.error as unknown as Answer<'/v1/health/ready', 'get'>
    expect(notReady.reasons.map((r) => r.code)).toEqual(['indexer_behind'])
    const closedAt = Math.floor(before / 1000) - (notReady.data_staleness_seconds ?? 0)
    clock.set((closedAt + 60) * 1000)
    try {
      const ready = await same(await data.GET('/v1/health/ready'), '/v1/health/ready', 200, {})
      expect(ready).toMatchObject({ status: 'ready', last_indexed_ledger: head, data_staleness_seconds: 60 })
    } finally {
      clock.set(before)
    }
  })

  it("answers each protocol's positions, pinned, at a ledger and at the head, as plain fetch does", async () => {
    const vault = holders.vaultprotocol!
    const v = await same(
      await data.GET('/v1/users/{address}/positions/vaultprotocol', { params: { path: { address: vault } } }),
      `/v1/users/${vault}/positions/vaultprotocol`,
    )
    expect(v.data.address).toBe(vault)
    expect(v.data.vaults.length).toBeGreaterThan(0)
    await same(
      await data.GET('/v1/users/{address}/positions/vaultprotocol', {
        params: { path: { address: vault }, query: { as_of_ledger: past } },
      }),
      `/v1/users/${vault}/positions/vaultprotocol?as_of_ledger=${past}`,
    )
    const vAt = await same(
      await data.GET('/v1/users/{address}/positions/vaultprotocol/at/{ledger}', {
        params: { path: { address: vault, ledger: past } },
      }),
      `/v1/users/${vault}/positions/vaultprotocol/at/${past}`,
    )
    expect(vAt.meta.requested_ledger).toBe(past)
    await same(
      await data.GET('/v1/users/{address}/positions/vaultprotocol/at/{ledger}', {
        params: { path: { address: vault, ledger: 'latest' } },
      }),
      `/v1/users/${vault}/positions/vaultprotocol/at/latest`,
    )

    const lending = holders.lendingprotocol!
    const l = await same(
      await data.GET('/v1/users/{address}/positions/lendingprotocol', {
        params: { path: { address: lending }, query: { min_ledger: head } },
      }),
      `/v1/users/${lending}/positions/lendingprotocol?min_ledger=${head}`,
    )
    expect(l.data.positions.length).toBeGreaterThan(0)
    await same(
      await data.GET('/v1/users/{address}/positions/lendingprotocol/at/{ledger}', {
        params: { path: { address: lending, ledger: past } },
      }),
      `/v1/users/${lending}/positions/lendingprotocol/at/${past}`,
    )

    const amm = holders.ammprotocol!
    const a = await same(
      await data.GET('/v1/users/{address}/positions/ammprotocol', { params: { path: { address: amm } } }),
      `/v1/users/${amm}/positions/ammprotocol`,
    )
    expect(a.data.positions.length).toBeGreaterThan(0)
    await same(
      await data.GET('/v1/users/{address}/positions/ammprotocol/at/{ledger}', {
        params: { path: { address: amm, ledger: 'latest' } },
      }),
      `/v1/users/${amm}/positions/ammprotocol/at/latest`,
    )

    const yieldHolder = holders.yieldprotocol!
    const y = await same(
      await data.GET('/v1/users/{address}/positions/yieldprotocol', {
        params: { path: { address: yieldHolder } },
      }),
      `/v1/users/${yieldHolder}/positions/yieldprotocol`,
    )
    expect(y.data.positions.length).toBeGreaterThan(0)
    await same(
      await data.GET('/v1/users/{address}/positions/yieldprotocol/at/{ledger}', {
        params: { path: { address: yieldHolder, ledger: head } },
      }),
      `/v1/users/${yieldHolder}/positions/yieldprotocol/at/${head}`,
    )
  })

  it("pages each protocol's history through the cursor to the same snapshots as one plain page", async () => {
    const histories = [
      ['vaultprotocol', '/v1/users/{address}/positions/vaultprotocol/history'],
      ['lendingprotocol', '/v1/users/{address}/positions/lendingprotocol/history'],
      ['ammprotocol', '/v1/users/{address}/positions/ammprotocol/history'],
      ['yieldprotocol', '/v1/users/{address}/positions/yieldprotocol/history'],
    ] as const
    for (const [protocol, path] of histories) {
      const address = holders[protocol]!
      const whole = (await plain(`/v1/users/${address}/positions/${protocol}/history?limit=500`, {
        headers: { 'x-svc-token': key },
      })) as { status: number; body: { data: { snapshots: unknown[] } } }
      expect(whole.status).toBe(200)
      expect(whole.body.data.snapshots.length).toBeGreaterThan(0)
      const paged: unknown[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await data.GET(path, {
          params: { path: { address }, query: { limit: 2, ...(cursor ? { cursor } : {}) } },
        })
        expect(page.error).toBeUndefined()
        paged.push(...page.data!.data.snapshots)
        cursor = page.data!.meta.next_cursor ?? undefined
        pages += 1
      } while (cursor !== undefined && pages < 1000)
      expect(paged).toEqual(whole.body.data.snapshots)
      await same(
        await data.GET(path, {
          params: {
            path: { address },
            query: { from_ledger: past, to_ledger: head, limit: 3 },
          },
        }),
        `/v1/users/${address}/positions/${protocol}/history?from_ledger=${past}&to_ledger=${head}&limit=3`,
      )
    }
  })

  it('answers all positions, at a ledger and at the head, as plain fetch does', async () => {
    const all = await same(
      await data.GET('/v1/users/{address}/positions', {
        params: { path: { address: several }, query: { as_of_ledger: past } },
      }),
      `/v1/users/${several}/positions?as_of_ledger=${past}`,
    )
    expect(all.data.address).toBe(several)
    await same(
      await data.GET('/v1/users/{address}/positions', { params: { path: { address: several } } }),
      `/v1/users/${several}/positions`,
    )
    const pinned = await same(
      await data.GET('/v1/users/{address}/positions/at/{ledger}', {
        params: { path: { address: several, ledger: past } },
      }),
      `/v1/users/${several}/positions/at/${past}`,
    )
    expect(pinned.meta.requested_ledger).toBe(past)
    const latest = await same(
      await data.GET('/v1/users/{address}/positions/at/{ledger}', {
        params: { path: { address: several, ledger: 'latest' } },
      }),
      `/v1/users/${several}/positions/at/latest`,
    )
    expect(latest.meta.requested_ledger).toBeNull()
    expect(latest.meta.last_indexed_ledger).toBe(head)
  })

  it('answers activities, their series and a transaction as plain fetch does', async () => {
    const page = await same(
      await data.GET('/v1/users/{address}/activities', {
        params: { path: { address: several }, query: { limit: 5 } },
      }),
      `/v1/users/${several}/activities?limit=5`,
    )
    expect(page.data.activities.length).toBeGreaterThan(0)
    const cursor = page.meta.next_cursor
    expect(cursor).not.toBeNull()
    await same(
      await data.GET('/v1/users/{address}/activities', {
        params: {
          path: { address: several },
          query: { protocol: 'vaultprotocol', limit: 5, cursor: cursor! },
        },
      }),
      `/v1/users/${several}/activities?protocol=vaultprotocol&limit=5&cursor=${encodeURIComponent(cursor!)}`,
    )
    const series = await same(
      await data.GET('/v1/users/{address}/activities/series', {
        params: { path: { address: several }, query: { interval: 'day' } },
      }),
      `/v1/users/${several}/activities/series?interval=day`,
    )
    expect(series.data.address).toBe(several)
    const hash = page.data.activities[0]!.tx_hash
    const tx = await same(
      await data.GET('/v1/transactions/{hash}', { params: { path: { hash } } }),
      `/v1/transactions/${hash}`,
    )
    expect(tx.data.hash).toBe(hash)
  })

  it('answers the protocols, their pools, reserves, emissions and TVL as plain fetch does', async () => {
    const first = await same(
      await data.GET('/v1/protocols', { params: { query: { limit: 2 } } }),
      '/v1/protocols?limit=2',
    )
    expect(first.data.map((p) => p.name)).toEqual(['vaultprotocol', 'lendingprotocol'])
    const rest = await same(
      await data.GET('/v1/protocols', { params: { query: { cursor: first.meta.next_cursor! } } }),
      `/v1/protocols?cursor=${encodeURIComponent(first.meta.next_cursor!)}`,
    )
    expect(rest.data.map((p) => p.name)).toEqual(['ammprotocol', 'yieldprotocol'])
    // Long after the checkpoint closed: the checkpoint, partial.
    const time = '2100-01-01T00:00:00Z'
    const at = await same(
      await data.GET('/v1/ledgers/at-time', { params: { query: { time } } }),
      `/v1/ledgers/at-time?time=${encodeURIComponent(time)}`,
    )
    expect(at.data?.ledger).toBe(at.meta.last_indexed_ledger)
    expect(at.meta.partial_result).toBe(true)
    // A contract of each kind the holders hold a position in.
    const groupOf = async (protocol: 'lendingprotocol' | 'ammprotocol' | 'yieldprotocol') => {
      const answer = await plain(`/v1/users/${holders[protocol]}/positions/${protocol}`, {
        headers: { 'x-svc-token': key },
      })
      return (answer.body as { data: { groups: Array<{ contract_address: string }> } }).data.groups[0]!
        .contract_address
    }
    const pool = await groupOf('lendingprotocol')
    const p = await same(
      await data.GET('/v1/protocols/lendingprotocol/pools/{pool}', { params: { path: { pool } } }),
      `/v1/protocols/lendingprotocol/pools/${pool}`,
    )
    expect(p.data.contract_address).toBe(pool)
    await same(
      await data.GET('/v1/protocols/lendingprotocol/reserves', {
        params: { query: { as_of_ledger: past } },
      }),
      `/v1/protocols/lendingprotocol/reserves?as_of_ledger=${past}`,
    )
    await same(
      await data.GET('/v1/protocols/lendingprotocol/emissions'),
      '/v1/protocols/lendingprotocol/emissions',
    )

    const pair = await groupOf('ammprotocol')
    const pr = await same(
      await data.GET('/v1/protocols/ammprotocol/pools/{pool}', { params: { path: { pool: pair } } }),
      `/v1/protocols/ammprotocol/pools/${pair}`,
    )
    expect(pr.data.contract_address).toBe(pair)
    await same(await data.GET('/v1/protocols/ammprotocol/reserves'), '/v1/protocols/ammprotocol/reserves')

    const vault = await groupOf('yieldprotocol')
    const yv = await same(
      await data.GET('/v1/protocols/yieldprotocol/pools/{pool}', { params: { path: { pool: vault } } }),
      `/v1/protocols/yieldprotocol/pools/${vault}`,
    )
    expect(yv.data.contract_address).toBe(vault)
    await same(await data.GET('/v1/protocols/yieldprotocol/reserves'), '/v1/protocols/yieldprotocol/reserves')

    const tvl = await same(
      await data.GET('/v1/protocols/vaultprotocol/tvl', { params: { query: { as_of_ledger: past } } }),
      `/v1/protocols/vaultprotocol/tvl?as_of_ledger=${past}`,
    )
    expect(tvl.data).toMatchObject({ protocol: 'vaultprotocol' })
    await same(
      await data.GET('/v1/protocols/lendingprotocol/tvl', { params: { query: { interval: 'hour' } } }),
      '/v1/protocols/lendingprotocol/tvl?interval=hour',
    )
    await same(await data.GET('/v1/protocols/ammprotocol/tvl'), '/v1/protocols/ammprotocol/tvl')
    await same(
      await data.GET('/v1/protocols/yieldprotocol/tvl', {
        params: { query: { interval: 'day', from_ledger: past, to_ledger: head } },
      }),
      `/v1/protocols/yieldprotocol/tvl?interval=day&from_ledger=${past}&to_ledger=${head}`,
    )
  })

  it("types a refusal on error with the envelope's code, as plain fetch gets it", async () => {
    const vault = holders.vaultprotocol!
    const anonymous = client()
    const refused = await anonymous.GET('/v1/users/{address}/positions/vaultprotocol', {
      params: { path: { address: vault } },
    })
    expect(refused.data).toBeUndefined()
    expect(refused.error?.error.code).toBe('unauthorized')
    await same(refused, `/v1/users/${vault}/positions/vaultprotocol`, 401, {})
    const invalid = await data.GET('/v1/users/{address}/positions/vaultprotocol', {
      params: { path: { address: 'GNOTANADDRESS' } },
    })
    expect(invalid.error?.error.code).toBe('invalid_address')
    await same(invalid, '/v1/users/GNOTANADDRESS/positions/vaultprotocol', 400)
    const tooMany = await data.GET('/v1/protocols', { params: { query: { limit: 501 } } })
    expect(tooMany.error?.error.details?.map((d) => d.field)).toEqual(['limit'])
  })

  it('signs up, logs in, refreshes, manages the organization and its keys, and logs out', async () => {
    const slug = `client-${Date.now().toString(36)}`
    const email = `${slug}@example.com`
    const password = `pw-${slug}-0123456789`
    const anonymous = client()
    const signup = await anonymous.POST('/v1/auth/signup', {
      body: { organization_name: 'Client Org', organization_slug: slug, email, password },
    })
    expect(signup.response.status, JSON.stringify(signup.error)).toBe(201)
    expect(signup.data!.organization_slug).toBe(slug)
    expect(signup.data!.api_key.key).toMatch(/^strata_/)
    const firstKeyId = signup.data!.api_key.api_key_id

    const login = await anonymous.POST('/v1/auth/login', { body: { email, password } })
    expect(login.response.status, JSON.stringify(login.error)).toBe(200)
    const wrong = await anonymous.POST('/v1/auth/login', { body: { email, password: `${password}-wrong` } })
    expect(wrong.error?.error.code).toBe('unauthorized')

    const refreshed = await anonymous.POST('/v1/auth/refresh', {
      body: { refresh_token: login.data!.refresh_token },
    })
    expect(refreshed.response.status, JSON.stringify(refreshed.error)).toBe(200)
    // The access token is asked for before each request: the refreshed one is used from now on.
    let accessToken = login.data!.access_token
    const member = client({ accessToken: () => accessToken })
    accessToken = refreshed.data!.access_token
    const bearer = () => ({ authorization: `Bearer ${accessToken}` })

    const org = await same(await member.GET('/v1/org'), '/v1/org', 200, bearer())
    expect(org).toMatchObject({ slug, name: 'Client Org', plan: 'free' })
    expect(sent.at(-1)!.headers.authorization).toBe(`Bearer ${refreshed.data!.access_token}`)

    const billing = await member.PATCH('/v1/org/billing', { body: { billing_email: `billing-${email}` } })
    expect(billing.response.status, JSON.stringify(billing.error)).toBe(200)
    expect(billing.data!.billing_email).toBe(`billing-${email}`)
    const above = await member.PATCH('/v1/org/billing', { body: { plan: 'enterprise' } })
    expect(above.error?.error.code).toBe('forbidden')
    expect((await member.GET('/v1/org')).data!.billing_email).toBe(`billing-${email}`)

    const created = await member.POST('/v1/org/api-keys/new', { body: { name: 'from the client' } })
    expect(created.response.status, JSON.stringify(created.error)).toBe(201)
    const own = created.data!
    const ownKey = client({ apiKey: own.key })
    const vault = holders.vaultprotocol!
    const withOwn = await ownKey.GET('/v1/users/{address}/positions/vaultprotocol', {
      params: { path: { address: vault } },
    })
    expect(withOwn.data!.data.address).toBe(vault)
    // That request is the organization's usage, in its window and its day.
    const usage = await same(await member.GET('/v1/org/usage'), '/v1/org/usage', 200, bearer())
    expect(usage.rate_limit.used).toBeGreaterThanOrEqual(1)
    expect(usage.today.requests).toBeGreaterThanOrEqual(1)
    expect(usage.days).toHaveLength(30)
    expect(usage.days.at(-1)).toEqual(usage.today)

    const rotated = await member.POST('/v1/org/api-keys/{id}/rotate', {
      params: { path: { id: own.api_key_id } },
      body: { old_key_expires_in_seconds: 0 },
    })
    expect(rotated.response.status, JSON.stringify(rotated.error)).toBe(201)
    expect(rotated.data!.key).not.toBe(own.key)
    const afterRotation = await ownKey.GET('/v1/users/{address}/positions/vaultprotocol', {
      params: { path: { address: vault } },
    })
    expect(afterRotation.error?.error.code).toBe('unauthorized')

    const keys = await same(await member.GET('/v1/org/api-keys'), '/v1/org/api-keys', 200, bearer())
    expect(keys.map((k) => k.id).sort()).toEqual(
      [firstKeyId, own.api_key_id, rotated.data!.api_key_id].sort(),
    )
    expect(keys.find((k) => k.id === rotated.data!.api_key_id)!.prefix).toBe(rotated.data!.key_prefix)

    const revoked = await member.DELETE('/v1/org/api-keys/{id}', {
      params: { path: { id: rotated.data!.api_key_id } },
    })
    expect(revoked.response.status, JSON.stringify(revoked.error)).toBe(204)
    const gone = await client({ apiKey: rotated.data!.key }).GET('/v1/protocols')
    expect(gone.error?.error.code).toBe('unauthorized')
    const last = await member.DELETE('/v1/org/api-keys/{id}', { params: { path: { id: firstKeyId } } })
    expect(last.error?.error.code).toBe('conflict')
    const confirmed = await member.DELETE('/v1/org/api-keys/{id}', {
      params: { path: { id: firstKeyId }, query: { confirm: 'last_key' } },
    })
    expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(204)

    const audit = await same(
      await member.GET('/v1/org/audit-log', { params: { query: { limit: 100 } } }),
      '/v1/org/audit-log?limit=100',
      200,
      bearer(),
    )
    const actions = audit.data.map((e) => e.action)
    for (const action of [
      'organization.created',
      'user.login',
      'api_key.created',
      'api_key.rotated',
      'api_key.revoked',
    ]) {
      expect(actions).toContain(action)
    }

    const logout = await member.POST('/v1/auth/logout', {
      body: { refresh_token: login.data!.refresh_token },
    })
    expect(logout.response.status, JSON.stringify(logout.error)).toBe(204)
    const afterLogout = await anonymous.POST('/v1/auth/refresh', {
      body: { refresh_token: login.data!.refresh_token },
    })
    expect(afterLogout.error?.error.code).toBe('unauthorized')
  })

  it('manages webhook subscriptions: create, list, read, update, rotate, deliveries, redelivery, delete', async () => {
    const slug = `client-hooks-${Date.now().toString(36)}`
    const email = `${slug}@example.com`
    const signup = await client().POST('/v1/auth/signup', {
      body: {
        organization_name: 'Hooks Org',
        organization_slug: slug,
        email,
        password: `pw-${slug}-0123456789`,
      },
    })
    expect(signup.response.status, JSON.stringify(signup.error)).toBe(201)
    const token = signup.data!.access_token
    const member = client({ accessToken: token })
    const bearer = { authorization: `Bearer ${token}` }
    const vault = holders.vaultprotocol!

    const created = await member.POST('/v1/webhooks', {
      body: {
        url: 'https://hooks.example.com/client',
        events: ['position.changed', 'health_factor.below'],
        addresses: [vault],
        health_factor_threshold: '1.2',
      },
    })
    expect(created.response.status, JSON.stringify(created.error)).toBe(201)
    const hook = created.data!
    expect(hook.secret).toMatch(/^whsec_/)
    expect(hook).toMatchObject({ addresses: [vault], protocols: null, status: 'enabled' })
    expect(sent.at(-1)!.headers.authorization).toBe(`Bearer ${token}`)

    const list = await same(await member.GET('/v1/webhooks'), '/v1/webhooks', 200, bearer)
    expect(list.data.map((w) => w.id)).toEqual([hook.id])
    expect(JSON.stringify(list)).not.toContain(hook.secret)
    const one = await same(
      await member.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }),
      `/v1/webhooks/${hook.id}`,
      200,
      bearer,
    )
    expect(one.url).toBe('https://hooks.example.com/client')

    const disabled = await member.PATCH('/v1/webhooks/{id}', {
      params: { path: { id: hook.id } },
      body: { status: 'disabled' },
    })
    expect(disabled.response.status, JSON.stringify(disabled.error)).toBe(200)
    expect(disabled.data!.status).toBe('disabled')
    const refused = await member.PATCH('/v1/webhooks/{id}', {
      params: { path: { id: hook.id } },
      body: { url: 'http://hooks.example.com/plain' },
    })
    expect(refused.error?.error.details?.map((d) => d.field)).toEqual(['url'])

    const rotated = await member.POST('/v1/webhooks/{id}/rotate-secret', {
      params: { path: { id: hook.id } },
    })
    expect(rotated.response.status, JSON.stringify(rotated.error)).toBe(200)
    expect(rotated.data!.secret).not.toBe(hook.secret)
    expect(Date.parse(rotated.data!.previous_secret_expires_at)).toBeGreaterThan(Date.parse(hook.created_at))

    const deliveries = await same(
      await member.GET('/v1/webhooks/{id}/deliveries', {
        params: { path: { id: hook.id }, query: { status: 'failed', limit: 10 } },
      }),
      `/v1/webhooks/${hook.id}/deliveries?status=failed&limit=10`,
      200,
      bearer,
    )
    expect(deliveries).toEqual({ data: [], meta: { limit: 10, next_cursor: null } })
    // One message in the outbox, as the indexer writes them, sent again on demand (its receiver
    // does not exist: the delivery answers the failed attempt).
    const message = await w.t.database.db
      .insertInto('webhook_messages')
      .values({
        webhook_id: hook.id,
        type: 'position.changed',
        ledger: head,
        address: several.split(',')[0]!,
        protocol: 'vaultprotocol',
        ref: null,
        payload: '{"type":"position.changed"}',
        status: 'pending',
        attempts: 0,
        created_at: Date.now(),
      })
      .returning('seq')
      .executeTakeFirstOrThrow()
    const redelivered = await member.POST('/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
      params: { path: { id: hook.id, delivery_id: `msg_${message.seq}` } },
    })
    expect(redelivered.response.status, JSON.stringify(redelivered.error)).toBe(200)
    expect(redelivered.data).toMatchObject({ id: `msg_${message.seq}`, attempts: 1, status: 'pending' })
    expect(redelivered.data!.last_error).toEqual(expect.any(String))
    const unknown = await member.POST('/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
      params: { path: { id: hook.id, delivery_id: 'msg_999999' } },
    })
    expect(unknown.error?.error.code).toBe('not_found')

    const deleted = await member.DELETE('/v1/webhooks/{id}', { params: { path: { id: hook.id } } })
    expect(deleted.response.status, JSON.stringify(deleted.error)).toBe(204)
    const gone = await member.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } })
    expect(gone.error?.error.code).toBe('not_found')
  })

  it("creates a key on the operator's admin endpoint with the admin token, and refuses it without", async () => {
    const slug = `client-admin-${Date.now().toString(36)}`
    const body = { organization_name: 'Admin Org', organization_slug: slug, key_name: 'operator key' }
    const refused = await client().POST('/v1/org/api-keys', { body })
    expect(refused.error?.error.code).toBe('unauthorized')
    const admin = client({ adminToken: ADMIN_TOKEN, apiKey: key })
    const created = await admin.POST('/v1/org/api-keys', { body })
    expect(created.response.status, JSON.stringify(created.error)).toBe(201)
    expect(created.data).toMatchObject({ organization_slug: slug, organization_reused: false })
    const answer = await client({ apiKey: created.data!.key }).GET('/v1/protocols')
    expect(answer.data!.data.length).toBe(4)
    // The admin token went to the admin endpoint only, the API key to the data endpoint only.
    const adminRequest = sent.findLast((s) => s.method === 'POST' && s.url === '/v1/org/api-keys')!
    expect(adminRequest.headers['x-svc-admin-token']).toBe(ADMIN_TOKEN)
    expect(adminRequest.headers['x-svc-token']).toBeUndefined()
  })

  it('opens the stream of position changes and reads its first event, the history item of its snapshot', async () => {
    const streamed = await data.GET('/v1/stream/positions', {
      params: { query: { addresses: several, from_ledger: past, to_ledger: head } },
      parseAs: 'stream',
    })
    expect(streamed.response.status).toBe(200)
    expect(streamed.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    // `to_ledger` ends the stream: the whole of it is read.
    const text = await new Response(streamed.data as ReadableStream).text()
    const line = text.split('\n').find((l) => l.startsWith('data: '))
    expect(line).toBeDefined()
    const event = JSON.parse(line!.slice('data: '.length))
    expect(event.type).toBe('position.changed')
    expect(event.address).toBe(several)
    const history = await plain(
      `/v1/users/${several}/positions/${event.protocol}/history?from_ledger=${event.ledger}&to_ledger=${event.ledger}`,
      { headers: { 'x-svc-token': key } },
    )
    expect(event.item).toEqual((history.body as { data: { snapshots: unknown[] } }).data.snapshots[0])
  })

  it('sends each credential only to the operations that take it', async () => {
    const everything = client({ apiKey: key, accessToken: 'not-a-token', adminToken: ADMIN_TOKEN })
    await everything.GET('/v1/protocols')
    const dataRequest = sent.at(-1)!
    expect(dataRequest.headers['x-svc-token']).toBe(key)
    expect(dataRequest.headers.authorization).toBeUndefined()
    expect(dataRequest.headers['x-svc-admin-token']).toBeUndefined()
    await everything.GET('/v1/org')
    const managementRequest = sent.at(-1)!
    expect(managementRequest.headers.authorization).toBe('Bearer not-a-token')
    expect(managementRequest.headers['x-svc-token']).toBeUndefined()
    await everything.GET('/v1/health')
    expect(Object.keys(sent.at(-1)!.headers).filter((h) => /token|authorization/.test(h))).toEqual([])
    // A header the call sets itself wins over the client's.
    const other = await everything.GET('/v1/protocols', { headers: { 'x-svc-token': 'strata_nope' } })
    expect(sent.at(-1)!.headers['x-svc-token']).toBe('strata_nope')
    expect(other.error?.error.code).toBe('unauthorized')
  })

  it('names the main answers with the types the operations answer', async () => {
    // Each assignment compiles only when the name is the operation's answer (a name that had
    // become \`never\` or another shape fails the type check); the values are checked as well.
    const vault = holders.vaultprotocol!
    const path = { address: vault }
    const vaults: VaultPositions = (
      await data.GET('/v1/users/{address}/positions/vaultprotocol', { params: { path } })
    ).data!
    const lending: LendingPositions = (
      await data.GET('/v1/users/{address}/positions/lendingprotocol', { params: { path } })
    ).data!
    const amm: AmmPositions = (
      await data.GET('/v1/users/{address}/positions/ammprotocol', { params: { path } })
    ).data!
    const yields: YieldPositions = (
      await data.GET('/v1/users/{address}/positions/yieldprotocol', { params: { path } })
    ).data!
    const all: AllPositions = (await data.GET('/v1/users/{address}/positions', { params: { path } })).data!
    const allAt: AllPositionsAt = (
      await data.GET('/v1/users/{address}/positions/at/{ledger}', {
        params: { path: { ...path, ledger: head } },
      })
    ).data!
    const activities: Activities = (await data.GET('/v1/users/{address}/activities', { params: { path } }))
      .data!
    const protocols: Protocols = (await data.GET('/v1/protocols')).data!
    const health: Health = (await data.GET('/v1/health')).data!
    const refused: ErrorEnvelope = (await client().GET('/v1/org')).error!
    for (const answer of [vaults, lending, amm, yields, all, allAt, activities])
      expect(answer.data.address).toBe(vault)
    expect(protocols.data).toHaveLength(4)
    expect(health.indexer.last_indexed_ledger).toBe(head)
    expect(refused.error.code).toBe('unauthorized')
    expect(refused.meta.request_id).toEqual(expect.any(String))
  })

  it('refuses a baseUrl that is not an absolute http URL, before any request', () => {
    expect(() => createStrataClient({ baseUrl: '127.0.0.1:3000/v1' })).toThrow(/baseUrl must be/)
    expect(() => createStrataClient({ baseUrl: 'ftp://example.com' })).toThrow(/http or https/)
  })

  it("packs, installs and runs the README's five lines outside the repository, and they type-check", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-client-'))
    try {
      // npm's own variables (set when the suite runs under `npm test`) would point the child npm
      // at this repository's workspace.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
      const packed = await run(
        'npm',
        ['pack', '-w', '@strata/client', '--pack-destination', dir, '--silent'],
        {
          cwd: REPOSITORY,
          env,
        },
      )
      const tarball = join(dir, packed.trim().split('\n').at(-1)!)
      expect(existsSync(tarball), packed).toBe(true)

      const readme = readFileSync(join(REPOSITORY, 'clients/typescript/README.md'), 'utf8')
      const section = readme.slice(readme.indexOf('## From install to a first answer'))
      const install = /```sh\n([^`]*)```/.exec(section)![1]!.trim().split('\n')
      const code = /```js\n([^`]*)```/.exec(section)![1]!.trim().split('\n')
      expect(install.length + code.length).toBe(5)
      expect(install[0]).toMatch(/^npm install \S+strata-client-0\.1\.0\.tgz$/)
      expect(basename(tarball)).toBe('strata-client-0.1.0.tgz')

      const project = join(dir, 'project')
      mkdirSync(project)
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'first-answer', private: true, type: 'module' }),
      )
      // The client's one dependency as a user gets it: from npm's cache when the repository's install
      // put its metadata there, else from the registry (`npm ci` caches tarballs only).
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
        cwd: project,
        env,
      })
      const vault = holders.vaultprotocol!
      let program = code.join('\n')
      for (const [placeholder, value] of [
        ["'http://127.0.0.1:3000'", `'${base}'`],
        ["'strata_…'", `'${key}'`],
        ["'G…'", `'${vault}'`],
      ] as const) {
        expect(program.split(placeholder).length, placeholder).toBe(2)
        program = program.replace(placeholder, value)
      }
      writeFileSync(join(project, 'first-answer.js'), `${program}\n`)
      const printed = await run(process.execPath, ['first-answer.js'], { cwd: project, env })
      const expected = await plain(`/v1/users/${vault}/positions/vaultprotocol`, {
        headers: { 'x-svc-token': key },
      })
      expect(expected.status, JSON.stringify(expected.body)).toBe(200)
      expect(stable(JSON.parse(printed))).toEqual(stable(expected.body))

      // The same lines as TypeScript, and every TypeScript example of the README, compiled against
      // the package's declarations the way a project outside this repository compiles (strict, no
      // importing of .ts files): an example the types no longer accept fails here.
      const examples = [`${program}\nexport {}\n`]
      for (const [, block] of readme.matchAll(/```ts\n([^`]*)```/g)) {
        const prelude = [
          "import { createStrataClient } from '@strata/client'",
          'declare const process: { env: Record<string, string | undefined> }',
          'declare const session: { accessToken: string }',
          ...(/const strata\b/.test(block!)
            ? []
            : ["const strata = createStrataClient({ baseUrl: 'http://127.0.0.1:3000' })"]),
          ...(/const address\b/.test(block!) ? [] : ["const address = 'G…'"]),
        ]
        examples.push(`${prelude.join('\n')}\n${block}\nexport {}\n`)
      }
      expect(examples.length).toBeGreaterThanOrEqual(5)
      const files = examples.map((text, i) => {
        const name = i === 0 ? 'first-answer.ts' : `readme-example-${i}.ts`
        writeFileSync(join(project, name), text)
        return name
      })
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            lib: ['es2022', 'dom'],
            types: [],
            strict: true,
            noEmit: true,
          },
          files,
        }),
      )
      await run(process.execPath, [join(REPOSITORY, 'node_modules/typescript/bin/tsc'), '-p', project], {
        cwd: project,
        env,
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)

  // Last: it reads what every test above asked through the client, so it holds for the whole file.
  it('has called every operation of the OpenAPI document through the client, with a success', async () => {
    const document = (await plain('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>
    }
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.length).toBeGreaterThan(30)
    const uncalled = operations.filter((op) => !(answered.get(op) ?? []).some((s) => s >= 200 && s < 300))
    expect(uncalled, 'operations without a client test answering 2xx').toEqual([])
  })
})
