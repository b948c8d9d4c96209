import { randomUUID } from 'node:crypto'
import pg from 'pg'

/**
 * What a PostgreSQL replica knows, without a round trip, of the commits that change a request's
 * state: the authentication generation and the indexer checkpoint (the two rows every API-key
 * request begins with, see src/store/request-state.ts). PostgreSQL's counterpart of SQLite's
 * CommitProbe.
 *
 * One dedicated connection per process LISTENs on `strata_state`. Triggers on `auth_generation`
 * and `indexer_state` (migration 014) send `<schema>:change` in the transaction that changes them,
 * so the notification goes out when, and only if, the change commits. The same connection carries
 * a heartbeat, `<schema>:hb:<replica>`, every HEARTBEAT_MS.
 *
 * The lease. A notification is delivered to a listening connection in the order of commits, and
 * before the answer of any statement that connection ends after the notifying commit (PostgreSQL
 * sends the notifications that arrived during a statement before its ReadyForQuery). So when a
 * heartbeat sent at time h is answered, every change committed before h has been received and has
 * moved `version()`. The watch serves from memory only while its last answered heartbeat was sent
 * less than LEASE_MS ago: a lost, stalled or not yet started connection makes `version()` a new
 * number at every call, and every request reads its statement again. A lost connection costs
 * speed, never correctness; a change committed elsewhere is seen within LEASE_MS at the latest.
 *
 * Strata's own writes go further (`settle()`): after its commit, a writer sends `sync:<replica>:<n>`
 * and answers its caller only when every replica whose lease may still be running has answered
 * `ack:<replica>:<origin>:<n>` (each acknowledges after it has received everything committed
 * before the sync, the writer's change included), or once that replica's lease has run out. So the
 * next request to any replica after the answer sees the change.
 */
export interface CommitWatch {
  /** The same number from one call to the next only while the lease holds and no change arrived. */
  version(): number
  /** Resolves once every replica that may serve from memory has received what was committed before the call. */
  settle(): Promise<void>
  /** Whether the lease holds now: requests are answered from memory. */
  live(): boolean
  /**
   * Since when the lease has not held, and why as far as the watch knows; null while it holds, and
   * before the watch was started. What `/v1/health` reports once it lasts (WatchOutage).
   */
  outage(): WatchOutage | null
  /** Connects now (otherwise the first `version()` or `live()` does). */
  listen(): void
  close(): Promise<void>
}

/** The lease not holding: requests read their state with a statement, and writes wait the lease out. */
export interface WatchOutage {
  /** How long it has not held, in milliseconds. */
  forMs: number
  /** The connection's last error or refusal, as the driver reported it; null when none was seen (a stalled heartbeat). */
  cause: string | null
}

/** The notification channel of every Strata store in a database; payloads begin with the schema. */
export const STATE_CHANNEL = 'strata_state'
/** How often the listening connection proves itself alive, and announces this replica to the others. */
export const HEARTBEAT_MS = 200
/** How long an answered heartbeat lets a replica serve from memory, counted from when it was sent. */
export const LEASE_MS = 1000
/** The first wait before connecting again after a failure; it doubles up to LEASE_MS. */
const RECONNECT_MIN_MS = 50

/** The application name of the listening connection, so an operator (or a test) can find it. */
export const watchApplicationName = (schema: string) => `strata-watch:${schema}`

interface PendingSync {
  /** Resolved when this replica's own sync comes back: everything before it has been read. */
  echoed: () => void
  /** The replicas that acknowledged (an acknowledgement may come in the same read as the echo). */
  acked: Set<string>
  /** The replicas whose acknowledgement is still awaited, with the end of their lease. */
  awaiting: Map<string, number> | null
  done: () => void
}

export function createCommitWatch(settings: pg.ClientConfig, schemaOption: string | null): CommitWatch {
  const id = randomUUID().slice(0, 8)
  const now = () => performance.now()
  let counter = 0
  let client: pg.Client | null = null
  let schema: string | null = schemaOption
  /** When the last answered heartbeat was sent; -Infinity when none answered on this connection. */
  let leaseFrom = Number.NEGATIVE_INFINITY
  /** When this connection's LISTEN was answered: every heartbeat sent since has reached it. */
  let listeningSince = Number.POSITIVE_INFINITY
  let started = false
  let closed = false
  let heartbeat: NodeJS.Timeout | null = null
  let reconnectDelay = RECONNECT_MIN_MS
  /**
   * When the watch last lost its lease with its connection (started, dropped, refused); null from
   * the first heartbeat answered on a connection (a lease lost after that ran out at
   * leaseFrom + LEASE_MS).
   */
  let outSince: number | null = null
  /** The last error the connection or a connection attempt reported, cleared by an answered heartbeat. */
  let lastError: string | null = null
  /** Other replicas, with when their last heartbeat was received here. */
  const peers = new Map<string, number>()
  let syncSeq = 0
  const syncs = new Map<number, PendingSync>()

  const leaseHolds = () => client !== null && now() - leaseFrom < LEASE_MS

  const send = (payload: string): Promise<unknown> => {
    const connection = client
    if (connection === null) return Promise.reject(new Error('no notification connection'))
    return connection.query('SELECT pg_notify($1, $2)', [STATE_CHANNEL, `${schema}:${payload}`])
  }

  const drop = (connection: pg.Client, error?: Error) => {
    if (client !== connection) return
    client = null
    outSince ??= now()
    if (error !== undefined) lastError = error.message
    leaseFrom = Number.NEGATIVE_INFINITY
    listeningSince = Number.POSITIVE_INFINITY
    counter += 1
    connection.removeAllListeners('notification')
    connection.on('error', () => {})
    connection.connection.stream.destroy()
    if (heartbeat !== null) clearInterval(heartbeat)
    heartbeat = null
    // A sync waiting for its own echo will not get it on this connection: its writer falls back.
    for (const pending of syncs.values()) pending.echoed()
    reconnectLater()
  }

  /** Connects again after the current delay, which doubles up to LEASE_MS until a heartbeat is answered. */
  const reconnectLater = () => {
    if (closed) return
    setTimeout(connect, reconnectDelay).unref()
    reconnectDelay = Math.min(reconnectDelay * 2, LEASE_MS)
  }

  const beat = async (connection: pg.Client) => {
    const sentAt = now()
    try {
      await send(`hb:${id}`)
    } catch {
      drop(connection)
      return
    }
    if (client !== connection) return
    // Becoming live again: a read that began before the lease may have missed a change that
    // committed while nothing listened, so nothing read before now is answered again.
    if (now() - leaseFrom >= LEASE_MS) counter += 1
    leaseFrom = Math.max(leaseFrom, sentAt)
    reconnectDelay = RECONNECT_MIN_MS
    outSince = null
    lastError = null
  }

  const onNotification = (message: pg.Notification) => {
    const payload = message.payload ?? ''
    const prefix = `${schema}:`
    if (!payload.startsWith(prefix)) return
    const [kind, from, origin, n] = payload.slice(prefix.length).split(':')
    if (kind === 'change') {
      counter += 1
    } else if (kind === 'hb') {
      if (from !== id) peers.set(from!, now())
    } else if (kind === 'sync') {
      if (from === id) {
        syncs.get(Number(origin))?.echoed()
      } else {
        // Everything committed before this sync has been received here (and moved `version()`).
        send(`ack:${id}:${from}:${origin}`).catch(() => {})
      }
    } else if (kind === 'ack' && origin === id) {
      const pending = syncs.get(Number(n))
      pending?.acked.add(from!)
      if (pending?.awaiting?.delete(from!) && pending.awaiting.size === 0) pending.done()
    }
  }

  async function connect(): Promise<void> {
    if (closed || client !== null) return
    const connection = new pg.Client(settings)
    connection.on('error', (error) => drop(connection, error))
    connection.on('end', () => drop(connection, new Error('the server closed the connection')))
    try {
      await connection.connect()
      if (closed) {
        await connection.end()
        return
      }
      const found = await connection.query<{ schema: string }>('SELECT current_schema() AS schema')
      schema = found.rows[0]?.schema ?? schema
      await connection.query("SELECT set_config('application_name', $1, false)", [
        watchApplicationName(schema ?? ''),
      ])
      connection.on('notification', onNotification)
      await connection.query(`LISTEN ${STATE_CHANNEL}`)
    } catch (error) {
      lastError = (error as Error).message
      connection.removeAllListeners('end')
      connection.on('error', () => {})
      connection.connection.stream.destroy()
      reconnectLater()
      return
    }
    client = connection
    listeningSince = now()
    await beat(connection)
    if (client !== connection) return
    heartbeat = setInterval(() => beat(connection), HEARTBEAT_MS)
    heartbeat.unref()
  }

  const start = () => {
    if (started) return
    started = true
    outSince = now()
    connect()
  }

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)))
  /** A bound raced against another wait: it does not keep the process alive by itself. */
  const bound = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref())

  return {
    version() {
      start()
      if (!leaseHolds()) counter += 1
      return counter
    },
    live() {
      start()
      return leaseHolds()
    },
    listen: start,
    outage() {
      if (!started || closed || leaseHolds()) return null
      // Connected but not renewed (a heartbeat unanswered): out since the lease ran out.
      const from = outSince ?? leaseFrom + LEASE_MS
      return { forMs: Math.max(0, now() - from), cause: lastError }
    },
    async settle() {
      const from = now()
      // Without a live connection, wait out every lease that began before this call: a replica
      // whose lease begins later has received the change before its heartbeat was answered.
      if (!leaseHolds()) return sleep(LEASE_MS)
      // A lease that holds now began with a heartbeat sent less than LEASE_MS ago: once this
      // connection has listened that long, every such heartbeat has reached it (or will, before
      // the sync's echo), so the replicas below are all that may answer from memory.
      const young = listeningSince + LEASE_MS - now()
      if (young > 0) {
        await sleep(young)
        if (!leaseHolds() || now() - listeningSince < LEASE_MS) return sleep(LEASE_MS - (now() - from))
      }
      const n = ++syncSeq
      let echoed!: () => void
      let done!: () => void
      const echo = new Promise<void>((resolve) => {
        echoed = resolve
      })
      const acked = new Promise<void>((resolve) => {
        done = resolve
      })
      const pending: PendingSync = { echoed, done, acked: new Set(), awaiting: null }
      syncs.set(n, pending)
      try {
        const sent = send(`sync:${id}:${n}`).then(
          () => true,
          () => false,
        )
        const echoedInTime = await Promise.race([
          echo.then(() => client !== null),
          bound(LEASE_MS).then(() => false),
        ])
        if (!(await sent) || !echoedInTime) return sleep(LEASE_MS - (now() - from))
        // Every replica whose heartbeat this process has read may still hold a lease that began
        // before the change: wait for its acknowledgement, or for that lease to end.
        const at = now()
        const awaiting = new Map<string, number>()
        for (const [peer, seen] of peers) {
          if (seen + LEASE_MS <= at) peers.delete(peer)
          else if (!pending.acked.has(peer)) awaiting.set(peer, seen + LEASE_MS)
        }
        if (awaiting.size === 0) return
        pending.awaiting = awaiting
        const latest = Math.max(...awaiting.values())
        await Promise.race([acked, bound(latest - now())])
      } finally {
        syncs.delete(n)
      }
    },
    async close() {
      closed = true
      // Dropping the connection stops the heartbeat; with none, nothing runs.
      if (client !== null) drop(client)
    },
  }
}
