import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors.ts'
import type { Caller } from './request-context.ts'

type Of<K extends Caller['kind']> = Extract<Caller, { kind: K }>

/** The bearer caller of a route that declares `auth: 'bearer'`. */
export function requireBearer(request: FastifyRequest): Of<'bearer'> {
  const caller = request.caller
  if (caller?.kind !== 'bearer') throw new AppError('unauthorized', 'a bearer access token is required')
  return caller
}

/** The API-key caller of a route that declares `auth: 'api_key'`. */
export function requireApiKeyCaller(request: FastifyRequest): Of<'api_key'> {
  const caller = request.caller
  if (caller?.kind !== 'api_key') throw new AppError('unauthorized', 'an API key is required')
  return caller
}
