import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { rpcRequest } from './rpc-client.ts'

const CLIENT_TIMEOUT_MS = 150
const FAULT_RATE = 0.3

let faulty: Devnet
let clean: Devnet

type Outcome = { ok: true; body: string } | { ok: false; kind: string }

async function call(url: string, startLedger: number): Promise<Outcome> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rpcRequest('getLedgers', { startLedger, pagination: { limit: 2 } })),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    })
    const text = await res.text()
    if (res.status === 429) return { ok: false, kind: `429 retry-after=${res.headers.get('retry-after')}` }
    if (res.status !== 200) return { ok: false, kind: String(res.status) }
    JSON.parse(text)
    return { ok: true, body: text }
  } catch (error) {
    const name = (error as Error).name
    return { ok: false, kind: name === 'TimeoutError' ? 'timeout' : 'truncated' }
  }
}

beforeAll(async () => {
  const options = { seed: 'faults', ledgers: 100, accounts: 30 }
  faulty = await startDevnet({ ...options, faultRate: FAULT_RATE, faultTimeoutMs: CLIENT_TIMEOUT_MS * 3 })
  clean = await startDevnet(options)
})
afterAll(async () => {
  await faulty.close()
  await clean.close()
})

describe('devnet fault injection', () => {
  it('fails about the configured share of calls, with every kind of fault', async () => {
    const outcomes: Outcome[] = []
    // Sequential: the fault plan is drawn in arrival order.
    for (let i = 0; i < 200; i++) outcomes.push(await call(faulty.url, 1_000 + (i % 90)))
    const failures = outcomes.filter((o) => !o.ok).map((o) => (o as { kind: string }).kind)
    expect(failures.length / outcomes.length).toBeGreaterThan(FAULT_RATE - 0.1)
    expect(failures.length / outcomes.length).toBeLessThan(FAULT_RATE + 0.1)
    expect(new Set(failures)).toEqual(new Set(['500', '429 retry-after=1', 'timeout', 'truncated']))
  })

  it('gives the same data as a fault-free devnet once a call is retried', async () => {
    for (const startLedger of [1_000, 1_033, 1_077]) {
      let outcome: Outcome = { ok: false, kind: 'none' }
      for (let attempt = 0; attempt < 20 && !outcome.ok; attempt++)
        outcome = await call(faulty.url, startLedger)
      const reference = await call(clean.url, startLedger)
      expect(outcome.ok && reference.ok).toBe(true)
      if (outcome.ok && reference.ok) expect(outcome.body).toBe(reference.body)
    }
  })

  it('never injects faults when the rate is zero', async () => {
    for (let i = 0; i < 50; i++) expect((await call(clean.url, 1_000)).ok).toBe(true)
  })
})
