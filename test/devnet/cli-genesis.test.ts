import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_DB_KIND } from '../support/database.ts'
import { CLI } from '../support/process.ts'
import { callRaw, rpcRequest } from './rpc-client.ts'

const LEDGERS = 30
const running: ChildProcess[] = []
afterEach(async () => {
  for (const child of running.splice(0)) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
})

/** Runs `strata devnet` and waits for its URL. */
function startDevnetCli(extra: string[]): Promise<{ url: string; output: string }> {
  const child = spawn(
    process.execPath,
    [CLI, 'devnet', '--port', '0', '--ledgers', String(LEDGERS), '--accounts', '10', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  running.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk
      const url = /JSON-RPC on (http:\/\/\S+),/.exec(output)?.[1]
      if (url && output.includes('open vault')) resolve({ url, output })
    })
    child.once('exit', (code) => reject(new Error(`devnet exited with ${code}: ${output}`)))
  })
}

async function ledgers(
  url: string,
): Promise<Array<{ hash: string; sequence: number; ledgerCloseTime: string }>> {
  const { json } = await callRaw(
    url,
    rpcRequest('getLedgers', { startLedger: 1000, pagination: { limit: LEDGERS } }),
  )
  return (json.result as { ledgers: Array<{ hash: string; sequence: number; ledgerCloseTime: string }> })
    .ledgers
}

// The devnet alone, no store: the SQLite pass only.
describe.skipIf(TEST_DB_KIND !== 'sqlite')('strata devnet dates its ledgers', () => {
  it('by default the last generated ledger closes now, so staleness reads as on a live network', async () => {
    const before = Math.floor(Date.now() / 1000)
    const { url, output } = await startDevnetCli([])
    const after = Math.ceil(Date.now() / 1000)
    const served = await ledgers(url)
    expect(served).toHaveLength(LEDGERS)
    const last = Number(served.at(-1)!.ledgerCloseTime)
    expect(last).toBeGreaterThanOrEqual(before)
    expect(last).toBeLessThanOrEqual(after)
    // Five seconds apart, as Stellar closes them.
    expect(Number(served[0]!.ledgerCloseTime)).toBe(last - (LEDGERS - 1) * 5)
    expect(output).toContain('(now; --genesis-time fixes it)')
  })

  it('--genesis-time fixes the epoch: the same ledgers byte for byte, given as seconds or as a date', async () => {
    const [iso, seconds] = await Promise.all([
      startDevnetCli(['--genesis-time', '2025-01-01T00:00:00Z']),
      startDevnetCli(['--genesis-time', '1735689600']),
    ])
    const a = await ledgers(iso.url)
    const b = await ledgers(seconds.url)
    expect(a[0]!.ledgerCloseTime).toBe('1735689600')
    expect(a.at(-1)!.ledgerCloseTime).toBe(String(1735689600 + (LEDGERS - 1) * 5))
    expect(a.map((l) => l.hash)).toEqual(b.map((l) => l.hash))
    expect(iso.output).toContain('devnet: ledgers close from 2025-01-01T00:00:00Z to 2025-01-01T00:02:25Z\n')
  })

  it('on a busy port, says so in one line and exits 1', async () => {
    const { url } = await startDevnetCli(['--genesis-time', '0'])
    const port = new URL(url).port
    const run = spawnSync(process.execPath, [CLI, 'devnet', '--port', port, '--ledgers', '5'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      `strata devnet: port ${port} on 127.0.0.1 is already in use; stop what holds it, or choose another port (--port)\n`,
    )
  })

  it('refuses a --genesis-time it cannot read', () => {
    const run = spawnSync(process.execPath, [CLI, 'devnet', '--genesis-time', 'yesterday'], {
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      'strata devnet: --genesis-time must be epoch seconds or an RFC 3339 date (2025-01-01T00:00:00Z), got "yesterday"\n',
    )
  })
})
