import { randomBytes } from 'node:crypto'
import { StrKey } from '@stellar/stellar-sdk'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openWebhookSecret } from '../../src/push/webhook-secrets.ts'
import { createTestApp, grantPlan, type TestApp } from '../support/app.ts'
import { bearer, type SignedUp, signUp } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }
const URL_OK = 'https://hooks.example.com/strata'
const DAY_MS = 24 * 60 * 60 * 1000

const account = () => StrKey.encodeEd25519PublicKey(randomBytes(32))
const contract = () => StrKey.encodeContract(randomBytes(32))

type Json = Record<string, unknown>

describe('webhook subscriptions', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const send = (
    user: SignedUp,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(user.access_token), ...(payload === undefined ? {} : json), ...headers },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    })
  const create = (user: SignedUp, body: Json, headers: Record<string, string> = {}) =>
    send(user, 'POST', '/v1/webhooks', body, headers)
  const created = async (user: SignedUp, body: Json = {}) => {
    const response = await create(user, { url: URL_OK, events: ['position.changed'], ...body })
    expect(response.statusCode, response.body).toBe(201)
    return response.json() as Json & { id: string; secret: string }
  }
  const stored = (id: string) =>
    t.database.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const auditOf = async (user: SignedUp) =>
    (await send(user, 'GET', '/v1/org/audit-log')).json().data as Array<{
      action: string
      actor: string
      target: string
      details: Json | null
    }>
  /** The 400's fields, after checking it is one in the envelope. */
  const refusedFields = async (user: SignedUp, body: Json) => {
    const response = await create(user, body)
    expect(response.statusCode, response.body).toBe(400)
    const error = response.json().error as {
      code: string
      message: string
      details: Array<{ field: string }>
    }
    expect(['invalid_request', 'invalid_address']).toContain(error.code)
    return error.details.map((d) => d.field)
  }

  it('creates a subscription, answering its secret once and never again', async () => {
    const user = await signUp(t.app)
    const addresses = [account(), contract()]
    const response = await create(user, {
      url: URL_OK,
      events: ['position.changed', 'health_factor.below'],
      addresses,
      protocols: ['lendingprotocol'],
      health_factor_threshold: '1.1',
      description: 'risk desk',
    })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.headers['cache-control']).toBe('no-store')
    const body = response.json()
    const now = new Date(t.clock.now()).toISOString()
    expect(body).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9_-]{16}$/),
      url: URL_OK,
      events: ['position.changed', 'health_factor.below'],
      addresses,
      protocols: ['lendingprotocol'],
      health_factor_threshold: '1.1',
      description: 'risk desk',
      status: 'enabled',
      disabled_reason: null,
      created_at: now,
      updated_at: now,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    })
    // Stored sealed: the row holds no clear secret, and opens to it with the server's pepper.
    const row = await stored(body.id)
    expect(JSON.stringify(row)).not.toContain(body.secret.slice(6))
    expect(openWebhookSecret(row.secret, t.ctx.keyPepper)).toBe(body.secret)
    // Never again: not in the list, not in the one read, not after an update.
    const list = await send(user, 'GET', '/v1/webhooks')
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain('secret')
    const { secret: _secret, ...public_ } = body
    expect(list.json()).toEqual({ data: [public_], meta: { limit: 100, next_cursor: null } })
    const one = await send(user, 'GET', `/v1/webhooks/${body.id}`)
    expect(one.json()).toEqual(public_)
    const patched = await send(user, 'PATCH', `/v1/webhooks/${body.id}`, { description: 'changed' })
    expect(patched.body).not.toContain('secret')
    const events = await auditOf(user)
    expect(events[0]).toMatchObject({ action: 'webhook.updated', target: body.id })
    expect(events[1]).toMatchObject({ action: 'webhook.created', actor: user.user_id, target: body.id })
  })

  it('defaults addresses, protocols, threshold and description to null', async () => {
    const body = await created(await signUp(t.app))
    expect(body).toMatchObject({
      addresses: null,
      protocols: null,
      health_factor_threshold: null,
      description: null,
    })
  })

  it('replays the creation for a repeated Idempotency-Key, creating one subscription', async () => {
    const user = await signUp(t.app)
    const body = { url: URL_OK, events: ['activity.created'] }
    const first = await create(user, body, { 'idempotency-key': 'wh-1' })
    const again = await create(user, body, { 'idempotency-key': 'wh-1' })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().id).toBe(first.json().id)
    expect((await send(user, 'GET', '/v1/webhooks')).json().data).toHaveLength(1)
  })

  it('refuses bad input with a 400 naming the field', async () => {
    const user = await signUp(t.app)
    const base = { url: URL_OK, events: ['position.changed'] }
    expect(await refusedFields(user, { ...base, url: 'http://hooks.example.com/x' })).toEqual(['url'])
    expect(await refusedFields(user, { ...base, url: 'https://10.1.2.3/x' })).toEqual(['url'])
    expect(await refusedFields(user, { ...base, url: 'https://[::1]/x' })).toEqual(['url'])
    expect(await refusedFields(user, { ...base, url: 'https://localhost/x' })).toEqual(['url'])
    expect(await refusedFields(user, { ...base, url: 'not a url' })).toEqual(['url'])
    expect(await refusedFields(user, { ...base, events: ['position.moved'] })).toEqual(['events.0'])
    expect(await refusedFields(user, { ...base, events: [] })).toEqual(['events'])
    expect(await refusedFields(user, { ...base, events: ['position.changed', 'position.changed'] })).toEqual([
      'events',
    ])
    const a = account()
    expect(await refusedFields(user, { ...base, addresses: [a, a] })).toEqual(['addresses'])
    // The last character changed (to one it is not), so the checksum no longer holds.
    const mistyped = `${a.slice(0, -1)}${a.endsWith('X') ? 'Y' : 'X'}`
    expect(await refusedFields(user, { ...base, addresses: [a, mistyped] })).toEqual(['addresses.1'])
    expect(await refusedFields(user, { ...base, addresses: [] })).toEqual(['addresses'])
    expect(await refusedFields(user, { ...base, events: ['health_factor.below'] })).toEqual([
      'health_factor_threshold',
    ])
    expect(await refusedFields(user, { ...base, health_factor_threshold: '1.1' })).toEqual([
      'health_factor_threshold',
    ])
    const health = { ...base, events: ['health_factor.below'] }
    for (const bad of ['0', '0.0', '-1', '1.12345678', '1e3', 'abc']) {
      expect(await refusedFields(user, { ...health, health_factor_threshold: bad }), bad).toEqual([
        'health_factor_threshold',
      ])
    }
    expect(await refusedFields(user, { ...base, protocols: ['uniswap'] })).toContain('protocols.0')
    const unknownProtocol = await create(user, { ...base, protocols: ['uniswap'] })
    expect(unknownProtocol.json().error.message).toContain('protocols.0 must be one of "vaultprotocol"')
    expect(await refusedFields(user, { ...base, description: 'x'.repeat(201) })).toEqual(['description'])
    expect(await refusedFields(user, { ...base, secret: 'whsec_mine' })).toEqual(['secret'])
    // The messages name the field and say what it must be.
    const response = await create(user, { ...base, url: 'http://hooks.example.com/x' })
    expect(response.json().error.details[0].message).toBe('url must use https')
    // Nothing was created.
    expect((await send(user, 'GET', '/v1/webhooks')).json().data).toEqual([])
  })

  it('takes http and loopback URLs when STRATA_WEBHOOKS_ALLOW_LOOPBACK is set', async () => {
    const loopback = await createTestApp({ STRATA_WEBHOOKS_ALLOW_LOOPBACK: '1' })
    try {
      const user = await signUp(loopback.app)
      const response = await loopback.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { ...bearer(user.access_token), ...json },
        payload: { url: 'http://127.0.0.1:8080/hook', events: ['position.changed'] },
      })
      expect(response.statusCode, response.body).toBe(201)
      expect(response.json().url).toBe('http://127.0.0.1:8080/hook')
    } finally {
      await loopback.close()
    }
  })

  it("holds the plan's limits: subscriptions per organization (409) and addresses per subscription (400)", async () => {
    const user = await signUp(t.app)
    await created(user)
    await created(user)
    const third = await create(user, { url: URL_OK, events: ['position.changed'] })
    expect(third.statusCode).toBe(409)
    expect(third.json().error.code).toBe('conflict')
    expect(third.json().error.message).toContain('the free plan allows 2 webhook subscriptions')
    const many = Array.from({ length: 101 }, account)
    const wide = await send(user, 'GET', '/v1/webhooks')
    const first = wide.json().data[0].id as string
    const tooMany = await send(user, 'PATCH', `/v1/webhooks/${first}`, { addresses: many })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().error.details).toEqual([
      { field: 'addresses', message: 'addresses must have at most 100 items on the free plan (it has 101)' },
    ])
    expect(
      (await send(user, 'PATCH', `/v1/webhooks/${first}`, { addresses: many.slice(0, 100) })).statusCode,
    ).toBe(200)

    // On pro: 20 subscriptions, 1,000 addresses each.
    await grantPlan(t, user.organization_id, 'pro')
    const thousand = Array.from({ length: 1000 }, account)
    const big = await create(user, { url: URL_OK, events: ['position.changed'], addresses: thousand })
    expect(big.statusCode, big.body).toBe(201)
    expect(big.json().addresses).toEqual(thousand)
    const over = await create(user, {
      url: URL_OK,
      events: ['position.changed'],
      addresses: [...thousand, account()],
    })
    expect(over.statusCode).toBe(400)
    expect(over.json().error.message).toContain('at most 1000 items on the pro plan')
    for (let i = 3; i < 20; i++) await created(user)
    const twentyFirst = await create(user, { url: URL_OK, events: ['position.changed'] })
    expect(twentyFirst.statusCode).toBe(409)
    expect(twentyFirst.json().error.message).toContain('the pro plan allows 20 webhook subscriptions')

    // On enterprise: 10,000 addresses, a body far above the default 64 KiB limit.
    const large = await signUp(t.app)
    await grantPlan(t, large.organization_id, 'enterprise')
    const tenThousand = Array.from({ length: 10_000 }, account)
    const body = { url: URL_OK, events: ['position.changed'], addresses: tenThousand }
    expect(JSON.stringify(body).length).toBeGreaterThan(t.ctx.config.bodyLimitBytes)
    const widest = await create(large, body)
    expect(widest.statusCode, widest.body.slice(0, 300)).toBe(201)
    expect(widest.json().addresses).toHaveLength(10_000)
    const beyond = await create(large, { ...body, addresses: [...tenThousand, account()] })
    expect(beyond.statusCode).toBe(400)
    expect(beyond.json().error.details[0].field).toBe('addresses')
    // A plan lowered since keeps what was stored, and blocks no other change; new addresses are checked.
    await grantPlan(t, large.organization_id, 'free')
    const id = widest.json().id as string
    const disabled = await send(large, 'PATCH', `/v1/webhooks/${id}`, { status: 'disabled' })
    expect(disabled.statusCode, disabled.body.slice(0, 300)).toBe(200)
    const narrowed = await send(large, 'PATCH', `/v1/webhooks/${id}`, {
      addresses: tenThousand.slice(0, 101),
    })
    expect(narrowed.statusCode).toBe(400)
    expect(narrowed.json().error.message).toContain('at most 100 items on the free plan')
    // Other routes keep the default limit.
    const padded = await send(large, 'PATCH', '/v1/org/billing', {
      billing_email: 'a@example.com',
      pad: 'x'.repeat(70_000),
    })
    expect(padded.statusCode).toBe(413)
  })

  it("answers 404 for another organization's subscription, on every route, and changes nothing", async () => {
    const owner = await signUp(t.app)
    const other = await signUp(t.app)
    const hook = await created(owner)
    const before = await stored(hook.id)
    for (const [method, url, body] of [
      ['GET', `/v1/webhooks/${hook.id}`, undefined],
      ['PATCH', `/v1/webhooks/${hook.id}`, { status: 'disabled' }],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`, undefined],
      ['DELETE', `/v1/webhooks/${hook.id}`, undefined],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`, undefined],
    ] as const) {
      const response = await send(other, method, url, body)
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    expect(await stored(hook.id)).toEqual(before)
    expect((await send(other, 'GET', '/v1/webhooks')).json().data).toEqual([])
    expect((await auditOf(other)).map((e) => e.action)).not.toContain('webhook.disabled')
  })

  it('updates fields, auditing their names, and disables and re-enables, clearing the reason', async () => {
    const user = await signUp(t.app)
    const hook = await created(user)
    t.clock.advance(1000)
    const patched = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, {
      url: 'https://other.example.com/in',
      events: ['position.changed', 'health_factor.below'],
      health_factor_threshold: '1.25',
      description: null,
    })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({
      url: 'https://other.example.com/in',
      events: ['position.changed', 'health_factor.below'],
      health_factor_threshold: '1.25',
      updated_at: new Date(t.clock.now()).toISOString(),
      created_at: hook.created_at,
    })
    expect((await auditOf(user))[0]).toMatchObject({
      action: 'webhook.updated',
      details: { fields: ['url', 'events', 'health_factor_threshold'] },
    })

    // Dropping the event drops its threshold.
    const dropped = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, { events: ['activity.created'] })
    expect(dropped.json()).toMatchObject({ events: ['activity.created'], health_factor_threshold: null })

    const disabled = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, { status: 'disabled' })
    expect(disabled.json()).toMatchObject({ status: 'disabled', disabled_reason: expect.any(String) })
    expect((await auditOf(user))[0]).toMatchObject({ action: 'webhook.disabled', target: hook.id })

    // As the dispatcher leaves a failing subscription: disabled with a reason, its next attempt later.
    await t.database.db
      .updateTable('webhooks')
      .set({ disabled_reason: 'deliveries failed for 3 days', next_attempt_at: t.clock.now() + DAY_MS })
      .where('id', '=', hook.id)
      .execute()
    const enabled = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, { status: 'enabled' })
    expect(enabled.json()).toMatchObject({ status: 'enabled', disabled_reason: null })
    const row = await stored(hook.id)
    expect(row).toMatchObject({ status: 'enabled', disabled_reason: null, next_attempt_at: 0 })
    const actions = (await auditOf(user)).map((e) => e.action)
    expect(actions.slice(0, 3)).toEqual(['webhook.enabled', 'webhook.disabled', 'webhook.updated'])

    // Setting what is already there changes and records nothing.
    const same = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, { status: 'enabled' })
    expect(same.statusCode).toBe(200)
    expect((await auditOf(user))[0]?.action).toBe('webhook.enabled')
    expect((await auditOf(user)).length).toBe(actions.length)
    // An empty body sets nothing: 400.
    const empty = await send(user, 'PATCH', `/v1/webhooks/${hook.id}`, {})
    expect(empty.statusCode).toBe(400)
  })

  it('rotates the secret, keeping the previous one for 24 hours', async () => {
    const user = await signUp(t.app)
    const hook = await created(user)
    t.clock.advance(5000)
    const response = await send(user, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const rotated = response.json()
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(hook.secret)
    expect(rotated.previous_secret_expires_at).toBe(new Date(t.clock.now() + DAY_MS).toISOString())
    expect(rotated.id).toBe(hook.id)
    const row = await stored(hook.id)
    expect(openWebhookSecret(row.secret, t.ctx.keyPepper)).toBe(rotated.secret)
    expect(openWebhookSecret(row.previous_secret as string, t.ctx.keyPepper)).toBe(hook.secret)
    expect(row.previous_secret_until).toBe(t.clock.now() + DAY_MS)
    expect((await auditOf(user))[0]).toMatchObject({ action: 'webhook.secret_rotated', target: hook.id })
  })

  it('deletes a subscription with its messages', async () => {
    const user = await signUp(t.app)
    const hook = await created(user)
    const kept = await created(user)
    for (const id of [hook.id, kept.id]) {
      await t.database.db
        .insertInto('webhook_messages')
        .values({
          webhook_id: id,
          type: 'position.changed',
          ledger: 10,
          address: account(),
          protocol: 'vaultprotocol',
          ref: null,
          payload: '{}',
          status: 'pending',
          attempts: 0,
          created_at: t.clock.now(),
          last_attempt_at: null,
          last_status: null,
          last_error: null,
          delivered_at: null,
        })
        .execute()
    }
    const response = await send(user, 'DELETE', `/v1/webhooks/${hook.id}`)
    expect(response.statusCode).toBe(204)
    expect(
      await t.database.db.selectFrom('webhooks').where('id', '=', hook.id).selectAll().execute(),
    ).toEqual([])
    const messages = await t.database.db.selectFrom('webhook_messages').select('webhook_id').execute()
    expect(messages.map((m) => m.webhook_id)).not.toContain(hook.id)
    expect(messages.map((m) => m.webhook_id)).toContain(kept.id)
    expect((await send(user, 'GET', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404)
    expect((await send(user, 'DELETE', `/v1/webhooks/${hook.id}`)).statusCode).toBe(404)
    expect((await auditOf(user))[0]).toMatchObject({ action: 'webhook.deleted', target: hook.id })
    // Its place is free again on the free plan's two.
    await created(user)
  })

  it('lists subscriptions newest first, paging with a cursor', async () => {
    const user = await signUp(t.app)
    await grantPlan(t, user.organization_id, 'pro')
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await created(user)).id)
      // Two in one millisecond, to page across a tie.
      if (i % 2 === 1) t.clock.advance(1)
    }
    const first = (await send(user, 'GET', '/v1/webhooks?limit=2')).json()
    const seen: string[] = first.data.map((w: Json) => w.id)
    let cursor = first.meta.next_cursor as string | null
    while (cursor !== null) {
      const page = (await send(user, 'GET', `/v1/webhooks?limit=2&cursor=${cursor}`)).json()
      seen.push(...page.data.map((w: Json) => w.id))
      cursor = page.meta.next_cursor
    }
    expect(seen).toHaveLength(5)
    expect(new Set(seen)).toEqual(new Set(ids))
    // Newest first by creation time (ties in either order).
    const times = await Promise.all(seen.map(async (id) => (await stored(id)).created_at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    // The last created is alone in its millisecond: first.
    expect(seen[0]).toBe(ids[4])
    const bad = await send(user, 'GET', '/v1/webhooks?cursor=bm90LWEtY3Vyc29y')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.details[0].field).toBe('cursor')
  })

  it('pages a subscription’s deliveries newest first, filtered by status', async () => {
    const user = await signUp(t.app)
    const hook = await created(user)
    const other = await created(user)
    const start = t.clock.now()
    const statuses = ['delivered', 'failed', 'pending', 'delivered', 'pending'] as const
    const addresses = statuses.map(() => account())
    for (const [i, status] of statuses.entries()) {
      await t.database.db
        .insertInto('webhook_messages')
        .values({
          webhook_id: hook.id,
          type: i % 2 === 0 ? 'position.changed' : 'activity.created',
          ledger: 100 + i,
          address: addresses[i] as string,
          protocol: 'lendingprotocol',
          ref: null,
          payload: '{}',
          status,
          attempts: status === 'pending' ? 0 : i + 1,
          created_at: start + i,
          last_attempt_at: status === 'pending' ? null : start + 10 + i,
          last_status: status === 'failed' ? 500 : status === 'delivered' ? 200 : null,
          last_error: status === 'failed' ? 'HTTP 500: oops' : null,
          delivered_at: status === 'delivered' ? start + 10 + i : null,
        })
        .execute()
      // Another subscription's message between each: never in this one's list.
      await t.database.db
        .insertInto('webhook_messages')
        .values({
          webhook_id: other.id,
          type: 'position.changed',
          ledger: 100 + i,
          address: account(),
          protocol: 'lendingprotocol',
          ref: null,
          payload: '{}',
          status: 'pending',
          attempts: 0,
          created_at: start + i,
          last_attempt_at: null,
          last_status: null,
          last_error: null,
          delivered_at: null,
        })
        .execute()
    }
    const seqs = (
      await t.database.db
        .selectFrom('webhook_messages')
        .select('seq')
        .where('webhook_id', '=', hook.id)
        .orderBy('seq')
        .execute()
    ).map((row) => Number(row.seq))
    const url = `/v1/webhooks/${hook.id}/deliveries`

    const first = await send(user, 'GET', `${url}?limit=2`)
    expect(first.statusCode, first.body).toBe(200)
    const page1 = first.json()
    expect(page1.data.map((d: Json) => d.id)).toEqual([`msg_${seqs[4]}`, `msg_${seqs[3]}`])
    expect(page1.data[1]).toEqual({
      id: `msg_${seqs[3]}`,
      type: 'activity.created',
      ledger: 103,
      account: addresses[3],
      protocol: 'lendingprotocol',
      status: 'delivered',
      attempts: 4,
      created_at: new Date(start + 3).toISOString(),
      last_attempt_at: new Date(start + 13).toISOString(),
      last_status: 200,
      last_error: null,
      delivered_at: new Date(start + 13).toISOString(),
    })
    const ids: string[] = page1.data.map((d: Json) => d.id)
    let cursor = page1.meta.next_cursor as string | null
    while (cursor !== null) {
      const page = (await send(user, 'GET', `${url}?limit=2&cursor=${cursor}`)).json()
      ids.push(...page.data.map((d: Json) => d.id))
      cursor = page.meta.next_cursor
    }
    expect(ids).toEqual([...seqs].reverse().map((seq) => `msg_${seq}`))

    const pending = (await send(user, 'GET', `${url}?status=pending`)).json()
    expect(pending.data.map((d: Json) => d.id)).toEqual([`msg_${seqs[4]}`, `msg_${seqs[2]}`])
    const failed = (await send(user, 'GET', `${url}?status=failed`)).json()
    expect(failed.data).toHaveLength(1)
    expect(failed.data[0]).toMatchObject({ status: 'failed', last_status: 500, last_error: 'HTTP 500: oops' })
    const firstDelivered = (await send(user, 'GET', `${url}?status=delivered&limit=1`)).json()
    expect(firstDelivered.data.map((d: Json) => d.id)).toEqual([`msg_${seqs[3]}`])
    const secondDelivered = (
      await send(user, 'GET', `${url}?status=delivered&limit=1&cursor=${firstDelivered.meta.next_cursor}`)
    ).json()
    expect(secondDelivered.data.map((d: Json) => d.id)).toEqual([`msg_${seqs[0]}`])
    expect(secondDelivered.meta.next_cursor).toBeNull()

    const wrong = await send(user, 'GET', `${url}?status=lost`)
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.details[0].field).toBe('status')
    const none = await send(user, 'GET', `/v1/webhooks/wh_unknown/deliveries`)
    expect(none.statusCode).toBe(404)
  })
})

describe('webhook changes share the transaction of their audit event', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('makes no change when its event cannot be written', async () => {
    const user = await signUp(t.app)
    const headers = { ...bearer(user.access_token), ...json }
    const first = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers,
      payload: { url: URL_OK, events: ['position.changed'] },
    })
    expect(first.statusCode).toBe(201)
    const id = first.json().id as string
    const before = await t.database.db.selectFrom('webhooks').selectAll().execute()
    await sql`ALTER TABLE audit_events RENAME TO audit_events_gone`.execute(t.database.db)
    try {
      for (const [method, url, payload] of [
        ['POST', '/v1/webhooks', { url: URL_OK, events: ['activity.created'] }],
        ['PATCH', `/v1/webhooks/${id}`, { description: 'changed', status: 'disabled' }],
        ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
        ['DELETE', `/v1/webhooks/${id}`, undefined],
      ] as const) {
        const response = await t.app.inject({
          method,
          url,
          headers: payload === undefined ? bearer(user.access_token) : headers,
          ...(payload === undefined ? {} : { payload }),
        })
        expect(response.statusCode, `${method} ${url}`).toBe(500)
      }
    } finally {
      await sql`ALTER TABLE audit_events_gone RENAME TO audit_events`.execute(t.database.db)
    }
    expect(await t.database.db.selectFrom('webhooks').selectAll().execute()).toEqual(before)
  })
})
