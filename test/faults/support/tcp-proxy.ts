import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy in front of a real service (PostgreSQL, Redis) that a fault test can freeze: while
 * frozen, bytes stop flowing both ways but every connection stays open, as a network partition or a
 * hung server looks to a client; new connections are accepted and then hang too. `thaw` lets the
 * held bytes through. `cut` destroys every connection, as a restart or a failover does. `refuse`
 * ends each new connection as it arrives while the open ones keep flowing, as a server at its
 * connection limit (or one that went away behind a live pooler) looks to a client reconnecting.
 */
export interface TcpProxy {
  port: number
  /** `host:port` to put in a connection URL. */
  address: string
  freeze(): void
  thaw(): void
  /** Ends every proxied connection at once (the service itself is untouched). */
  cut(): void
  /** Ends every new connection at once (true) or proxies it again (false); open ones are untouched. */
  refuse(on: boolean): void
  /** Connections open now. */
  connections(): number
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>()
  let frozen = false
  let refusing = false
  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy()
      return
    }
    const upstream = connect(target.port, target.host)
    const pair = { client, upstream }
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    client.pipe(upstream)
    upstream.pipe(client)
    if (frozen) pause(pair)
  })
  const pause = ({ client, upstream }: { client: Socket; upstream: Socket }) => {
    client.unpipe(upstream)
    upstream.unpipe(client)
    client.pause()
    upstream.pause()
  }
  const resume = ({ client, upstream }: { client: Socket; upstream: Socket }) => {
    client.pipe(upstream)
    upstream.pipe(client)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    port,
    address: `127.0.0.1:${port}`,
    freeze() {
      frozen = true
      for (const pair of pairs) pause(pair)
    },
    thaw() {
      frozen = false
      for (const pair of pairs) resume(pair)
    },
    cut() {
      for (const { client, upstream } of [...pairs]) {
        client.destroy()
        upstream.destroy()
      }
    },
    refuse(on) {
      refusing = on
    },
    connections: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy()
          upstream.destroy()
        }
        server.close(() => resolve())
      }),
  }
}
