import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from '../logger.ts'

/** How long a refused connection may take to close its side after its 429, before it is dropped. */
const REFUSED_LINGER_MS = 1000

/** The address a connection comes from, one spelling per client (`::ffff:1.2.3.4` is `1.2.3.4`). */
export function clientAddressOf(socket: Socket): string {
  const address = socket.remoteAddress ?? 'unknown'
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address
}

/**
 * The short answer a connection over the limit gets, written on the raw socket before any HTTP
 * parsing (the request never reaches the application): a 429 in the error envelope, then close.
 */
export function refusalResponse(limit: number): string {
  const body = JSON.stringify({
    error: {
      code: 'rate_limited',
      message: `too many connections open from this address (at most ${limit}); close some and retry`,
    },
    meta: { request_id: randomUUID(), response_time_ms: 0 },
  })
  return [
    'HTTP/1.1 429 Too Many Requests',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Retry-After: 1',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n')
}

/**
 * Limits the connections one client address holds open on `server` at once (STRATA_MAX_CONNECTIONS_PER_CLIENT;
 * 0: no limit), so one client opening hundreds of connections (and trickling requests on them)
 * cannot use up the process's file descriptors and lock every other client out.
 *
 * It sits in front of the HTTP server's own connection handling: a connection within the limit is
 * handed to it unchanged; one over the limit never reaches the HTTP parser. It is answered a 429
 * in the error envelope on the raw socket, its side is closed, and what the client sends meanwhile
 * is read and dropped (closing with unread bytes would reset the connection and lose the answer);
 * a client that does not close its side within a second is dropped. The address is the TCP peer's:
 * behind a load balancer it is the balancer's (TRUST_PROXY does not apply at this level).
 */
export function limitConnectionsPerClient(server: Server, limit: number, logger: Logger): void {
  if (limit <= 0) return
  const open = new Map<string, number>()
  // One warning per address until its count falls back under the limit, not one per refusal.
  const warned = new Set<string>()
  const handlers = server.listeners('connection') as Array<(socket: Socket) => void>
  server.removeAllListeners('connection')
  server.on('connection', (socket: Socket) => {
    const address = clientAddressOf(socket)
    const count = open.get(address) ?? 0
    if (count >= limit) {
      refuse(socket, limit)
      if (!warned.has(address)) {
        warned.add(address)
        logger.warn({ client: address, limit }, 'connections refused: too many open from one address')
      }
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
      if (left < limit) warned.delete(address)
    })
    for (const handler of handlers) handler.call(server, socket)
  })
}

function refuse(socket: Socket, limit: number): void {
  socket.on('error', () => {})
  const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS)
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
  socket.once('end', () => socket.destroy())
  socket.resume()
  socket.end(refusalResponse(limit))
}
