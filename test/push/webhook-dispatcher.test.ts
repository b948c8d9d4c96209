import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/logger.ts'
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/push/webhook-dispatcher.ts'
import { createWebhookAgents, sendWebhook } from '../../src/push/webhook-send.ts'
import type { Database } from '../../src/store/db.ts'
import { type LedgerBatch, writeLedgerBatch } from '../../src/store/ledger-data.ts'
import { outboxMessages } from '../../src/store/webhook-outbox.ts'
import { createWebhook } from '../../src/store/webhooks.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
const ALICE = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'
const BOB = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5'
const CAROL = 'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ'

/** What the receiver got: each request's headers and body, in arrival order. */
interface Received {
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** A local receiver answering each request with `status()` (asked per request). */
async function startReceiver(status: (n: number) => number) {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body })
      res.writeHead(status(received.length)).end('nope')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const hash = (ledger: number) => ledger.toString(16).padStart(64, '0')

/** A batch of ledgers `from..to` whose snapshots are `rows` (address, protocol, ledger). */
function batch(
  previous: number | null,
  from: number,
  to: number,
  rows: Array<[string, string, number]>,
): LedgerBatch {
  const ledgers = []
  for (let l = from; l <= to; l++) ledgers.push({ sequence: l, hash: hash(l), close_time: 1_700_000_000 + l })
  return {
    previousLedger: previous,
    previousHash: previous === null ? hash(from - 1) : hash(previous),
    lastLedger: to,
    ledgers,
    snapshots: rows.map(([address, protocol, ledger]) => ({
      protocol,
      address,
      ledger,
      positions: JSON.stringify({ ledger }),
    })),
    states: [],
    prices: [],
    updatedAt: 1,
  }
}

async function addOrganization(database: Database, id: string) {
  await database.db
    .insertInto('organizations')
    .values({
      id,
      slug: id,
      name: id,
      plan: 'pro',
      billing_email: null,
      created_at: 1,
      created_by: 'admin',
      max_plan: 'pro',
    })
    .execute()
}

async function addWebhook(
  database: Database,
  id: string,
  url: string,
  fields: {
    addresses?: string[] | null
    protocols?: string[] | null
    events?: string[]
    status?: 'enabled' | 'disabled'
  } = {},
) {
  await createWebhook(database.db, {
    id,
    organizationId: 'org_push',
    url,
    description: null,
    events: fields.events ?? ['position.changed'],
    addresses: fields.addresses === undefined ? [ALICE, BOB] : fields.addresses,
    protocols: fields.protocols ?? null,
    healthFactorThreshold: null,
    sealedSecret: 'sealed elsewhere',
    now: 1,
  })
  if (fields.status === 'disabled')
    await database.db.updateTable('webhooks').set({ status: 'disabled' }).where('id', '=', id).execute()
}

const messagesOf = (database: Database, webhookId: string) =>
  database.db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('seq')
    .execute()

/** A dispatcher on `database` whose bodies are `{address, protocol, ledger}` (rendering is tested elsewhere). */
function dispatcherOn(database: Database, schedule: number[]): WebhookDispatcher {
  const agents = createWebhookAgents()
  const dispatcher = createWebhookDispatcher({
    database,
    logger: createLogger('silent'),
    clock: { now: () => Date.now() },
    render: async (m) =>
      JSON.stringify({ type: m.type, address: m.address, protocol: m.protocol, ledger: Number(m.ledger) }),
    secretsOf: () => [SECRET],
    send: (delivery) =>
      sendWebhook(delivery, { timeoutMs: 2000, allowLoopback: true, userAgent: 'test' }, undefined, agents),
    retryScheduleMs: schedule,
    idleMs: 50,
    leaseMs: 5000,
    deliver: true,
  })
  return {
    ...dispatcher,
    close: async () => {
      await dispatcher.close()
      agents.close()
    },
  }
}

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The body of each request, verified with the Standard Webhooks reference library (throws if not). */
function verified(
  received: Received[],
): Array<{ id: string; body: { address: string; protocol: string; ledger: number } }> {
  const verifier = new Webhook(SECRET)
  return received.map((r) => {
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }
    verifier.verify(r.body, headers)
    return { id: headers['webhook-id'], body: JSON.parse(r.body) }
  })
}

describe('the outbox: what a batch writes for the subscriptions', () => {
  it('matches events, addresses and protocols, activities before the snapshots of their ledger', () => {
    const subscriptions = [
      {
        id: 'wh_all',
        updated_at: 1,
        events: '["position.changed","activity.created"]',
        addresses: null,
        protocols: null,
      },
      {
        id: 'wh_alice_vault',
        updated_at: 1,
        events: '["position.changed"]',
        addresses: `["${ALICE}"]`,
        protocols: '["vaultprotocol"]',
      },
      {
        id: 'wh_bob_activity',
        updated_at: 1,
        events: '["activity.created"]',
        addresses: `["${BOB}"]`,
        protocols: null,
      },
    ]
    const snapshots = [
      { protocol: 'vaultprotocol', address: ALICE, ledger: 11, positions: '{}' },
      { protocol: 'ammprotocol', address: ALICE, ledger: 10, positions: '{}' },
      { protocol: 'vaultprotocol', address: BOB, ledger: 10, positions: '{}' },
    ]
    const activity = {
      transactions: [],
      activities: [],
      accountActivities: [
        { account: BOB, ledger: 10, tx_order: 2, event_index: 0, protocol: 'vaultprotocol', type: 'deposit' },
        { account: ALICE, ledger: 10, tx_order: 1, event_index: 3, protocol: 'ammprotocol', type: 'swap' },
      ],
    }
    const out = outboxMessages(subscriptions, snapshots, activity).map(
      (m) =>
        `${m.webhookId} ${m.type} ${m.ledger} ${m.protocol} ${m.address === ALICE ? 'alice' : 'bob'} ${m.ref ?? '-'}`,
    )
    expect(out).toEqual([
      'wh_all activity.created 10 ammprotocol alice 1:3',
      'wh_all activity.created 10 vaultprotocol bob 2:0',
      'wh_bob_activity activity.created 10 vaultprotocol bob 2:0',
      'wh_all position.changed 10 ammprotocol alice -',
      'wh_all position.changed 10 vaultprotocol bob -',
      // Within an event, subscriptions in code-unit order of their ids.
      'wh_alice_vault position.changed 11 vaultprotocol alice -',
      'wh_all position.changed 11 vaultprotocol alice -',
    ])
  })
})

describe('webhook delivery', () => {
  let testDb: TestDatabase
  let database: Database
  const dispatchers: WebhookDispatcher[] = []
  const closers: Array<() => Promise<void>> = []

  beforeEach(async () => {
    testDb = await createTestDatabase()
    database = testDb.open()
    await addOrganization(database, 'org_push')
  })
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.close()))
    await Promise.all(closers.splice(0).map((c) => c()))
    await database.close()
    await testDb.drop()
  })

  it('writes messages only with a committed batch, only for enabled subscriptions that want them', async () => {
    await addWebhook(database, 'wh_on', 'http://127.0.0.1:9/x')
    await addWebhook(database, 'wh_off', 'http://127.0.0.1:9/x', { status: 'disabled' })
    await writeLedgerBatch(
      database,
      batch(null, 10, 11, [
        [ALICE, 'vaultprotocol', 10],
        [CAROL, 'vaultprotocol', 11],
      ]),
    )
    // A batch that does not continue the checkpoint is refused whole: its messages with it.
    await expect(
      writeLedgerBatch(database, batch(10, 11, 12, [[ALICE, 'vaultprotocol', 12]])),
    ).rejects.toThrow()
    const rows = await messagesOf(database, 'wh_on')
    expect(rows.map((r) => [r.address, Number(r.ledger), r.status])).toEqual([[ALICE, 10, 'pending']])
    expect(await messagesOf(database, 'wh_off')).toEqual([])
  })

  it('delivers every message once, signed, in ledger order', async () => {
    const receiver = await startReceiver(() => 204)
    closers.push(receiver.close)
    await addWebhook(database, 'wh_1', receiver.url)
    await writeLedgerBatch(
      database,
      batch(null, 10, 12, [
        [BOB, 'vaultprotocol', 12],
        [ALICE, 'vaultprotocol', 10],
        [ALICE, 'ammprotocol', 11],
        [BOB, 'ammprotocol', 10],
      ]),
    )
    dispatchers.push(dispatcherOn(database, [50]))
    await until(() => receiver.received.length >= 4)
    const got = verified(receiver.received).map(
      (r) => `${r.body.ledger} ${r.body.protocol} ${r.body.address === ALICE ? 'alice' : 'bob'}`,
    )
    // Ledger order, then protocol, then address: the outbox's order, whatever the batch's.
    expect(got).toEqual([
      '10 ammprotocol bob',
      '10 vaultprotocol alice',
      '11 ammprotocol alice',
      '12 vaultprotocol bob',
    ])
    // One webhook-id per message, the same one a retry would carry.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4)
    await until(async () => (await messagesOf(database, 'wh_1')).every((m) => m.status === 'delivered'))
    expect(receiver.received).toHaveLength(4)
  })

  it('retries a failing receiver with backoff, holding later messages so the order is kept', async () => {
    // The first three requests fail (500, then 503, then a redirect, which is never followed).
    const receiver = await startReceiver((n) => (n === 1 ? 500 : n === 2 ? 503 : n === 3 ? 302 : 200))
    closers.push(receiver.close)
    await addWebhook(database, 'wh_retry', receiver.url)
    await writeLedgerBatch(
      database,
      batch(null, 10, 12, [
        [ALICE, 'vaultprotocol', 10],
        [ALICE, 'vaultprotocol', 11],
        [BOB, 'vaultprotocol', 12],
      ]),
    )
    dispatchers.push(dispatcherOn(database, [30, 30, 30, 30, 30]))
    await until(async () => (await messagesOf(database, 'wh_retry')).every((m) => m.status === 'delivered'))
    const got = verified(receiver.received)
    // The first message was tried 4 times (the same id each time) before the next was sent at all.
    expect(got.map((r) => r.body.ledger)).toEqual([10, 10, 10, 10, 11, 12])
    expect(new Set(got.slice(0, 4).map((r) => r.id)).size).toBe(1)
    const rows = await messagesOf(database, 'wh_retry')
    expect(rows.map((r) => r.attempts)).toEqual([4, 1, 1])
    expect(rows[0]!.last_status).toBe(200)
  })

  it('disables a subscription whose retries are spent, and the audit log says why', async () => {
    const receiver = await startReceiver(() => 500)
    closers.push(receiver.close)
    await addWebhook(database, 'wh_dead', receiver.url)
    await writeLedgerBatch(
      database,
      batch(null, 10, 11, [
        [ALICE, 'vaultprotocol', 10],
        [ALICE, 'vaultprotocol', 11],
      ]),
    )
    dispatchers.push(dispatcherOn(database, [20, 20]))
    await until(async () => {
      const row = await database.db
        .selectFrom('webhooks')
        .select('status')
        .where('id', '=', 'wh_dead')
        .executeTakeFirst()
      return row?.status === 'disabled'
    })
    // 1 attempt + 2 retries, all on the first message; the second waits for the subscription's return.
    expect(receiver.received).toHaveLength(3)
    const rows = await messagesOf(database, 'wh_dead')
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['failed', 3],
      ['pending', 0],
    ])
    expect(rows[0]!.last_status).toBe(500)
    const webhook = await database.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', 'wh_dead')
      .executeTakeFirstOrThrow()
    expect(webhook.disabled_reason).toContain(`msg_${rows[0]!.seq}`)
    const audit = await database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target', '=', 'wh_dead')
      .execute()
    expect(audit.map((a) => a.action)).toEqual(['webhook.disabled'])
    expect(JSON.parse(audit[0]!.details!).delivery_id).toBe(`msg_${rows[0]!.seq}`)
  })

  it('two dispatchers on one store deliver each message once, in order', async () => {
    const receiver = await startReceiver(() => 200)
    closers.push(receiver.close)
    const other = testDb.open()
    closers.push(() => other.close())
    await addWebhook(database, 'wh_a', receiver.url)
    await addWebhook(database, 'wh_b', `${receiver.url}?b`)
    const rows: Array<[string, string, number]> = []
    for (let l = 10; l < 40; l++) rows.push([l % 2 === 0 ? ALICE : BOB, 'vaultprotocol', l])
    await writeLedgerBatch(database, batch(null, 10, 39, rows))
    dispatchers.push(dispatcherOn(database, [30]), dispatcherOn(other, [30]))
    await until(async () => {
      const left = await database.db
        .selectFrom('webhook_messages')
        .select('seq')
        .where('status', '!=', 'delivered')
        .execute()
      return left.length === 0
    })
    const got = verified(receiver.received)
    expect(got).toHaveLength(60)
    expect(new Set(got.map((r) => r.id)).size).toBe(60)
    // Each subscription got its 30 ledgers in order, whichever process sent each one.
    for (const url of ['/hooks', '/hooks?b']) {
      const ledgers = receiver.received.filter((r) => r.url === url).map((r) => JSON.parse(r.body).ledger)
      expect(ledgers).toEqual(rows.map((r) => r[2]))
    }
  })

  it('resumes after a delivering process vanished: its lease ends by itself', async () => {
    const receiver = await startReceiver(() => 200)
    closers.push(receiver.close)
    await addWebhook(database, 'wh_orphan', receiver.url)
    await writeLedgerBatch(
      database,
      batch(null, 10, 11, [
        [ALICE, 'vaultprotocol', 10],
        [ALICE, 'vaultprotocol', 11],
      ]),
    )
    // A process that claimed it and died: its lease runs until shortly from now.
    await database.db
      .updateTable('webhooks')
      .set({ lease_owner: 'a-dead-process', lease_until: Date.now() + 300 })
      .where('id', '=', 'wh_orphan')
      .execute()
    dispatchers.push(dispatcherOn(database, [30]))
    await new Promise((r) => setTimeout(r, 150))
    expect(receiver.received).toHaveLength(0)
    await until(() => receiver.received.length === 2)
    expect(verified(receiver.received).map((r) => r.body.ledger)).toEqual([10, 11])
  })

  it('redelivers one message on demand, with its first id and body', async () => {
    const receiver = await startReceiver(() => 200)
    closers.push(receiver.close)
    await addWebhook(database, 'wh_again', receiver.url)
    await writeLedgerBatch(database, batch(null, 10, 10, [[ALICE, 'vaultprotocol', 10]]))
    const dispatcher = dispatcherOn(database, [30])
    dispatchers.push(dispatcher)
    await until(() => receiver.received.length === 1)
    const [message] = await messagesOf(database, 'wh_again')
    const row = await dispatcher.redeliver('wh_again', message!.seq)
    expect(row?.attempts).toBe(2)
    expect(row?.status).toBe('delivered')
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body)
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id'])
    expect(await dispatcher.redeliver('wh_other', message!.seq)).toBeNull()
  })
})
