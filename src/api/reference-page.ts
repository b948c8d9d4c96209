/**
 * The human API reference at `/v1/docs`: Scalar's API reference (sidebar grouped by the document's
 * tags, search, code samples, a request client) reading the OpenAPI document at
 * `/v1/openapi.json`, so it always says what the running code does. Everything it loads comes from
 * this server: Scalar's script from the installed package, no font, proxy, telemetry or CDN.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import scalar from '@scalar/fastify-api-reference'
import type { App } from './app-type.ts'

/** Where the page is. */
export const REFERENCE_PAGE_PATH = '/v1/docs'

/** The installed Scalar's version, read from its package, so the asset's URL names it. */
function scalarVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/fastify-api-reference')
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'))
  return String(manifest.version)
}

/**
 * Where the plugin's routes live. The version is part of the path, so the script, which changes
 * only with the package, can be cached for a year: a new version is a new URL.
 */
const SCALAR_PREFIX = `${REFERENCE_PAGE_PATH}/scalar-${scalarVersion()}` as const

/** Scalar's bundled script (about 5 MB raw), served by the plugin from the package. */
export const REFERENCE_SCRIPT_PATH = `${SCALAR_PREFIX}/js/scalar.js`

/**
 * What the page asks of Scalar. Every option that would reach another host is off: the default
 * fonts (fonts.scalar.com), telemetry, the agent chat, the MCP button and the developer toolbar;
 * no `proxyUrl` is given, so the in-page request client ("Test Request") calls this server
 * directly (same origin, no CORS needed). `hideClientButton` removes the "Open API Client" links,
 * which would send the reader, and this server's document URL, to Scalar's hosted client. Code
 * samples open on curl, and the credential prefilled is the API key (`x-svc-token`), the one every
 * data endpoint takes.
 */
export const REFERENCE_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  documentDownloadType: 'json',
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  authentication: { preferredSecurityScheme: 'apiKey' },
  // The first tag opens on arrival, the others from the sidebar (Scalar warns that opening every
  // tag slows the page on large documents).
  defaultOpenFirstTag: true,
} as const

/**
 * The page's one inline script, run before Scalar's: it tells the Zod bundled in Scalar not to
 * compile its validators with `Function`. Zod first probes whether it may (`Function('')` in a
 * try/catch); the policy forbids it, so the probe fails harmlessly but the browser reports a
 * policy violation on every load. Set beforehand, Zod never probes.
 */
const ZOD_JITLESS_SCRIPT = 'globalThis.__zod_globalConfig={...globalThis.__zod_globalConfig,jitless:true}'

/**
 * The page's Content-Security-Policy: scripts from this server, plus the one inline script above
 * named by its hash (Scalar reads its configuration from a JSON data block, which is not run, so
 * nothing else needs inlining; no 'unsafe-eval', no 'unsafe-inline' for scripts), requests to
 * this server only (the document, and the request client's calls). Styles need 'unsafe-inline':
 * Scalar injects its style sheet and sets style attributes at run time, and a hash cannot name
 * either. Images and fonts from this server or `data:` (Scalar's icons are inline SVG and data
 * URLs). No frame, form, base URL or plugin object from anywhere.
 */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(ZOD_JITLESS_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Escapes text for an HTML attribute value or text node. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * The page: a shell Scalar's script fills. The configuration is a JSON data block
 * (`<script id="api-reference" type="application/json" data-configuration>`, Scalar's own HTML
 * API), which is not run, so the only inline script is the hashed Zod line. `data:,` as the icon
 * spares the browser a request for `/favicon.ico`.
 */
export function renderReferencePage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript><p>This reference needs JavaScript. The OpenAPI document it shows is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
<script>${ZOD_JITLESS_SCRIPT}</script>
<script id="api-reference" type="application/json" data-configuration="${escapeHtml(JSON.stringify(REFERENCE_CONFIGURATION))}"></script>
<script src="${REFERENCE_SCRIPT_PATH}"></script>
</body>
</html>
`
}

/** A year, in seconds: the script's URL names its version, so it never changes under that URL. */
const SCRIPT_MAX_AGE_S = 365 * 24 * 3600

/**
 * Registers the page and Scalar's script. To be called inside a context whose routes take no
 * credential (the plugin's routes cannot declare one; see `app.ts`). The plugin also registers a
 * page of its own (with an inline script) at its prefix: that address leads to `/v1/docs`.
 */
export async function registerReferencePage(app: App, title: string): Promise<void> {
  const page = renderReferencePage(title)
  app.get(REFERENCE_PAGE_PATH, { config: { auth: 'none' }, schema: { hide: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', REFERENCE_PAGE_CSP).send(page),
  )
  await app.register(scalar, {
    routePrefix: SCALAR_PREFIX,
    configuration: { url: REFERENCE_CONFIGURATION.url },
    hooks: {
      onRequest: (request, reply, done) => {
        if (request.routeOptions.url !== REFERENCE_SCRIPT_PATH) {
          reply.redirect(REFERENCE_PAGE_PATH, 301)
          return
        }
        reply.header('cache-control', `public, max-age=${SCRIPT_MAX_AGE_S}, immutable`)
        reply.header('content-security-policy', REFERENCE_PAGE_CSP)
        done()
      },
    },
  })
}
