import { existsSync, readFileSync, writeFileSync } from 'node:fs'

const PERFORMANCE_DOC = new URL('../docs/performance.md', import.meta.url)

/** Replaces (or appends) the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` in docs/performance.md. */
export function updateBenchSection(name: string, markdown: string): void {
  const start = `<!-- bench:${name}:start -->`
  const end = `<!-- bench:${name}:end -->`
  let doc = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, 'utf8') : '# Performance\n'
  if (!doc.includes(start) || !doc.includes(end)) doc = `${doc.trimEnd()}\n\n${start}\n${end}\n`
  const from = doc.indexOf(start)
  const to = doc.indexOf(end)
  writeFileSync(PERFORMANCE_DOC, `${doc.slice(0, from + start.length)}\n${markdown}\n${doc.slice(to)}`)
}
