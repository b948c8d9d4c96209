/**
 * The OpenAPI document's examples, asked of the demo network: `npm run openapi:examples` starts the
 * demo's deterministic devnet (its seed, with a fixed genesis time), indexes it into a throwaway
 * SQLite store, builds the application on it with a fixed clock, calls every documented operation
 * (its answer, and the refusals it can be led to give: an unknown query parameter, no credential,
 * a key without the scope, a `min_ledger` ahead of the index, a body of another type) and writes
 * each operation's requests and answers to `src/api/examples/<operationId>.json`, which the
 * document attaches (src/api/openapi.ts). test/api/openapi-examples.test.ts asks again and fails
 * when an answer no longer matches its example.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/api/app.ts'
import { loadOperationExamples, type OperationExample } from '../src/api/examples/load.ts'
import { EXAMPLE_REQUEST_ID } from '../src/api/openapi.ts'
import { WEBHOOK_BODY_LIMIT } from '../src/api/webhook-schemas.ts'
import { createApiKey } from '../src/auth/create-api-key.ts'
import { CONFIRM_LAST_KEY } from '../src/auth/own-api-keys.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { DEMO_DEVNET } from '../src/demo.ts'
import { startDevnet } from '../src/devnet/devnet.ts'
import { createIndexer } from '../src/indexer/index.ts'
import { createLogger } from '../src/logger.ts'
import { protocolWord } from '../src/protocols/kit/response-schema.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { canonicalText, comparable } from './openapi-examples-compare.ts'
import { askWebhookOperations } from './openapi-examples-webhooks.ts'

export { comparable }

/** The demo network's first ledger closes at 2026-01-01T00:00:00Z, whenever the examples are made. */
const GENESIS_CLOSE_TIME_S = 1_767_225_600
const ADMIN_TOKEN = 'openapi-examples-admin-token'
/** The directory the examples are written to and read from. */
export const EXAMPLES_DIRECTORY = fileURLToPath(new URL('../src/api/examples/', import.meta.url))

export type Json = Record<string, unknown>
export interface Ask {
  /** Shown as another example of its status, so summarized. */
  variant?: string
  path?: Record<string, string>
  query?: Record<string, string>
  headers?: Record<string, string>
  body?: unknown
  /** A body sent as this text, not as the JSON of `body`. */
  raw?: string
}
interface Answer {
  status: number
  body: unknown
}

/** Every `response_time_ms` (a measurement) written as 1, the value the examples show. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === 'response_time_ms' ? 1 : normalize(item)]),
  )
}

/**
 * An answer's body as its example: the JSON of a JSON answer; of a Server-Sent Events stream, the
 * `data` of its first event (what the document shows as the stream's example).
 */
function answerBody(type: string | string[] | number | undefined, body: string): unknown {
  if (typeof type !== 'string' || !type.startsWith('text/event-stream')) return JSON.parse(body)
  const data = body
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .find((lines) => lines.length > 0)
  if (data === undefined) throw new Error('the stream sent no event to show')
  return JSON.parse(data.map((line) => line.slice('data: '.length)).join('\n'))
}

/** Asks the demo network every documented operation; the examples by operation id. */
export async function collectExamples(): Promise<Record<string, OperationExample>> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-examples-'))
  const path = join(dir, 'strata.db')
  const config = loadConfig(
    {
      DATABASE_URL: `sqlite:${path}`,
      LOG_LEVEL: 'error',
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      // The outbox's rows stay as the walk writes them: nothing is sent but the redelivery asked for.
      STRATA_WEBHOOK_DELIVERY: 'off',
    },
    { database: { kind: 'sqlite', path } },
  )
  const database = createDatabase(config.database)
  const quiet = createLogger('error', new Writable({ write: (_chunk, _encoding, done) => done() }))
  const devnet = await startDevnet({ ...DEMO_DEVNET, genesisCloseTimeS: GENESIS_CLOSE_TIME_S })
  try {
    await migrateToLatest(database)
    const head = devnet.latestLedger()
    await createIndexer({ database, logger: quiet, rpcUrl: devnet.url, network: devnet.network }).syncTo(head)
    // A minute after the last ledger closed, at every run.
    const nowMs = (GENESIS_CLOSE_TIME_S + DEMO_DEVNET.ledgers * 5 + 60) * 1000
    const ctx = await createContext(config, quiet, { database, clock: { now: () => nowMs } })
    const app = await buildApp(ctx, { demo: true })
    try {
      // What the timers write, written when the walk needs it written (a key's last use, the day's requests).
      const flushUsage = async () => {
        await ctx.keyUsage.flush()
        await ctx.orgUsage.flush()
      }
      return await askEveryOperation(
        app,
        ctx.keyPepper,
        database,
        nowMs,
        head,
        config.bodyLimitBytes,
        flushUsage,
      )
    } finally {
      await app.close()
      await ctx.close()
    }
  } finally {
    await devnet.close()
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

type App = Awaited<ReturnType<typeof buildApp>>

async function askEveryOperation(
  app: App,
  pepper: string,
  database: ReturnType<typeof createDatabase>,
  nowMs: number,
  head: number,
  bodyLimit: number,
  flushUsage: () => Promise<void>,
): Promise<Record<string, OperationExample>> {
  const key = async (slug: string, scopes: string[]) =>
    (
      await createApiKey(database.db, pepper, nowMs, {
        organizationName: 'Demo',
        organizationSlug: slug,
        keyName: `examples ${slug}`,
        scopes,
        expiresAt: null,
      })
    ).key
  const dataKey = await key('demo', ['data:read'])
  const scopelessKey = await key('demo-no-scope', [])

  /** One request, as a client sends it; its status and parsed body. */
  const send = async (
    method: string,
    template: string,
    ask: Ask,
    credential: Record<string, string>,
    contentType = 'application/json',
  ): Promise<Answer> => {
    const url = template.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
      encodeURIComponent(ask.path?.[name] ?? ''),
    )
    const query = new URLSearchParams(ask.query ?? {}).toString()
    const response = await app.inject({
      method: method as 'GET',
      url: query ? `${url}?${query}` : url,
      headers: {
        'x-request-id': EXAMPLE_REQUEST_ID,
        ...credential,
        ...(ask.headers ?? {}),
        ...(ask.body === undefined && ask.raw === undefined ? {} : { 'content-type': contentType }),
      },
      ...(ask.raw !== undefined
        ? { payload: ask.raw }
        : ask.body === undefined
          ? {}
          : { payload: contentType === 'application/json' ? JSON.stringify(ask.body) : 'x' }),
    })
    return {
      status: response.statusCode,
      body:
        response.body === '' ? null : normalize(answerBody(response.headers['content-type'], response.body)),
    }
  }

  const document = app.swagger() as unknown as {
    paths: Record<string, Record<string, { operationId: string; security: Array<Record<string, string[]>> }>>
  }
  const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      id: operation.operationId,
      scheme: Object.keys(operation.security[0] ?? {})[0] ?? 'none',
    })),
  )
  const byId = new Map(operations.map((operation) => [operation.id, operation]))

  // The management walk's own state: an account signed up, its tokens and keys.
  const account = {
    organization_name: 'Example Org',
    organization_slug: 'example-org',
    email: 'ops@example.com',
    password: 'correct horse battery staple',
  }
  const state: { access?: string; refresh?: string; keyId?: string; firstKey?: string } = {}
  const credentialOf = (scheme: string): Record<string, string> =>
    scheme === 'apiKey'
      ? { 'x-svc-token': dataKey }
      : scheme === 'bearer'
        ? { authorization: `Bearer ${state.access}` }
        : scheme === 'admin'
          ? { 'x-svc-admin-token': ADMIN_TOKEN }
          : {}

  const examples: Record<string, OperationExample> = {}
  /**
   * Asks `asks` (each must be answered 2xx) and the refusals every operation can be led to give,
   * then `refused`: requests this operation refuses (a key that does not exist, a reused
   * Idempotency-Key…). The first answer of each status is the example of that status.
   */
  const record = async (id: string, asks: Ask[], after?: (body: Json) => void, refused: Ask[] = []) => {
    const operation = byId.get(id)
    if (!operation) return
    const credential = credentialOf(operation.scheme)
    const responses: Record<string, unknown> = {}
    const variants: NonNullable<OperationExample['variants']> = {}
    const request: OperationExample['request'] = {}
    for (const ask of asks) {
      const answer = await send(operation.method, operation.template, ask, credential)
      if (answer.status >= 400) {
        throw new Error(
          `${id}: ${operation.method} ${operation.template} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        )
      }
      const status = String(answer.status)
      if (ask.variant !== undefined) {
        variants[status] = [...(variants[status] ?? []), { summary: ask.variant, value: answer.body }]
      } else {
        responses[status] ??= answer.body
      }
      for (const place of ['path', 'query', 'headers'] as const) {
        if (ask[place]) request[place] = { ...ask[place], ...(request[place] ?? {}) }
      }
      if (ask.body !== undefined) request.body ??= ask.body
      if (after && answer.body) after(answer.body as Json)
    }
    const first = asks[0] ?? {}
    const refusal = async (ask: Ask, given: Record<string, string>, contentType?: string) => {
      const answer = await send(operation.method, operation.template, ask, given, contentType)
      responses[String(answer.status)] ??= answer.body
    }
    await refusal({ ...first, query: { ...(first.query ?? {}), unknown_parameter: '1' } }, credential)
    if (operation.scheme !== 'none') await refusal(first, {})
    if (operation.scheme === 'apiKey') {
      await refusal(first, { 'x-svc-token': scopelessKey })
      await refusal({ ...first, query: { ...(first.query ?? {}), min_ledger: '9999999999' } }, credential)
    }
    if (first.body !== undefined) {
      await refusal(first, credential, 'text/plain')
      await refusal(
        // Above the largest body any route takes (a webhook subscription's).
        {
          ...first,
          body: undefined,
          raw: JSON.stringify({ padding: 'x'.repeat(Math.max(bodyLimit, WEBHOOK_BODY_LIMIT)) }),
        },
        credential,
      )
    }
    for (const ask of refused) await refusal(ask, credential)
    examples[id] = { request, responses, ...(Object.keys(variants).length > 0 ? { variants } : {}) }
  }

  // The demo's accounts: one per protocol, and one holding several.
  const demoAccounts = (await send('GET', '/v1/demo/accounts', {}, credentialOf('apiKey'))).body as {
    data: Array<{ example_of: string; address: string }>
  }
  const accountOf = (name: string) =>
    (demoAccounts.data.find((a) => a.example_of === name) ?? demoAccounts.data[0])?.address as string
  const past = String(head - 1000)
  const min = { min_ledger: String(head - 10) }
  const nextCursor = (body: Json) => (body.meta as { next_cursor?: string | null } | undefined)?.next_cursor

  await record('getHealth', [{}])
  await record('listDemoAccounts', [{}])

  // Positions, history, TVL and the protocols' own surfaces, per protocol.
  const protocols: Json[] = []
  let cursor: string | null | undefined
  const page = async () => {
    const answer = await send(
      'GET',
      '/v1/protocols',
      { query: { limit: '2', ...(cursor ? { cursor } : {}) } },
      credentialOf('apiKey'),
    )
    protocols.push(...((answer.body as { data: Json[] }).data ?? []))
    cursor = nextCursor(answer.body as Json)
  }
  do await page()
  while (cursor)
  let listCursor: string | undefined
  await record('listProtocols', [{ query: { limit: '2', ...min } }], (body) => {
    listCursor ??= nextCursor(body) ?? undefined
  })
  if (listCursor)
    await record('listProtocols', [
      { query: { limit: '2', ...min } },
      { variant: 'The next page', query: { limit: '2', cursor: listCursor } },
    ])

  // The ledger at a time: within the indexed range, then before it and after the checkpoint.
  await record('getLedgerAtTime', [
    { query: { time: '2026-01-01T02:00:02Z', ...min } },
    { variant: 'Before the first indexed ledger: unknown', query: { time: '2025-12-31T23:00:00Z' } },
    { variant: 'After the checkpoint: the checkpoint, partial', query: { time: '2026-01-02T00:00:00Z' } },
  ])

  for (const protocol of protocols) {
    const name = protocol.name as string
    const P = protocolWord(name)
    const address = accountOf(name)
    await record(`get${P}Positions`, [{ path: { address }, query: { as_of_ledger: past, ...min } }])
    await record(`get${P}PositionsAt`, [{ path: { address, ledger: past }, query: min }])
    // The history of an account with more than one snapshot, so the example shows a cursor.
    const historyOf = (holder: string) => ({
      path: { address: holder },
      query: { from_ledger: '1', to_ledger: String(head), limit: '1', ...min },
    })
    let history = historyOf(address)
    let historyCursor: string | null | undefined
    for (const holder of [address, ...demoAccounts.data.map((a) => a.address)]) {
      const answer = await send(
        'GET',
        `/v1/users/{address}/positions/${name}/history`,
        historyOf(holder),
        credentialOf('apiKey'),
      )
      historyCursor = answer.status === 200 ? nextCursor(answer.body as Json) : undefined
      if (historyCursor) {
        history = historyOf(holder)
        break
      }
    }
    await record(`get${P}PositionsHistory`, [
      history,
      ...(historyCursor
        ? [{ variant: 'The next page', path: history.path, query: { limit: '1', cursor: historyCursor } }]
        : []),
    ])
    await record(`get${P}Tvl`, [
      { query: { as_of_ledger: past, ...min } },
      { variant: 'A daily series', query: { from_ledger: '1', to_ledger: String(head), interval: 'day' } },
    ])
    await record(`get${P}Reserves`, [{ query: { as_of_ledger: past, ...min } }])
    await record(`get${P}Emissions`, [{ query: { as_of_ledger: past, ...min } }])
    const poolId = `get${P}Pool`
    const pool = byId.get(poolId)
    if (pool) {
      for (const contract of (protocol.contracts as Array<{ contract_address: string }> | undefined) ?? []) {
        const ask = { path: { pool: contract.contract_address }, query: { as_of_ledger: past, ...min } }
        const answer = await send('GET', pool.template, ask, credentialOf('apiKey'))
        if (answer.status === 200) {
          // A contract of another protocol is no pool of this one: its 404.
          const foreign = protocols
            .filter((other) => other.name !== name)
            .flatMap((other) => (other.contracts as Array<{ contract_address: string }> | undefined) ?? [])[0]
          const refused = foreign ? [{ path: { pool: foreign.contract_address }, query: min }] : []
          await record(poolId, [ask], undefined, refused)
          break
        }
      }
    }
  }

  const several = accountOf('several')
  // The stream of position changes, over a range it replays and ends (`to_ledger`): its first event.
  await record('getStreamPositions', [
    { query: { addresses: several, from_ledger: past, to_ledger: String(head), ...min } },
    { query: { addresses: several, to_ledger: String(head) }, headers: { 'last-event-id': String(head) } },
  ])
  await record('getAllPositions', [{ path: { address: several }, query: { as_of_ledger: past, ...min } }])
  await record('getAllPositionsAt', [{ path: { address: several, ledger: past }, query: min }])

  // Activities: the account's first action names the filters and the transaction asked about.
  const all = (
    await send(
      'GET',
      '/v1/users/{address}/activities',
      { path: { address: several }, query: { limit: '1' } },
      credentialOf('apiKey'),
    )
  ).body as { data: { activities: Json[] } }
  const action = all.data.activities[0] as Json
  const filters = { protocol: String(action.protocol), type: String(action.type) }
  const range = { from_ledger: '1', to_ledger: String(head) }
  let activityCursor: string | undefined
  const activities = { path: { address: several }, query: { ...filters, ...range, limit: '2', ...min } }
  await record('listActivities', [activities], (body) => {
    activityCursor ??= nextCursor(body) ?? undefined
  })
  if (activityCursor) {
    await record('listActivities', [
      activities,
      { variant: 'The next page', path: { address: several }, query: { limit: '2', cursor: activityCursor } },
    ])
  }
  await record('getActivitySeries', [
    { path: { address: several }, query: { interval: 'day', protocol: filters.protocol, ...range, ...min } },
  ])
  await record('getTransaction', [{ path: { hash: String(action.tx_hash) }, query: min }], undefined, [
    { path: { hash: '0'.repeat(64) }, query: min },
  ])

  // The management walk: sign up, log in, use the account, and finally log out.
  const idempotency = (n: number) => ({ 'idempotency-key': `example-${n}` })
  const firstKey = (body: Json) => {
    state.firstKey = (body.api_key as { key: string }).key
  }
  await record('signUp', [{ headers: idempotency(1), body: account }], firstKey, [
    { headers: idempotency(1), body: { ...account, organization_name: 'Another Org' } },
  ])
  await record('logIn', [{ body: { email: account.email, password: account.password } }], (body) => {
    state.access = body.access_token as string
    state.refresh = body.refresh_token as string
  })
  await record('refreshAccessToken', [{ body: { refresh_token: state.refresh } }])
  await record('getOrganization', [{}])
  // Three data requests of the organization's first key: its usage shows them.
  for (let i = 0; i < 3; i++)
    await send('GET', '/v1/protocols', { query: { limit: '1' } }, { 'x-svc-token': state.firstKey as string })
  await flushUsage()
  await record('getOrganizationUsage', [{}])
  await record('updateBilling', [{ body: { billing_email: 'billing@example.com' } }], undefined, [
    { body: { plan: 'pro' } },
  ])
  await record(
    'createApiKey',
    [{ headers: idempotency(2), body: { name: 'dashboard', scopes: ['data:read'] } }],
    (body) => {
      state.keyId = body.api_key_id as string
    },
    [{ headers: idempotency(2), body: { name: 'another name', scopes: ['data:read'] } }],
  )
  await record('listApiKeys', [{}])
  await record(
    'rotateApiKey',
    [
      {
        path: { id: state.keyId as string },
        headers: idempotency(3),
        body: { old_key_expires_in_seconds: 3600 },
      },
    ],
    undefined,
    [
      { path: { id: 'key_unknown' }, headers: idempotency(31), body: { old_key_expires_in_seconds: 3600 } },
      {
        path: { id: state.keyId as string },
        headers: idempotency(3),
        body: { old_key_expires_in_seconds: 60 },
      },
    ],
  )
  await record(
    'revokeApiKey',
    [{ path: { id: state.keyId as string }, query: { confirm: CONFIRM_LAST_KEY } }],
    undefined,
    [{ path: { id: 'key_unknown' } }],
  )
  let auditCursor: string | undefined
  await record('listAuditLog', [{ query: { limit: '2' } }], (body) => {
    auditCursor ??= nextCursor(body) ?? undefined
  })
  if (auditCursor)
    await record('listAuditLog', [
      { query: { limit: '2' } },
      { variant: 'The next page', query: { limit: '2', cursor: auditCursor } },
    ])
  await askWebhookOperations({ record, db: database.db, idempotency, address: several, head, nowMs })
  await record(
    'createOrganizationApiKey',
    [
      {
        headers: idempotency(4),
        body: {
          organization_name: 'Acme Analytics',
          organization_slug: 'acme-analytics',
          key_name: 'production',
          scopes: ['data:read'],
          reuse_signup_organization: false,
        },
      },
    ],
    undefined,
    [
      {
        headers: idempotency(4),
        body: { organization_name: 'Acme', organization_slug: 'acme-analytics', key_name: 'production' },
      },
    ],
  )
  await record('logOut', [{ body: { refresh_token: state.refresh } }])

  // Any other operation that needs nothing but its credential (a route added since): asked as it is.
  for (const operation of operations) {
    if (
      examples[operation.id] === undefined &&
      operation.method === 'GET' &&
      !operation.template.includes('{')
    ) {
      await record(operation.id, [{}])
    }
  }

  // Last, the service's own routes with the database gone: health's 503 (and readiness's).
  await database.close()
  for (const operation of operations) {
    const example = examples[operation.id]
    if (
      !example ||
      operation.scheme !== 'none' ||
      operation.method !== 'GET' ||
      operation.template.includes('{')
    ) {
      continue
    }
    const unavailable = await send('GET', operation.template, {}, {})
    if (unavailable.status === 503) example.responses['503'] ??= unavailable.body
  }

  const missing = operations.map((operation) => operation.id).filter((id) => examples[id] === undefined)
  if (missing.length > 0) throw new Error(`no example was asked for ${missing.join(', ')}`)
  return examples
}

/**
 * Writes every example, one file per operation, formatted as the repository formats JSON. A file
 * whose answers are unchanged but for drawn values is left as it is, so a run changes only what
 * changed.
 */
export function writeExamples(examples: Record<string, OperationExample>): void {
  const kept = loadOperationExamples()
  for (const file of readdirSync(EXAMPLES_DIRECTORY)) {
    if (file.endsWith('.json') && examples[file.slice(0, -'.json'.length)] === undefined) {
      rmSync(join(EXAMPLES_DIRECTORY, file))
    }
  }
  for (const [id, example] of Object.entries(examples)) {
    if (canonicalText(comparable(kept[id])) === canonicalText(comparable(example))) continue
    writeFileSync(join(EXAMPLES_DIRECTORY, `${id}.json`), `${JSON.stringify(example, null, 2)}\n`)
  }
  spawnSync('npx', ['biome', 'format', '--write', EXAMPLES_DIRECTORY], { stdio: 'inherit' })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const examples = await collectExamples()
  writeExamples(examples)
  console.log(`wrote ${Object.keys(examples).length} examples to ${EXAMPLES_DIRECTORY}`)
}
