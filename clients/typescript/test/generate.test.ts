import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CREDENTIALS_PATH, operationCredentials, SCHEMA_PATH } from '../../../scripts/generate-client.ts'
import { buildOpenApiDocument } from '../../../scripts/openapi-document.ts'
import { OPERATION_CREDENTIALS } from '../src/credentials.ts'

const REPOSITORY = resolve(import.meta.dirname, '../../..')
const execFileAsync = promisify(execFile)

/** `npm run client:check` (or generate) on the files under `root`: its exit code and what it printed. */
async function generator(root: string, check: boolean): Promise<{ code: number; output: string }> {
  const args = ['scripts/generate-client.ts', ...(check ? ['--check'] : []), `--dir=${root}`]
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, args, {
      cwd: REPOSITORY,
      encoding: 'utf8',
    })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('the typed client is generated from the OpenAPI document and checked against it', () => {
  let root: string

  beforeAll(() => {
    // A copy of the checked-in files, so the test changes nothing in the working tree.
    root = mkdtempSync(join(tmpdir(), 'strata-client-check-'))
    for (const path of [SCHEMA_PATH, CREDENTIALS_PATH]) cpSync(join(REPOSITORY, path), join(root, path))
  })

  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('passes on the checked-in files, and fails naming the command to run when one differs', async () => {
    const clean = await generator(root, true)
    expect(clean.code, clean.output).toBe(0)
    expect(clean.output).toContain('matches the OpenAPI document')

    const schema = join(root, SCHEMA_PATH)
    writeFileSync(schema, readFileSync(schema, 'utf8').replace("'/v1/health': {", "'/v1/healthz': {"))
    const stale = await generator(root, true)
    expect(stale.code).toBe(1)
    expect(stale.output).toContain(SCHEMA_PATH)
    expect(stale.output).not.toContain(CREDENTIALS_PATH)
    expect(stale.output).toContain('npm run client:generate')

    rmSync(join(root, CREDENTIALS_PATH))
    const missing = await generator(root, true)
    expect(missing.code).toBe(1)
    expect(missing.output).toContain(CREDENTIALS_PATH)

    // Generating writes them back, and the check passes again.
    expect((await generator(root, false)).code).toBe(0)
    expect(readFileSync(schema, 'utf8')).toBe(readFileSync(join(REPOSITORY, SCHEMA_PATH), 'utf8'))
    expect((await generator(root, true)).code).toBe(0)
    // Five generator processes, each building the whole document: minutes on a loaded host.
  }, 240_000)

  it("maps each operation to the credential its security names, as the served document's", async () => {
    const document = (await buildOpenApiDocument()) as {
      paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>
    }
    const expected: Record<string, string | null> = {}
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expected[`${method.toUpperCase()} ${path}`] = Object.keys(operation.security?.[0] ?? {})[0] ?? null
      }
    }
    expect(OPERATION_CREDENTIALS).toEqual(expected)
    expect(OPERATION_CREDENTIALS['GET /v1/org']).toBe('bearer')
    expect(OPERATION_CREDENTIALS['POST /v1/org/api-keys']).toBe('admin')
    expect(OPERATION_CREDENTIALS['GET /v1/protocols']).toBe('apiKey')
    expect(OPERATION_CREDENTIALS['POST /v1/auth/login']).toBeNull()
  })

  it('stops on a security scheme the client does not know how to send', () => {
    const document = {
      paths: { '/v1/x': { get: { security: [{ cookie: [] }] } } },
      components: { securitySchemes: { cookie: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    }
    expect(() => operationCredentials(document)).toThrow(/security scheme cookie .* not one the client sends/)
    const changed = {
      paths: {},
      components: { securitySchemes: { apiKey: { type: 'apiKey', name: 'x-api-key' } } },
    }
    expect(() => operationCredentials(changed)).toThrow(/security scheme apiKey/)
    const both = {
      paths: { '/v1/x': { get: { security: [{ apiKey: [], bearer: [] }] } } },
      components: {},
    }
    expect(() => operationCredentials(both)).toThrow(/several credentials/)
  })
})
