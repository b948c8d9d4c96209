export interface RpcReply {
  jsonrpc: string
  id: unknown
  result?: unknown
  error?: { code: number; message: string }
}

/** A raw JSON-RPC call, for what the SDK client cannot send (bad params, unknown methods). */
export async function callRaw(url: string, body: unknown): Promise<{ status: number; json: RpcReply }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as RpcReply }
}

export function rpcRequest(method: string, params?: unknown) {
  return { jsonrpc: '2.0', id: 7, method, params }
}
