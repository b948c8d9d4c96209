import type { ServerResponse } from 'node:http'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import type { SurfaceSerializers } from '../../positions/answer-cache.ts'
import { PROTOCOLS } from '../../protocols/registry.ts'
import { readChanges } from '../../push/changes-read.ts'
import { createCheckpointWatcher } from '../../push/checkpoint-watcher.ts'
import type { CommitSignal } from '../../push/commit-signal.ts'
import {
  POSITION_CHANGED,
  PositionChangedEvent,
  protocolNamed,
  type RenderedChange,
  renderChanges,
} from '../../push/position-changed.ts'
import { createStreamCounts } from '../../push/stream-limits.ts'
import type { IndexerHead } from '../../store/positions-read.ts'
import type { App } from '../app-type.ts'
import { LedgerPin, requireAddress } from '../params.ts'
import { compileSurfaceSerializers, DATA_ERRORS, DATA_SCOPE, dataDeps, invalid } from '../route-helpers.ts'

/**
 * `GET /v1/stream/positions`: the `position.changed` events of some accounts as Server-Sent
 * Events, one per new snapshot, in ledger order, resumable with `Last-Event-ID` from the stored
 * snapshots (docs/api.md, "Stream of position changes", is the contract). Every open stream
 * waits on the process's one checkpoint watcher; on each move it reads its accounts' new
 * snapshots in one statement, renders them as their history items and writes them, reading no
 * more while the client does not take what was written.
 */

/** The most addresses one stream follows (their StrKeys fill about 11 KB of the URL). */
export const STREAM_ADDRESSES_MAX = 200
/** What the `retry:` line asks a client to wait before reconnecting, in milliseconds. */
const RETRY_MS = 2000
/** The content type of the stream. */
const EVENT_STREAM = 'text/event-stream; charset=utf-8'

const PROTOCOL_NAMES = PROTOCOLS.map((module) => module.name)

/** The comma-separated addresses, each a valid StrKey (the first invalid one is named), without repeats. */
function parseAddresses(raw: string): string[] {
  const addresses = [...new Set(raw.split(','))]
  if (addresses.some((a) => a === '')) {
    throw invalid('addresses', 'addresses must be StrKeys separated by single commas, with none empty')
  }
  if (addresses.length > STREAM_ADDRESSES_MAX) {
    throw invalid(
      'addresses',
      `a stream follows at most ${STREAM_ADDRESSES_MAX} addresses; open another stream for more`,
    )
  }
  for (const address of addresses) requireAddress(address)
  return addresses.sort()
}

/** The comma-separated protocol names (all registered ones when absent), in registry order. */
function parseProtocols(raw: string | undefined): string[] {
  if (raw === undefined) return PROTOCOL_NAMES
  const names = new Set(raw.split(','))
  for (const name of names) {
    if (protocolNamed(name) === undefined) {
      throw invalid(
        'protocols',
        `"${name}" is not a registered protocol; registered: ${PROTOCOL_NAMES.join(', ')}`,
      )
    }
  }
  return PROTOCOL_NAMES.filter((name) => names.has(name))
}

/** A ledger given as `Last-Event-ID` or `from_ledger`: a whole number (beyond 2^53: never reached). */
function ledgerAfter(raw: string, field: string): number {
  if (!/^[0-9]{1,19}$/.test(raw)) throw invalid(field, `${field} must be a ledger sequence (a whole number)`)
  const value = Number(raw)
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER
}

/** The SSE text of events: `id: <ledger>` on the last event of each ledger only. */
export function eventsText(changes: readonly RenderedChange[]): string {
  let text = ''
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!
    const lastOfLedger = changes[i + 1]?.ledger !== change.ledger
    text += `event: ${POSITION_CHANGED}\n${lastOfLedger ? `id: ${change.ledger}\n` : ''}data: ${change.json}\n\n`
  }
  return text
}

/** A stream the app can end on close. */
interface OpenStream {
  end(reason: string): void
}

export function registerStreamRoutes(app: App, ctx: AppContext, commits?: CommitSignal): void {
  const watcher = createCheckpointWatcher(ctx.reader, ctx.config.streamPollMs, ctx.logger)
  // A commit of the in-process indexer is read at once, not at the next poll.
  const unpoke = commits?.subscribe(() => watcher.poke())
  const counts = createStreamCounts(ctx.config.replicas)
  const open = new Set<OpenStream>()
  let serializers: SurfaceSerializers | undefined
  // Before the server waits for its connections: every stream ends now, not at the shutdown timeout.
  app.addHook('preClose', (done) => {
    for (const stream of [...open]) stream.end('the server is shutting down')
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    unpoke?.()
    watcher.close()
    done()
  })

  app.get(
    '/v1/stream/positions',
    {
      config: { auth: 'api_key', scope: DATA_SCOPE },
      schema: {
        summary: 'Stream of position changes (Server-Sent Events)',
        description: `Server-Sent Events: one \`${POSITION_CHANGED}\` event per new snapshot of the given accounts in the given protocols, in ledger order (then protocol, then address), each event's \`data\` the JSON of \`PositionChangedEvent\`. Only the last event of a ledger carries \`id: <ledger>\`, so \`Last-Event-ID\` (sent by EventSource on reconnect) resumes after the last ledger received whole, from the stored snapshots: nothing is missed, and a ledger cut mid-way is sent again whole (deduplicate by address, protocol and ledger). Without \`Last-Event-ID\` nor \`from_ledger\`, the stream starts at the checkpoint (only new changes). A \`: heartbeat\` comment keeps a quiet stream open. Open streams per organization are limited by plan (free 2, pro 20, enterprise 100): one more is \`429\`. See "Stream of position changes" in docs/api.md.`,
        tags: ['Positions'],
        security: [{ apiKey: [] }],
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({
              description:
                'The id of the last event received (a ledger): the stream resumes after that ledger. Wins over `from_ledger`',
              examples: ['3001'],
            }),
          ),
        }),
        querystring: Type.Object(
          {
            addresses: Type.String({
              minLength: 1,
              description: `Comma-separated account or contract addresses (G... or C...), at most ${STREAM_ADDRESSES_MAX}`,
              examples: ['GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD'],
            }),
            protocols: Type.Optional(
              Type.String({
                minLength: 1,
                description: `Comma-separated registered protocols (${PROTOCOL_NAMES.join(', ')}); all when omitted`,
                examples: [PROTOCOL_NAMES.join(',')],
              }),
            ),
            from_ledger: Type.Optional(
              Type.Unsafe<string>({
                ...LedgerPin,
                description:
                  'Start after this ledger (the changes of later ledgers, stored ones first) when no `Last-Event-ID` is sent',
              }),
            ),
            to_ledger: Type.Optional(
              Type.Unsafe<string>({
                ...LedgerPin,
                description:
                  'End the stream once the events of this ledger are sent (a replay of a range), with `id: <to_ledger>` last; absent: the stream stays open',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: `The stream (\`${EVENT_STREAM}\`): \`retry:\`, then \`event: ${POSITION_CHANGED}\` events whose \`data\` is a PositionChangedEvent, and \`: heartbeat\` comments`,
            content: { 'text/event-stream': { schema: PositionChangedEvent } },
          },
          204: Type.Null({
            description:
              'No Content: `to_ledger` is given and the range is already sent (`Last-Event-ID` or `from_ledger` at `to_ledger`); EventSource stops reconnecting',
          }),
          ...DATA_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const q = request.query as {
        addresses: string
        protocols?: string
        from_ledger?: string
        to_ledger?: string
      }
      const addresses = parseAddresses(q.addresses)
      const protocols = parseProtocols(q.protocols)
      const lastEventId = request.headers['last-event-id']
      const toLedger = q.to_ledger === undefined ? null : ledgerAfter(q.to_ledger, 'to_ledger')
      let after: number
      if (typeof lastEventId === 'string') after = ledgerAfter(lastEventId, 'last-event-id')
      else if (q.from_ledger !== undefined) after = ledgerAfter(q.from_ledger, 'from_ledger')
      else after = (await ctx.reader.head()).lastIndexedLedger ?? 0
      if (toLedger !== null && after > toLedger && typeof lastEventId !== 'string') {
        throw invalid('from_ledger', 'from_ledger must be at most to_ledger')
      }
      // A replayed range already sent whole (the client reconnecting after its end, as EventSource
      // does): 204 tells it to stop reconnecting.
      if (toLedger !== null && after >= toLedger) return reply.code(204).send(null)
      // HEAD: the stream's headers, and no stream.
      if (request.method === 'HEAD')
        return (reply as FastifyReply).header('cache-control', 'no-cache').type(EVENT_STREAM).send()
      const caller = request.caller
      if (caller.kind !== 'api_key') throw new Error('the stream is an API-key route')
      const release = counts.open(caller.organizationId, caller.plan)
      serializers ??= compileSurfaceSerializers(reply)
      const kept = serializers
      startStream(reply, { addresses, protocols, after, toLedger, release, serializers: kept })
    },
  )

  /** Writes the stream until the client leaves, `to_ledger` is reached or the app closes. */
  function startStream(
    reply: FastifyReply,
    options: {
      addresses: string[]
      protocols: string[]
      after: number
      toLedger: number | null
      release: () => void
      serializers: SurfaceSerializers
    },
  ): void {
    const { addresses, protocols, toLedger, release } = options
    let after = options.after
    const res: ServerResponse = reply.raw
    const log = reply.log
    reply.hijack()
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': EVENT_STREAM,
      // Neither a cache nor a proxy may keep or buffer the stream.
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    })
    res.write(`retry: ${RETRY_MS}\n\n`)

    // At most enough rows for one whole ledger of every followed account, so a read always ends
    // with at least one whole ledger.
    const limit = Math.max(500, addresses.length * protocols.length + 1)
    let closed = false
    let running = false
    let again = false
    let head: IndexerHead | null = null
    let waitDrain: (() => void) | null = null

    const finish = (reason: string) => {
      if (closed) return
      closed = true
      open.delete(stream)
      clearInterval(heartbeat)
      unsubscribe()
      release()
      waitDrain?.()
      log.info({ reason, last_event_ledger: after }, 'stream closed')
    }
    const stream: OpenStream = {
      end(reason) {
        finish(reason)
        res.end()
      },
    }
    open.add(stream)
    res.on('close', () => finish('the client disconnected'))
    res.on('drain', () => waitDrain?.())

    const drained = () =>
      new Promise<void>((resolve) => {
        waitDrain = () => {
          waitDrain = null
          resolve()
        }
      })

    /** Sends every change in (after, checkpoint]; again if the checkpoint moved meanwhile. */
    const pump = async () => {
      if (running) {
        again = true
        return
      }
      running = true
      try {
        do {
          again = false
          const current = head ?? (await ctx.reader.head())
          const checkpoint = current.lastIndexedLedger ?? 0
          const upTo = toLedger === null ? checkpoint : Math.min(checkpoint, toLedger)
          while (!closed && after < upTo) {
            const rows = await readChanges(ctx.database, addresses, protocols, after, upTo, limit)
            let batch = rows
            let reached = upTo
            if (rows.length === limit) {
              const partial = rows.at(-1)!.ledger
              batch = rows.filter((row) => row.ledger < partial)
              reached = partial - 1
            }
            const deps = await dataDeps(ctx)
            const changes = await renderChanges(batch, deps, current, ctx.caches.answers, options.serializers)
            if (closed) return
            after = reached
            // A slow client: nothing more is read until what was written has left.
            if (changes.length > 0 && !res.write(eventsText(changes))) await drained()
          }
          if (!closed && toLedger !== null && after >= toLedger) {
            // The id of the range's end, with no event (SSE updates the last id of an event without
            // data): a reconnection then asks for nothing more and is answered 204.
            res.write(`id: ${toLedger}\n\n`)
            stream.end('to_ledger reached')
          }
        } while (again && !closed)
      } catch (error) {
        // The client resumes with its Last-Event-ID; nothing is lost. A read cut by the stream's
        // own end (the server stopping) is no failure.
        if (closed) return
        log.error({ err: error }, 'stream failed; closing it')
        stream.end('a read failed')
      } finally {
        running = false
      }
    }

    const heartbeat = setInterval(() => {
      // A client not taking what was written gets no more, a heartbeat included.
      if (!closed && !res.writableNeedDrain) res.write(': heartbeat\n\n')
    }, ctx.config.streamHeartbeatS * 1000)
    const unsubscribe = watcher.subscribe((moved) => {
      head = moved
      void pump()
    })
    // Stored changes first (a resume, a from_ledger), at once.
    void pump()
  }
}
