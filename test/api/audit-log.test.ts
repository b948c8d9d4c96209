import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, grantPlan, type TestApp } from '../support/app.ts'
import { bearer, createKeyFor, type SignedUp, signUp, uniqueSlug } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }

interface Event {
  id: string
  at: string
  action: string
  actor: string | null
  target: string | null
  client_ip: string | null
  details: Record<string, string | string[]> | null
}

describe('the audit log', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const page = (user: SignedUp, query = '') =>
    t.app.inject({ method: 'GET', url: `/v1/org/audit-log${query}`, headers: bearer(user.access_token) })
  const events = async (user: SignedUp): Promise<Event[]> => {
    const response = await page(user, '?limit=500')
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data
  }
  const login = (email: string, password: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: json,
      payload: { email, password },
      remoteAddress,
    })

  it('records every security action of the organization, newest first, with who, what and from where', async () => {
    const user = await signUp(t.app)
    const at = (offsetS: number) => new Date(start + offsetS * 1000).toISOString()
    const start = t.clock.now()
    t.clock.advance(1000)
    const adminKey = await createKeyFor(t.app, user, { key_name: 'ops' })
    t.clock.advance(1000)
    expect((await login(user.email, 'wrong password', '198.51.100.7')).statusCode).toBe(401)
    t.clock.advance(1000)
    const session = await login(user.email, user.password, '198.51.100.8')
    expect(session.statusCode).toBe(200)
    t.clock.advance(1000)
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${adminKey.api_key_id}/rotate`,
      headers: { ...json, ...bearer(user.access_token) },
      payload: { old_key_expires_in_seconds: 120 },
    })
    expect(rotated.statusCode).toBe(201)
    t.clock.advance(1000)
    const revoke = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/v1/org/api-keys/${user.api_key.api_key_id}`,
        headers: bearer(user.access_token),
      })
    expect((await revoke()).statusCode).toBe(204)
    // A second revocation changes nothing and records nothing.
    expect((await revoke()).statusCode).toBe(204)
    t.clock.advance(1000)
    await grantPlan(t, user.organization_id, 'pro')
    t.clock.advance(1000)
    const downgrade = await t.app.inject({
      method: 'PATCH',
      url: '/v1/org/billing',
      headers: { ...json, ...bearer(user.access_token) },
      payload: { plan: 'free' },
    })
    expect(downgrade.statusCode).toBe(200)
    t.clock.advance(1000)
    const logout = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/logout',
        headers: { ...json, ...bearer(user.access_token) },
        payload: { refresh_token: session.json().refresh_token },
      })
    expect((await logout()).statusCode).toBe(204)
    expect((await logout()).statusCode).toBe(204)

    const org = user.organization_id
    const got = await events(user)
    for (const event of got) expect(event.id).toMatch(/^evt_[A-Za-z0-9_-]{16}$/)
    expect(new Set(got.map((e) => e.id)).size).toBe(got.length)
    expect(got.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        at: at(8),
        action: 'user.logout',
        actor: user.user_id,
        target: user.user_id,
        client_ip: '127.0.0.1',
        details: null,
      },
      {
        at: at(7),
        action: 'organization.plan_changed',
        actor: user.user_id,
        target: org,
        client_ip: '127.0.0.1',
        details: { from: 'pro', to: 'free', max_plan: 'pro' },
      },
      {
        at: at(6),
        action: 'organization.plan_changed',
        actor: 'admin',
        target: org,
        client_ip: null,
        details: { from: 'free', to: 'pro', max_plan: 'pro' },
      },
      {
        at: at(5),
        action: 'api_key.revoked',
        actor: user.user_id,
        target: user.api_key.api_key_id,
        client_ip: '127.0.0.1',
        details: null,
      },
      {
        at: at(4),
        action: 'api_key.rotated',
        actor: user.user_id,
        target: adminKey.api_key_id,
        client_ip: '127.0.0.1',
        details: {
          name: 'ops',
          key_prefix: rotated.json().key_prefix,
          scopes: ['data:read'],
          new_key_id: rotated.json().api_key_id,
          old_key_expires_at: at(4 + 120),
        },
      },
      {
        at: at(3),
        action: 'user.login',
        actor: user.user_id,
        target: user.user_id,
        client_ip: '198.51.100.8',
        details: null,
      },
      {
        at: at(2),
        action: 'user.login_failed',
        actor: null,
        target: user.user_id,
        client_ip: '198.51.100.7',
        details: null,
      },
      {
        at: at(1),
        action: 'api_key.created',
        actor: 'admin',
        target: adminKey.api_key_id,
        client_ip: '127.0.0.1',
        details: { name: 'ops', key_prefix: adminKey.key_prefix, scopes: ['data:read'] },
      },
      {
        at: at(0),
        action: 'api_key.created',
        actor: user.user_id,
        target: user.api_key.api_key_id,
        client_ip: '127.0.0.1',
        details: { name: 'default', key_prefix: user.api_key.key_prefix, scopes: ['data:read'] },
      },
      {
        at: at(0),
        action: 'user.created',
        actor: user.user_id,
        target: user.user_id,
        client_ip: '127.0.0.1',
        details: null,
      },
      {
        at: at(0),
        action: 'organization.created',
        actor: user.user_id,
        target: org,
        client_ip: '127.0.0.1',
        details: { slug: user.organization_slug },
      },
    ])
  })

  it('records nothing for a failed login with an unknown email: it belongs to no organization', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    expect((await login(`nobody-${uniqueSlug()}@example.com`, 'whatever pw')).statusCode).toBe(401)
    expect(await count()).toBe(before)
  })

  it('pages with limit and an opaque, stable cursor; next_cursor is null on the last page', async () => {
    const user = await signUp(t.app)
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000)
      await createKeyFor(t.app, user, { key_name: `k${i}` })
    }
    const all = await events(user)
    expect(all.length).toBe(7)
    const seen: Event[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const response = await page(user, query)
      expect(response.statusCode).toBe(200)
      const body = response.json() as { data: Event[]; meta: { limit: number; next_cursor: string | null } }
      expect(body.meta.limit).toBe(3)
      seen.push(...body.data)
      cursor = body.meta.next_cursor
      pages++
      // Events written while paging do not shift the pages already handed out.
      if (pages === 1) await createKeyFor(t.app, user, { key_name: 'during paging' })
    } while (cursor !== null)
    expect(pages).toBe(3)
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id))
    const first = (await page(user, '?limit=1')).json()
    expect(first.data[0].details.name).toBe('during paging')
    const exact = (await page(user, '?limit=8')).json()
    expect(exact.data.length).toBe(8)
    expect(exact.meta).toEqual({ limit: 8, next_cursor: null })
    expect(exact).not.toHaveProperty('next_cursor')
    expect((await page(user)).json().data.length).toBe(8)
  })

  it('filters by action and by a time range, and pages the filtered events with the same filter', async () => {
    const user = await signUp(t.app)
    const start = t.clock.now()
    for (let i = 0; i < 5; i++) {
      t.clock.advance(60_000)
      await createKeyFor(t.app, user, { key_name: `f${i}` })
    }
    const all = await events(user)
    // Expected sets computed from the whole log, here.
    const created = all.filter((e) => e.action === 'api_key.created')
    expect(created.length).toBe(6)
    const byAction = (await page(user, '?action=api_key.created&limit=500')).json().data as Event[]
    expect(byAction.map((e) => e.id)).toEqual(created.map((e) => e.id))

    const since = new Date(start + 2 * 60_000).toISOString()
    const until = new Date(start + 4 * 60_000).toISOString()
    const inRange = all.filter((e) => e.at >= since && e.at < until)
    expect(inRange.map((e) => e.details?.name)).toEqual(['f2', 'f1'])
    const ranged = await page(user, `?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`)
    expect(ranged.statusCode, ranged.body).toBe(200)
    expect((ranged.json().data as Event[]).map((e) => e.id)).toEqual(inRange.map((e) => e.id))

    // Paged two at a time with the filter: the same events, in the same order, nothing else.
    const seen: Event[] = []
    let cursor: string | null = null
    do {
      const query: string = `?action=api_key.created&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const body = (await page(user, query)).json() as { data: Event[]; meta: { next_cursor: string | null } }
      seen.push(...body.data)
      cursor = body.meta.next_cursor
    } while (cursor !== null)
    expect(seen.map((e) => e.id)).toEqual(created.map((e) => e.id))
    expect((await page(user, '?action=user.logout')).json().data).toEqual([])
  })

  it('answers 400 naming the filter for a bad action, time or range', async () => {
    const user = await signUp(t.app)
    const cases: Array<[string, string]> = [
      ['?action=api_key.exploded', 'action'],
      ['?since=yesterday', 'since'],
      ['?until=2026-13-01T00:00:00Z', 'until'],
      ['?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'until'],
    ]
    for (const [query, field] of cases) {
      const response = await page(user, query)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toEqual([field])
    }
  })

  it('answers scopes as a list, events stored before as a space-joined string included', async () => {
    const user = await signUp(t.app)
    t.clock.advance(1000)
    // As an earlier version wrote a key's creation: its scopes joined by spaces in one string.
    await t.database.db
      .insertInto('audit_events')
      .values({
        id: 'evt_written_by_older_ver',
        organization_id: user.organization_id,
        at: t.clock.now(),
        action: 'api_key.created',
        actor: 'admin',
        target: 'key_older',
        client_ip: null,
        details: JSON.stringify({ name: 'old', key_prefix: 'strata_abcde', scopes: 'data:read other:scope' }),
      })
      .execute()
    t.clock.advance(1000)
    await t.database.db
      .insertInto('audit_events')
      .values({
        id: 'evt_no_scopes_older_ver0',
        organization_id: user.organization_id,
        at: t.clock.now(),
        action: 'api_key.created',
        actor: 'admin',
        target: 'key_none',
        client_ip: null,
        details: JSON.stringify({ name: 'none', key_prefix: 'strata_fghij', scopes: '' }),
      })
      .execute()
    const got = await events(user)
    const byTarget = new Map(got.map((event) => [event.target, event]))
    expect(byTarget.get('key_older')?.details).toEqual({
      name: 'old',
      key_prefix: 'strata_abcde',
      scopes: ['data:read', 'other:scope'],
    })
    expect(byTarget.get('key_none')?.details?.scopes).toEqual([])
    expect(byTarget.get(user.api_key.api_key_id)?.details?.scopes).toEqual(['data:read'])
    // Every event names its time `at`, an RFC 3339 string.
    for (const event of got) {
      expect(new Date(event.at).toISOString()).toBe(event.at)
    }
  })

  it('answers 400 naming limit or cursor for bad values', async () => {
    const user = await signUp(t.app)
    const cases: Array<[string, string]> = [
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=-1', 'limit'],
      ['?cursor=bm9wZQ', 'cursor'],
      ['?cursor=', 'cursor'],
      ['?after=1', 'after'],
    ]
    for (const [query, field] of cases) {
      const response = await page(user, query)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toEqual([field])
    }
    expect((await page(user, '?limit=500')).statusCode).toBe(200)
    expect((await page(user, '?limit=1')).statusCode).toBe(200)
  })
})

describe('audit events share the transaction of the change they record', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('makes no change when its event cannot be written', async () => {
    const user = await signUp(t.app)
    await grantPlan(t, user.organization_id, 'pro')
    // The audit table vanishes: every recorded change must now fail as a whole.
    await sql`ALTER TABLE audit_events RENAME TO audit_events_gone`.execute(t.database.db)
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${user.api_key.api_key_id}?confirm=last_key`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(500)
    const rotate = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${user.api_key.api_key_id}/rotate`,
      headers: bearer(user.access_token),
    })
    expect(rotate.statusCode).toBe(500)
    const plan = await t.app.inject({
      method: 'PATCH',
      url: '/v1/org/billing',
      headers: { ...json, ...bearer(user.access_token) },
      payload: { plan: 'free' },
    })
    expect(plan.statusCode).toBe(500)
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'x',
        organization_slug: uniqueSlug(),
        email: `${uniqueSlug()}@example.com`,
        password: 'long enough pw',
      },
    })
    expect(signup.statusCode).toBe(500)
    await sql`ALTER TABLE audit_events_gone RENAME TO audit_events`.execute(t.database.db)

    const keys = await t.database.db.selectFrom('api_keys').selectAll().execute()
    expect(keys.map((k) => ({ id: k.id, revoked_at: k.revoked_at, replaced_by: k.replaced_by }))).toEqual([
      { id: user.api_key.api_key_id, revoked_at: null, replaced_by: null },
    ])
    const orgs = await t.database.db.selectFrom('organizations').select(['id', 'plan']).execute()
    expect(orgs).toEqual([{ id: user.organization_id, plan: 'pro' }])
    expect((await t.database.db.selectFrom('users').select('id').execute()).length).toBe(1)
  })
})
