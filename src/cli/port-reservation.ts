import { createServer, type Server } from 'node:net'

/** Ports held from the first moment of a start until the real listeners take them. */
export interface PortReservation {
  /**
   * Lets the ports go, right before the real listeners bind them: the window another process
   * could take one in is that of a close and a listen, not the whole start-up.
   */
  release(): Promise<void>
}

function hold(port: number, host: string): Promise<Server> {
  const server = createServer((socket) => socket.destroy())
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * Binds each port (0: any port, nothing to hold) on `host` before anything slow starts (loading the
 * API, a devnet, catch-up indexing), so a busy one fails at once with the listen error Node reports
 * (`EADDRINUSE` with its port and address, as the real listener would). On failure nothing stays
 * bound.
 */
export async function reservePorts(
  ports: ReadonlyArray<number | null>,
  host: string,
): Promise<PortReservation> {
  const held: Server[] = []
  try {
    for (const port of ports) if (port) held.push(await hold(port, host))
  } catch (error) {
    await Promise.all(held.map(close))
    throw error
  }
  return { release: () => Promise.all(held.splice(0).map(close)).then(() => {}) }
}
