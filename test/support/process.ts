import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))

export interface ServerProcess {
  url: string
  child: ChildProcess
  output: () => string
  stop(): Promise<void>
}

/** Starts `strata serve` (or other serving args) as a child process and waits for its URL. */
export function startServerProcess(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  cwd?: string,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, ...args], {
    ...(cwd !== undefined ? { cwd } : {}),
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start in time:\n${output}`))
    }, timeoutMs)
    child.stderr?.on('data', (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve({
          url: match[1],
          child,
          output: () => output,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
}
