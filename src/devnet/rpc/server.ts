import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { DevnetChain } from '../world/chain.ts'
import { createFaultPlan, type FaultKind } from './faults.ts'
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError } from './rpc-errors.ts'
import { callRpcMethod } from './rpc-methods.ts'

/** JSON-RPC 2.0 over HTTP (POST /), plus GET /network.json announcing the devnet's contracts. */

const MAX_BODY_BYTES = 1024 * 1024
export const DEFAULT_FAULT_TIMEOUT_MS = 2_500

export interface DevnetServerOptions {
  seed: string
  faultRate: number
  faultTimeoutMs: number
}

export interface DevnetServer {
  server: Server
  /** Stops answering, cancels held "timeout" responses and drops open connections. */
  close(): Promise<void>
}

export function createDevnetServer(chain: DevnetChain, options: DevnetServerOptions): DevnetServer {
  const faults = createFaultPlan(options.seed, options.faultRate)
  const held = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/network.json' || req.url?.startsWith('/network.json?'))) {
      sendJson(res, 200, chain.network)
      return
    }
    if (req.method !== 'POST' || (req.url !== '/' && !req.url?.startsWith('/?'))) {
      sendJson(res, 404, { error: 'not found: POST / takes JSON-RPC 2.0, GET /network.json the contracts' })
      return
    }
    readBody(req, (body) => {
      if (body === null) {
        sendJson(res, 413, rpcError(null, INVALID_REQUEST, 'request body too large'))
        return
      }
      const fault = faults.nextFault()
      const reply = answer(chain, body)
      if (fault) injectFault(fault, req, res, reply, held, options.faultTimeoutMs)
      else sendJson(res, 200, reply)
    })
  })

  // Idle connections stay open well past Node's default 5 s: a client in the same process (a test,
  // the embedded indexer) may block the event loop longer than that between two requests, and then
  // the server's timer and the client's fire together and the client reuses a closing socket.
  server.keepAliveTimeout = 65_000

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of held) clearTimeout(timer)
        held.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function answer(chain: DevnetChain, body: string): unknown {
  let request: unknown
  try {
    request = JSON.parse(body)
  } catch {
    return rpcError(null, PARSE_ERROR, 'parse error')
  }
  if (Array.isArray(request)) {
    if (request.length === 0) return rpcError(null, INVALID_REQUEST, 'empty batch')
    return request.map((r) => answerOne(chain, r))
  }
  return answerOne(chain, request)
}

function answerOne(chain: DevnetChain, request: unknown): unknown {
  if (typeof request !== 'object' || request === null)
    return rpcError(null, INVALID_REQUEST, 'invalid request')
  const { jsonrpc, id = null, method, params } = request as Record<string, unknown>
  if (jsonrpc !== '2.0' || typeof method !== 'string') {
    return rpcError(id, INVALID_REQUEST, 'invalid request: jsonrpc must be "2.0" and method a string')
  }
  try {
    return { jsonrpc: '2.0', id, result: callRpcMethod(chain, method, params) }
  } catch (error) {
    if (error instanceof RpcError) return rpcError(id, error.code, error.message)
    return rpcError(id, INTERNAL_ERROR, 'internal error')
  }
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

function injectFault(
  kind: FaultKind,
  req: IncomingMessage,
  res: ServerResponse,
  reply: unknown,
  held: Set<NodeJS.Timeout>,
  timeoutMs: number,
): void {
  switch (kind) {
    case 'http-500':
      sendJson(res, 500, { error: 'injected fault: internal server error' })
      return
    case 'rate-limited':
      res.setHeader('retry-after', '1')
      sendJson(res, 429, { error: 'injected fault: too many requests' })
      return
    case 'timeout': {
      // Held past the client's timeout, then dropped without an answer.
      const timer = setTimeout(() => {
        held.delete(timer)
        req.socket.destroy()
      }, timeoutMs)
      held.add(timer)
      return
    }
    case 'truncated': {
      const body = Buffer.from(JSON.stringify(reply))
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy())
      return
    }
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function readBody(req: IncomingMessage, done: (body: string | null) => void): void {
  const chunks: Buffer[] = []
  let size = 0
  let tooLarge = false
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_BODY_BYTES) tooLarge = true
    else chunks.push(chunk)
  })
  req.on('end', () => done(tooLarge ? null : Buffer.concat(chunks).toString('utf8')))
}
