import type { SwaggerOptions } from '@fastify/swagger'
import { VERSION } from '../version.ts'

/** OpenAPI 3.1, generated from the route schemas that also validate requests. */
export function buildOpenApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Strata positions API',
        version: VERSION,
        description:
          'Point-in-time DeFi positions on the Stellar network. Data endpoints take an API key in `x-svc-token`; management endpoints take a bearer access token from /v1/auth/login.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-svc-token' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          admin: { type: 'apiKey', in: 'header', name: 'x-svc-admin-token' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  }
}
