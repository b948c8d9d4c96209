/** JSON-RPC 2.0 error codes as Stellar RPC uses them. */
export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603

export class RpcError extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.name = 'RpcError'
    this.code = code
  }
}

export function invalidParams(message: string): RpcError {
  return new RpcError(INVALID_PARAMS, message)
}

export type Params = Record<string, unknown>

/** Reads an optional whole-number parameter, rejecting anything else with -32602. */
export function readUint(params: Params, name: string): number | undefined {
  const value = params[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw invalidParams(`${name} must be an unsigned 32-bit integer`)
  }
  return value
}

export function readObject(params: Params, name: string): Params | undefined {
  const value = params[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`${name} must be an object`)
  return value as Params
}

export function readString(params: Params, name: string): string | undefined {
  const value = params[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw invalidParams(`${name} must be a string`)
  return value
}

/** Only base64 XDR is served; the JSON rendering of XDR is not implemented. */
export function requireBase64Format(params: Params): void {
  const format = readString(params, 'xdrFormat')
  if (format !== undefined && format !== 'base64')
    throw invalidParams(`xdrFormat "${format}" is not supported`)
}
