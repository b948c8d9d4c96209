/**
 * Writes the OpenAPI document as the application generates it (no server listens), then lints it
 * with Redocly's recommended rules, warnings counted as errors (recommended-strict):
 * `npm run lint:openapi [-- <output path>]`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildOpenApiDocument } from './openapi-document.ts'

const dir = mkdtempSync(join(tmpdir(), 'strata-openapi-'))
const output = process.argv[2] ?? join(dir, 'openapi.json')
try {
  writeFileSync(output, `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`)
  const lint = spawnSync(
    'npx',
    ['redocly', 'lint', '--extends=recommended-strict', '--format=stylish', output],
    { stdio: 'inherit' },
  )
  process.exitCode = lint.status ?? 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
