import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NetworkConfig } from '../../../src/chain/network.ts'
import type { FixtureLedger } from './fixture-chain.ts'

export type FaultKind = 'http500' | 'timeout' | 'truncated' | 'invalid-json' | 'rate-limited'
const FAULTS: FaultKind[] = ['http500', 'timeout', 'truncated', 'invalid-json', 'rate-limited']

export interface FakeRpcOptions {
  ledgers: FixtureLedger[]
  network: NetworkConfig
  /** Share of requests answered with a fault instead of the result. */
  faultRate?: number
  /** How long a "timeout" fault keeps the request open. */
  hangMs?: number
}

export interface FakeRpc {
  url: string
  requests(): number
  faults(): Record<FaultKind, number>
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}

/**
 * A minimal Stellar RPC (getLedgers with cursor, getLatestLedger, getHealth, getNetwork, /network.json) over
 * a fixed list of ledgers, with injected faults. Used until and beside the devnet.
 */
export async function startFakeRpc(options: FakeRpcOptions): Promise<FakeRpc> {
  const { ledgers } = options
  const first = ledgers[0]!.sequence
  const last = ledgers[ledgers.length - 1]!.sequence
  let requests = 0
  const faults = Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<FaultKind, number>
  let faultCounter = 0

  function answer(
    method: string,
    params: Record<string, unknown> | undefined,
  ): { result?: unknown; error?: { code: number; message: string } } {
    if (method === 'getLatestLedger')
      return { result: { id: ledgers[ledgers.length - 1]!.hash, protocolVersion: 23, sequence: last } }
    if (method === 'getNetwork')
      return { result: { passphrase: options.network.passphrase, protocolVersion: 23 } }
    if (method === 'getHealth')
      return {
        result: {
          status: 'healthy',
          latestLedger: last,
          oldestLedger: first,
          ledgerRetentionWindow: ledgers.length,
        },
      }
    if (method !== 'getLedgers') return { error: { code: -32601, message: 'method not found' } }
    const pagination = (params?.pagination ?? {}) as { cursor?: string; limit?: number }
    const limit = pagination.limit ?? 50
    if (limit < 1 || limit > 200)
      return { error: { code: -32602, message: 'limit must be between 1 and 200' } }
    const start =
      pagination.cursor !== undefined ? Number(pagination.cursor) + 1 : Number(params?.startLedger)
    if (pagination.cursor === undefined && (start < first || start > last)) {
      return {
        error: {
          code: -32600,
          message: `start ledger must be between the oldest ledger: ${first} and the latest ledger: ${last}`,
        },
      }
    }
    const page = ledgers.slice(Math.max(0, start - first), Math.max(0, start - first) + limit)
    return {
      result: {
        ledgers: page.map((l) => ({
          hash: l.hash,
          sequence: l.sequence,
          ledgerCloseTime: String(l.closeTime),
          metadataXdr: l.metadataXdr,
        })),
        latestLedger: last,
        oldestLedger: first,
        cursor: String(page.length > 0 ? page[page.length - 1]!.sequence : start - 1),
      },
    }
  }

  const sockets = new Set<import('node:net').Socket>()
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/network.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.network))
      return
    }
    const body = await readBody(req)
    requests++
    // Faults come at a fixed rhythm so every run meets the same mix.
    const faultRate = options.faultRate ?? 0
    if (faultRate > 0 && (requests * 7919) % 1000 < faultRate * 1000) {
      const kind = FAULTS[faultCounter++ % FAULTS.length]!
      faults[kind]++
      if (kind === 'http500') res.writeHead(500).end('internal error')
      else if (kind === 'rate-limited') res.writeHead(429, { 'retry-after': '0' }).end('slow down')
      else if (kind === 'timeout') setTimeout(() => res.destroy(), options.hangMs ?? 2000)
      else if (kind === 'invalid-json')
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>')
      else {
        const full = JSON.stringify({ jsonrpc: '2.0', id: 1, ...answer(...parseCall(body)) })
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(full.slice(0, Math.floor(full.length / 2)))
      }
      return
    }
    const [method, params] = parseCall(body)
    const id = (JSON.parse(body) as { id?: unknown }).id ?? null
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id, ...answer(method, params) }))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => requests,
    faults: () => ({ ...faults }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

function parseCall(body: string): [string, Record<string, unknown> | undefined] {
  const call = JSON.parse(body) as { method: string; params?: Record<string, unknown> }
  return [call.method, call.params]
}
