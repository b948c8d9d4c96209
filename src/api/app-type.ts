import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type {
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { Logger } from '../logger.ts'

/**
 * The HTTP application as routes see it: Fastify on Node's HTTP server, the process's logger, and
 * TypeBox schemas as types. Its own module so route files can take it without importing the
 * module that registers them (`app.ts` checks that what it builds is this type).
 */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Logger,
  TypeBoxTypeProvider
>
