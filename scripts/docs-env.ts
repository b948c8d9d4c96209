// Rewrites README's configuration table from the one list of environment variables
// (src/config-env.ts). test/config-env.test.ts fails when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs'
import { replaceEnvTable } from '../src/config-env.ts'

const path = new URL('../README.md', import.meta.url)
const before = readFileSync(path, 'utf8')
const after = replaceEnvTable(before)
if (after === before) process.stdout.write('README.md: the configuration table is up to date\n')
else {
  writeFileSync(path, after)
  process.stdout.write('README.md: configuration table rewritten\n')
}
