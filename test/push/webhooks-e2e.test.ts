import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIdentities } from '../../src/devnet/world/identities.ts'
import { sealWebhookSecret } from '../../src/push/webhook-secrets.ts'
import type { Database } from '../../src/store/db.ts'
import { createWebhook } from '../../src/store/webhooks.ts'
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../support/database.ts'
import { type ServerProcess, startServerProcess } from '../support/process.ts'

/**
 * Webhooks from end to end, with real processes: `strata serve` indexing a devnet that closes a
 * ledger every 150 ms, a real receiver that verifies every signature with the Standard Webhooks
 * reference library and fails on purpose for a while, and a SIGKILL of the delivering process.
 * What arrives is compared with what the store says happened, read independently of the outbox:
 * the snapshots and activities tables, and `/history` for the watched accounts.
 */

const SEED = 'webhooks-end-to-end'
const PEPPER = 'webhooks-end-to-end-pepper-0123456789abcdef'
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
const ADMIN = 'webhooks-e2e-admin-token-0123'
const identities = createIdentities(SEED)
const WATCHED = [0, 1, 2, 3].map((i) => identities.accountAddress(i))

interface Delivery {
  id: string
  url: string
  body: string
  headers: IncomingHttpHeaders
}

/** The receiver: keeps every request; answers 503 while `failing`. */
async function startReceiver() {
  const deliveries: Delivery[] = []
  const state = { failing: false, refused: 0 }
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      if (state.failing) {
        state.refused++
        res.writeHead(503).end('down for maintenance')
        return
      }
      deliveries.push({
        id: String(req.headers['webhook-id']),
        url: req.url ?? '',
        body,
        headers: req.headers,
      })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    deliveries,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function addSubscription(
  database: Database,
  id: string,
  url: string,
  fields: { addresses: string[] | null; events: string[] },
) {
  await createWebhook(database.db, {
    id,
    organizationId: 'org_e2e',
    url,
    description: null,
    events: fields.events,
    addresses: fields.addresses,
    protocols: null,
    healthFactorThreshold: null,
    sealedSecret: sealWebhookSecret(SECRET, PEPPER),
    now: 1,
  })
}

describe('webhooks from a devnet to a receiver, across a SIGKILL and a failing receiver', () => {
  let devnet: Devnet
  let testDb: TestDatabase
  let database: Database
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const servers: ServerProcess[] = []
  let env: Record<string, string>

  beforeAll(async () => {
    devnet = await startDevnet({
      seed: SEED,
      ledgers: 60,
      accounts: 8,
      activity: 0.15,
      ammActivity: 0.1,
      yieldActivity: 0.1,
      closeIntervalMs: 150,
    })
    testDb = await createTestDatabase()
    database = testDb.open()
    await database.db
      .insertInto('organizations')
      .values({
        id: 'org_e2e',
        slug: 'e2e',
        name: 'e2e',
        plan: 'pro',
        billing_email: null,
        created_at: 1,
        created_by: 'admin',
        max_plan: 'pro',
      })
      .execute()
    receiver = await startReceiver()
    await addSubscription(database, 'wh_every', `${receiver.base}/every`, {
      addresses: null,
      events: ['position.changed', 'activity.created'],
    })
    await addSubscription(database, 'wh_watched', `${receiver.base}/watched`, {
      addresses: WATCHED,
      events: ['position.changed'],
    })
    env = {
      ...testDb.env,
      STELLAR_RPC_URL: devnet.url,
      STRATA_KEY_PEPPER: PEPPER,
      STRATA_ADMIN_TOKEN: ADMIN,
      STRATA_WEBHOOKS_ALLOW_LOOPBACK: '1',
      STRATA_WEBHOOK_TIMEOUT_MS: '500',
      STRATA_WEBHOOK_RETRY_SCHEDULE: Array(40).fill('100ms').join(','),
      RATE_LIMIT_PER_MINUTE: '100000',
      PORT: '0',
    }
  }, 120_000)

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL')
    await receiver?.close()
    await database?.close()
    await devnet?.close()
    await testDb?.drop()
  })

  it('delivers every change and activity once or more, signed, in ledger order, with no gap', async () => {
    // On PostgreSQL two instances share the work from the start; on SQLite one serves at a time.
    const instances = TEST_DB_KIND === 'postgres' ? 2 : 1
    for (let i = 0; i < instances; i++) servers.push(await startServerProcess(['serve'], env, 90_000))
    await until(() => receiver.deliveries.length >= 40, 60_000, 'the first deliveries')
    // While every instance lives, no message arrives twice (one lease per subscription).
    const seen = receiver.deliveries.map((d) => d.id)
    expect(new Set(seen).size).toBe(seen.length)

    // The delivering process dies without a word (on PostgreSQL, the one that indexes too: the
    // first to start holds the indexer lock), and the receiver fails for a while.
    servers[0]!.child.kill('SIGKILL')
    await new Promise<void>((resolve) => servers[0]!.child.once('exit', () => resolve()))
    receiver.state.failing = true
    if (instances === 1) servers.push(await startServerProcess(['serve'], env, 90_000))
    await until(() => receiver.state.refused >= 3, 30_000, 'refused deliveries')
    await new Promise((r) => setTimeout(r, 500))
    receiver.state.failing = false

    // Everything committed up to a checkpoint read once the survivor indexes again must arrive.
    const checkpointNow = async () =>
      Number(
        (
          await database.db
            .selectFrom('indexer_state')
            .select('last_ledger')
            .where('name', '=', 'ledgers')
            .executeTakeFirstOrThrow()
        ).last_ledger,
      )
    const atKill = await checkpointNow()
    await until(async () => (await checkpointNow()) > atKill + 5, 60_000, 'the surviving process to index')
    const live = servers.at(-1)!
    const checkpoint = { last_ledger: await checkpointNow() }
    const upTo = Number(checkpoint.last_ledger)

    // What happened, read from the store's own tables (not the outbox).
    const snapshots = await database.db
      .selectFrom('snapshots')
      .select(['protocol', 'address', 'ledger'])
      .where('ledger', '<=', upTo)
      .execute()
    const activities = await database.db
      .selectFrom('account_activities as aa')
      .innerJoin('activities as a', (join) =>
        join
          .onRef('a.ledger', '=', 'aa.ledger')
          .onRef('a.tx_order', '=', 'aa.tx_order')
          .onRef('a.event_index', '=', 'aa.event_index')
          .onRef('a.protocol', '=', 'aa.protocol'),
      )
      .select([
        'aa.account as account',
        'aa.protocol as protocol',
        'aa.ledger as ledger',
        'a.tx_hash as tx_hash',
        'aa.event_index as event_index',
      ])
      .where('aa.ledger', '<=', upTo)
      .execute()
    const expectedEvery = new Set([
      ...snapshots.map((s) => `position.changed ${s.protocol} ${s.address} ${Number(s.ledger)}`),
      ...activities.map(
        (a) =>
          `activity.created ${a.protocol} ${a.account} ${Number(a.ledger)} ${a.tx_hash}:${a.event_index}`,
      ),
    ])
    expect(snapshots.length).toBeGreaterThan(20)
    expect(activities.length).toBeGreaterThan(10)

    const keyOf = (body: string) => {
      const event = JSON.parse(body)
      return event.type === 'position.changed'
        ? `position.changed ${event.protocol} ${event.address} ${event.ledger}`
        : `activity.created ${event.protocol} ${event.address} ${event.ledger} ${event.item.tx_hash}:${event.item.event_index}`
    }
    const received = (path: string) => receiver.deliveries.filter((d) => d.url === `/${path}`)
    await until(
      () => {
        const got = new Set(received('every').map((d) => keyOf(d.body)))
        return [...expectedEvery].every((k) => got.has(k))
      },
      60_000,
      'every committed event',
    )

    const verifier = new Webhook(SECRET)
    for (const path of ['every', 'watched']) {
      const byId = new Map<string, string>()
      const firstLedgers: number[] = []
      for (const d of received(path)) {
        // Signed as the Standard Webhooks specification says (throws otherwise).
        verifier.verify(d.body, {
          'webhook-id': d.id,
          'webhook-timestamp': String(d.headers['webhook-timestamp']),
          'webhook-signature': String(d.headers['webhook-signature']),
        })
        // A message sent again (after the SIGKILL) is the same message: same id, same bytes.
        const before = byId.get(d.id)
        if (before !== undefined) expect(d.body).toBe(before)
        else {
          byId.set(d.id, d.body)
          firstLedgers.push(JSON.parse(d.body).ledger)
        }
      }
      // In ledger order per subscription.
      expect(firstLedgers).toEqual([...firstLedgers].sort((a, b) => a - b))
    }

    // No gap and nothing extra, up to the checkpoint.
    const every = new Set(
      received('every')
        .map((d) => keyOf(d.body))
        .filter((k) => Number(k.split(' ')[3]) <= upTo),
    )
    expect(every).toEqual(expectedEvery)

    // The watched accounts' changes equal their /history, protocol by protocol.
    const { key } = await fetch(`${live.url}/v1/org/api-keys`, {
      method: 'POST',
      headers: { 'x-svc-admin-token': ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ organization_name: 'e2e', organization_slug: 'e2e-history', key_name: 'k' }),
    }).then((r) => r.json() as Promise<{ key: string }>)
    const watched = new Set(
      received('watched')
        .map((d) => JSON.parse(d.body))
        .filter((e) => e.ledger <= upTo)
        .map((e) => `${e.protocol} ${e.address} ${e.ledger}`),
    )
    const history = new Set<string>()
    for (const address of WATCHED) {
      for (const protocol of ['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol']) {
        const page = await fetch(
          `${live.url}/v1/users/${address}/positions/${protocol}/history?to_ledger=${upTo}&limit=500`,
          { headers: { 'x-svc-token': key } },
        ).then((r) => r.json() as Promise<{ data: { snapshots: Array<{ ledger: number }> } }>)
        for (const s of page.data.snapshots) history.add(`${protocol} ${address} ${s.ledger}`)
      }
    }
    expect(history.size).toBeGreaterThan(0)
    expect(watched).toEqual(history)
  }, 240_000)
})
