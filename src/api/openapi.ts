import type { SwaggerOptions } from '@fastify/swagger'
import { VERSION } from '../version.ts'
import { GETTING_STARTED } from './getting-started.ts'
import type { RouteAuth } from './request-context.ts'

/** The documented security of each credential a route declares; `none` is an explicit empty list. */
const SECURITY: Record<RouteAuth, Array<Record<string, string[]>>> = {
  api_key: [{ apiKey: [] }],
  bearer: [{ bearer: [] }],
  admin: [{ admin: [] }],
  none: [],
}

/** `GET /v1/users/:address/positions/blend` → `getUsersAddressPositionsBlend`: unique per route. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/v1/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
  return method.toLowerCase() + words.join('')
}

/** OpenAPI 3.1, generated from the route schemas that also validate requests. */
export function buildOpenApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Strata positions API',
        version: VERSION,
        license: { name: 'Proprietary (UNLICENSED)', url: 'https://spdx.org/licenses/' },
        description: GETTING_STARTED,
      },
      servers: [{ url: '/', description: 'The server this document is served from' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-svc-token' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          admin: { type: 'apiKey', in: 'header', name: 'x-svc-admin-token' },
        },
      },
    },
    // Each operation's security comes from the credential the route declares in `config.auth`,
    // the same value the guard enforces, so the document cannot disagree with the code.
    transform: ({ schema, url, route }) => {
      const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth ?? 'none'
      const method = [route.method].flat()[0] ?? 'GET'
      return {
        url,
        schema: {
          ...schema,
          security: SECURITY[auth],
          operationId:
            (schema as { operationId?: string } | undefined)?.operationId ?? operationIdOf(method, url),
        } as typeof schema,
      }
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  }
}
