import { spawn, spawnSync } from 'node:child_process'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { turnBatched } from '../src/logger.ts'

/** A real stream recording each write it is handed, as one string per write. */
function recordingStream(fail?: Error) {
  const writes: string[] = []
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      if (fail) return callback(fail)
      if (chunk !== '') writes.push(chunk)
      callback()
    },
  })
  return { writes, stream }
}

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve))

const LOGGER = new URL('../src/logger.ts', import.meta.url).pathname

/** Runs `body` in a fresh Node process (with `createLogger` imported), stdout on a pipe. */
function runWithLogger(body: string) {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER)}\n${body}`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return run.stdout.split('\n').filter((line) => line !== '')
}

describe('log lines gathered per turn of the event loop', () => {
  it('hands the lines of one turn to the stream in one write, in order, when the turn ends', async () => {
    const { writes, stream } = recordingStream()
    const destination = turnBatched(stream)
    destination.write('a\n')
    destination.write('b\n')
    destination.write('c\n')
    // Nothing is written during the turn that logged.
    expect(writes).toEqual([])
    await turnEnd()
    expect(writes).toEqual(['a\nb\nc\n'])
    destination.write('d\n')
    await turnEnd()
    expect(writes).toEqual(['a\nb\nc\n', 'd\n'])
  })

  it('flush writes what is gathered before calling back', async () => {
    const { writes, stream } = recordingStream()
    const destination = turnBatched(stream)
    destination.write('a\n')
    await new Promise<void>((resolve, reject) =>
      destination.flush((error) => (error ? reject(error) : resolve())),
    )
    expect(writes).toEqual(['a\n'])
    // The turn's scheduled write finds nothing left to write twice.
    await turnEnd()
    expect(writes).toEqual(['a\n'])
    // With nothing gathered, flush still calls back.
    await new Promise<void>((resolve) => destination.flush(() => resolve()))
    expect(writes).toEqual(['a\n'])
  })

  it('a stream that fails (its reader gone) drops the lines and throws nothing', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
    const { writes, stream } = recordingStream(epipe)
    let handed = 0
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
    stream.write = ((...args: unknown[]) => {
      handed++
      return write(...args)
    }) as typeof stream.write
    const destination = turnBatched(stream)
    destination.write('lost\n')
    await turnEnd()
    await turnEnd()
    expect(handed).toBe(1)
    // The failed stream is handed nothing more: later lines are dropped, flush still calls back.
    expect(() => destination.write('after\n')).not.toThrow()
    await turnEnd()
    await new Promise<void>((resolve) => destination.flush(() => resolve()))
    expect(handed).toBe(1)
    expect(writes).toEqual([])
  })

  it('stdout gets every line, including those of a process that exits in the turn it logged', () => {
    const lines = runWithLogger(`
const logger = createLogger('info')
for (let i = 0; i < 3; i++) logger.info({ i }, 'line')
process.exit(0)
`)
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { msg: 'line', i: 0 },
      { msg: 'line', i: 1 },
      { msg: 'line', i: 2 },
    ])
  })

  it('stdout gets the lines of turns one after another, in order', () => {
    const lines = runWithLogger(`
const logger = createLogger('info')
let i = 0
const tick = () => {
  logger.info({ i }, 'line')
  logger.info({ i, second: true }, 'line')
  if (++i < 5) setTimeout(tick, 1)
}
tick()
`)
    const entries = lines.map((line) => JSON.parse(line) as { i: number; second?: boolean })
    expect(entries.map((e) => `${e.i}${e.second ? 'b' : 'a'}`)).toEqual([
      '0a',
      '0b',
      '1a',
      '1b',
      '2a',
      '2b',
      '3a',
      '3b',
      '4a',
      '4b',
    ])
  })

  it('a log reader that stops reading does not stall the process: the lines wait in memory', async () => {
    // 4 MB of lines over 40 turns into a pipe nobody reads (a pipe holds 64 KB): a blocking write
    // would stop the process at the first full pipe, before it reports.
    const script = `import { createLogger } from ${JSON.stringify(LOGGER)}
const logger = createLogger('info')
const pad = 'x'.repeat(1000)
let turn = 0
const tick = () => {
  for (let i = 0; i < 100; i++) logger.info({ pad, turn }, 'line')
  if (++turn < 40) return setImmediate(tick)
  process.stderr.write('served every turn\\n', () => process.exit(0))
}
tick()`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.pause()
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(stderr).toBe('served every turn\n')
    expect(code).toBe(0)
  })
})
