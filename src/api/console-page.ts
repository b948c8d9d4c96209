/**
 * The web console at `/console` (console/, a Preact single-page app built by Vite during
 * `npm install`). Its files are a dozen, hashed by content: they are read once when the app is
 * built, each kept with its gzip, and served from memory. The hashed assets are immutable; every
 * other path under /console answers the app's page, so the console's own URLs (an account, a
 * ledger, a pool) can be shared and reloaded. The page talks to this server's public API only, and
 * its policy says so: scripts, styles, requests and images from this origin, nothing else.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.ts'
import type { App } from './app-type.ts'
import { negotiateEncoding } from './http-conventions.ts'

/** Where the console is served. */
export const CONSOLE_PATH = '/console'

/** Where `npm run console:build` writes the console. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist', import.meta.url))

/**
 * The console page's policy: its scripts, styles (uPlot's sheet included), requests and images all
 * come from this server; no inline script, no eval, no frame.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

interface ConsoleFile {
  type: string
  body: Buffer
  gzip: Buffer | null
  etag: string
}

function load(path: string): ConsoleFile {
  const body = readFileSync(path)
  const type = TYPES[extname(path)] ?? 'application/octet-stream'
  const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.length >= 1024
  return {
    type,
    body,
    gzip: compressible ? gzipSync(body, { level: 9 }) : null,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  }
}

/** Every file under `dir`, by its path relative to it (with `/`). */
function filesOf(dir: string, prefix = ''): Map<string, string> {
  const found = new Map<string, string>()
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) for (const [k, v] of filesOf(path, `${prefix}${name}/`)) found.set(k, v)
    else found.set(`${prefix}${name}`, path)
  }
  return found
}

/** The built console, or null when it was never built (`npm install --ignore-scripts`). */
export function loadConsole(
  dist = CONSOLE_DIST,
): { index: ConsoleFile; assets: Map<string, ConsoleFile> } | null {
  if (!existsSync(join(dist, 'index.html'))) return null
  const assets = new Map<string, ConsoleFile>()
  for (const [relative, path] of filesOf(dist))
    if (relative !== 'index.html') assets.set(relative, load(path))
  return { index: load(join(dist, 'index.html')), assets }
}

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cacheControl: string) {
  reply.header('content-type', file.type)
  reply.header('cache-control', cacheControl)
  reply.header('etag', file.etag)
  reply.header('vary', 'accept-encoding')
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send()
  const accept = request.headers['accept-encoding']
  if (file.gzip && accept !== undefined && negotiateEncoding(accept) === 'gzip') {
    // Already compressed: the onSend hook leaves an answer with a content-encoding alone.
    reply.header('content-encoding', 'gzip')
    return reply.send(file.gzip)
  }
  return reply.send(file.body)
}

/** Registers `/console`, its assets, and the page for every other path under it. */
export function registerConsole(app: App, dist = CONSOLE_DIST): void {
  const built = loadConsole(dist)
  const config = { auth: 'none' as const, anyQuery: true }
  const schema = { hide: true }
  const notBuilt = () =>
    new AppError(
      'unavailable',
      'the console is not built in this installation: run `npm run console:build` (npm install does it)',
    )
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!built) throw notBuilt()
    reply.header('content-security-policy', CONSOLE_CSP)
    // The page names its hashed assets: it is revalidated on every load, so a new build is seen at once.
    return send(request, reply, built.index, 'no-cache')
  }
  app.get(CONSOLE_PATH, { config, schema }, page)
  app.get(`${CONSOLE_PATH}/*`, { config, schema }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*']
    if (!rest.startsWith('assets/')) return page(request, reply)
    if (!built) throw notBuilt()
    const file = built.assets.get(rest)
    if (!file) throw new AppError('not_found', `the console has no file ${rest}`)
    // Named by its content's hash: the same URL never serves other bytes.
    return send(request, reply, file, 'public, max-age=31536000, immutable')
  })
}
