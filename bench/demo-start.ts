// How long `npm start` (strata serve --demo) takes to its banner, run several times in a scratch
// directory of its own: `node bench/demo-start.ts [runs]` (3 by default). For each run it prints
// the time to the process's first line (Node and the command loaded, the ports held), to the
// banner, and where the rest went, then the median. docs/operations.md keeps the results.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const BIN = new URL('../bin/strata.js', import.meta.url).pathname
const runs = Number(process.argv[2] ?? 3)

interface Run {
  /** To "Starting the simulated network": Node, the CLI, the configuration, the held ports, the modules. */
  firstLineMs: number
  /** To the banner's last line: the devnet's history generated and indexed, the API built and listening. */
  bannerMs: number
}

function once(cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstLineMs = 0
    let output = ''
    const child = spawn(process.execPath, [BIN, 'serve', '--demo', '--port', '0'], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
      if (!firstLineMs && output.includes('Starting the simulated network')) {
        firstLineMs = performance.now() - started
      }
      if (output.includes('Ctrl-C stops it.')) {
        const bannerMs = performance.now() - started
        child.once('exit', () => resolve({ firstLineMs, bannerMs }))
        child.kill('SIGINT')
      }
    })
    child.once('exit', (code) => {
      if (!output.includes('Ctrl-C stops it.'))
        reject(new Error(`exited with ${code} before its banner:\n${output}`))
    })
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
process.stdout.write(
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}\n`,
)
const results: Run[] = []
for (let i = 0; i < runs; i++) {
  const cwd = mkdtempSync(join(tmpdir(), 'strata-demo-start-'))
  try {
    const run = await once(cwd)
    results.push(run)
    process.stdout.write(
      `run ${i + 1}: banner after ${seconds(run.bannerMs)} (first line ${seconds(run.firstLineMs)}, devnet + indexing + API ${seconds(run.bannerMs - run.firstLineMs)})\n`,
    )
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}
const sorted = results.map((r) => r.bannerMs).sort((a, b) => a - b)
process.stdout.write(`median to the banner: ${seconds(sorted[Math.floor(sorted.length / 2)] ?? 0)}\n`)
