/**
 * Writes the OpenAPI document as the application generates it (no server listens), then lints it
 * with the rules of `redocly.yaml` (recommended-strict, and every rule about examples and
 * descriptions, as errors): `npm run lint:openapi [-- <output path>]`. Any problem fails.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildOpenApiDocument } from './openapi-document.ts'

const CONFIG = fileURLToPath(new URL('../redocly.yaml', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'strata-openapi-'))
const output = process.argv[2] ?? join(dir, 'openapi.json')
try {
  writeFileSync(output, `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`)
  const lint = spawnSync(
    'npx',
    ['redocly', 'lint', `--config=${CONFIG}`, '--max-problems=1000', '--format=stylish', output],
    { stdio: 'inherit' },
  )
  process.exitCode = lint.status ?? 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
