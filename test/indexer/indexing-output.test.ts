import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { CLI, startServerProcess } from '../support/process.ts'

const LEDGERS = 400

/** The JSON log records a process wrote, as they come. */
function records(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function waitFor<T>(find: () => T | undefined, what: string, output: () => string): Promise<T> {
  for (let i = 0; i < 900; i++) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no ${what} in:\n${output()}`)
}

describe('what an indexing process says (not on a terminal: log records)', () => {
  let devnet: Devnet
  let first: number
  let head: number
  beforeAll(async () => {
    devnet = await startDevnet({ seed: 'indexing-output', ledgers: LEDGERS, accounts: 40 })
    head = devnet.latestLedger()
    first = head - LEDGERS + 1
  })
  afterAll(async () => devnet?.close())

  it('embedded serve names the network, the watched contracts, the range, then its progress to the head', async () => {
    const db: TestDatabase = await createTestDatabase()
    const server = await startServerProcess(['serve', '--port', '0'], {
      ...db.env,
      STELLAR_RPC_URL: devnet.url,
      LOG_LEVEL: 'info',
    })
    try {
      // Every module's contracts (Soroswap's pairs, not its factory or router; DeFindex's vaults and
      // strategies) and the oracles.
      const contracts = [
        devnet.network.contracts.vaultprotocol,
        ...devnet.network.contracts.oracles,
        ...devnet.network.contracts.lendingprotocol,
        ...devnet.network.contracts.ammprotocol.filter((c) => c.kind === 'soroswap-pair'),
        ...devnet.network.contracts.yieldprotocol,
      ]
      expect(server.output()).toContain(
        `  indexer network: ${devnet.network.name} ("${devnet.network.passphrase}")\n`,
      )
      expect(server.output()).toContain(
        `  indexer watching ${contracts.length} contracts: 1 fxdao-vaults (vaultprotocol)`,
      )
      const start = await waitFor(
        () => records(server.output()).find((r) => String(r.msg).startsWith('indexer: ingesting')),
        'start record',
        server.output,
      )
      expect(start).toMatchObject({
        msg: `indexer: ingesting ledgers ${first}..${head} (${LEDGERS} ledgers to the head) from ${devnet.url}, from the RPC's oldest ledger`,
        fromLedger: first,
        headLedger: head,
        contracts: contracts.length,
      })
      const atHead = await waitFor(
        () => records(server.output()).find((r) => r.msg === 'indexer progress' && r.lastLedger === head),
        'progress record at the head',
        server.output,
      )
      expect(atHead).toMatchObject({
        fromLedger: first,
        latestLedger: head,
        percent: 100,
        lag: 0,
        etaSeconds: 0,
      })
    } finally {
      await server.stop()
      await db.drop()
    }
  }, 120_000)

  it('strata index says the same, and an index resumed from its checkpoint says so', async () => {
    const db = await createTestDatabase()
    const run = async (): Promise<{ child: ChildProcess; output: () => string }> => {
      const child = spawn(process.execPath, [CLI, 'index', '--rpc-url', devnet.url], {
        env: { ...process.env, ...db.env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout?.on('data', (c) => {
        output += c
      })
      child.stderr?.on('data', (c) => {
        output += c
      })
      return { child, output: () => output }
    }
    const stop = (child: ChildProcess) =>
      new Promise<number | null>((resolve) => {
        child.once('exit', (code) => resolve(code))
        child.kill('SIGTERM')
      })
    try {
      const a = await run()
      const starting = await waitFor(
        () => records(a.output()).find((r) => r.msg === 'indexer starting'),
        'starting record',
        a.output,
      )
      expect(starting).toMatchObject({ network: devnet.network.name, passphrase: devnet.network.passphrase })
      await waitFor(
        () => records(a.output()).find((r) => r.msg === 'indexer progress' && r.lastLedger === head),
        'progress at the head',
        a.output,
      )
      expect(await stop(a.child)).toBe(0)

      const b = await run()
      const resumed = await waitFor(
        () => records(b.output()).find((r) => String(r.msg).startsWith('indexer: ')),
        'start record',
        b.output,
      )
      expect(resumed.msg).toBe(
        `indexer: at the head (ledger ${head}), following new ledgers from ${devnet.url}, resuming after checkpoint ${head}`,
      )
      expect(await stop(b.child)).toBe(0)
    } finally {
      await db.drop()
    }
  }, 120_000)
})
