/**
 * Generates the typed client's generated files from the OpenAPI document exactly as the
 * application serves it, formatted by Biome as the rest of the code is: `npm run client:generate`.
 * - clients/typescript/src/schema.ts: the types of every path, by openapi-typescript;
 * - clients/typescript/src/credentials.ts: which credential each operation takes (its `security`),
 *   so the client sends each secret only where it is asked for.
 * `npm run client:check` (CI) generates the same text in memory and fails, naming the command to
 * run, when a checked-in file differs: the client cannot drift from the routes. `--dir=<root>`
 * reads and writes the files under another root than the repository's.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { buildOpenApiDocument } from './openapi-document.ts'

/** The repository's root. */
const REPOSITORY = resolve(import.meta.dirname, '..')

/** The generated files, relative to the repository root. */
export const SCHEMA_PATH = 'clients/typescript/src/schema.ts'
export const CREDENTIALS_PATH = 'clients/typescript/src/credentials.ts'

/** The security schemes the client knows how to send, and the header each goes in. */
const KNOWN_SCHEMES: Record<string, { type: string; name?: string; scheme?: string }> = {
  apiKey: { type: 'apiKey', name: 'x-svc-token' },
  bearer: { type: 'http', scheme: 'bearer' },
  admin: { type: 'apiKey', name: 'x-svc-admin-token' },
}

const header = (what: string) => `/**
 * Generated from Strata's OpenAPI document (GET /v1/openapi.json)${what}.
 * Do not edit: run \`npm run client:generate\` after changing a route; CI runs
 * \`npm run client:check\`, which fails when this file differs from what the document generates.
 */

`

interface Operation {
  security?: Array<Record<string, string[]>>
}
interface Document {
  paths: Record<string, Record<string, Operation>>
  components?: { securitySchemes?: Record<string, { type: string; name?: string; scheme?: string }> }
}

/** Formats TypeScript text as `biome check` expects it. */
function format(path: string, text: string): string {
  // Biome's own launcher run by this Node: node_modules/.bin/biome is a shell script on Windows.
  const launcher = resolve(REPOSITORY, 'node_modules/@biomejs/biome/bin/biome')
  // From the repository's root, so Biome reads its biome.json whatever the caller's directory.
  const biome = spawnSync(process.execPath, [launcher, 'format', `--stdin-file-path=${path}`], {
    cwd: REPOSITORY,
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (biome.status !== 0) throw new Error(`biome could not format the generated ${path}:\n${biome.stderr}`)
  return biome.stdout
}

/**
 * Each operation (`GET /v1/org`) and the security scheme it takes, or null for none. A scheme the
 * client does not know how to send stops the generation, rather than a client that sends nothing.
 */
export function operationCredentials(document: Document): Record<string, string | null> {
  const schemes = document.components?.securitySchemes ?? {}
  for (const [name, scheme] of Object.entries(schemes)) {
    const known = KNOWN_SCHEMES[name]
    if (
      !known ||
      known.type !== scheme.type ||
      known.name !== scheme.name ||
      known.scheme !== scheme.scheme
    ) {
      throw new Error(
        `security scheme ${name} (${JSON.stringify(scheme)}) is not one the client sends: teach clients/typescript/src/index.ts its header`,
      )
    }
  }
  const credentials: Record<string, string | null> = {}
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const requirement = operation.security?.[0] ?? {}
      const names = Object.keys(requirement)
      if (names.length > 1) throw new Error(`${method} ${path} asks for several credentials at once`)
      credentials[`${method.toUpperCase()} ${path}`] = names[0] ?? null
    }
  }
  return credentials
}

/** Both files' whole text as the current routes generate them: path → text. */
export async function generateClientFiles(): Promise<Record<string, string>> {
  const document = (await buildOpenApiDocument()) as unknown as Document
  // biome-ignore lint/suspicious/noExplicitAny: openapi-typescript types its input as its own OpenAPI3 shape
  const ast = await openapiTS(document as any, { silent: true })
  const credentials = operationCredentials(document)
  const credentialsText =
    `${header(': the credential each operation takes')}` +
    `/** Each operation's security scheme (\`apiKey\`, \`bearer\`, \`admin\`), or null when it takes none. */\n` +
    `export const OPERATION_CREDENTIALS: Readonly<Record<string, 'apiKey' | 'bearer' | 'admin' | null>> = ${JSON.stringify(credentials, null, 2)}\n`
  return {
    [SCHEMA_PATH]: format(SCHEMA_PATH, header(' by openapi-typescript') + astToString(ast)),
    [CREDENTIALS_PATH]: format(CREDENTIALS_PATH, credentialsText),
  }
}

const isMain = resolve(process.argv[1] ?? '') === resolve(import.meta.filename)
if (isMain) {
  const check = process.argv.includes('--check')
  // --dir=<root>: read and write the files under another root than the repository's (tests).
  const root = process.argv.find((arg) => arg.startsWith('--dir='))?.slice('--dir='.length) ?? REPOSITORY
  const files = await generateClientFiles()
  const stale: string[] = []
  for (const [path, text] of Object.entries(files)) {
    if (check) {
      let current: string | null = null
      try {
        current = readFileSync(resolve(root, path), 'utf8')
      } catch {
        // A missing file is stale like a different one.
      }
      if (current !== text) stale.push(path)
    } else {
      writeFileSync(resolve(root, path), text)
      process.stdout.write(`wrote ${path}\n`)
    }
  }
  if (stale.length > 0) {
    process.stderr.write(
      `The typed client is out of date with the OpenAPI document the routes generate: ${stale.join(', ')}.\n` +
        'Run `npm run client:generate` and commit the result.\n',
    )
    process.exit(1)
  }
  if (check) process.stdout.write('the typed client matches the OpenAPI document\n')
}
