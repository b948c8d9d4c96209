import { describe, expect, it } from 'vitest'
import type { ContractKind, NetworkConfig } from '../../src/chain/network.ts'
import { createProgressReporter, describeNetwork, describeStart } from '../../src/cli/indexing-report.ts'
import {
  computeProgress,
  createProgressTracker,
  formatDuration,
  formatProgressBar,
  formatProgressLine,
} from '../../src/indexer/progress.ts'
import { createLogger } from '../../src/logger.ts'

describe('ingestion progress', () => {
  it('fills by the range this run ingests, not by the absolute ledger number', () => {
    // A run from ledger 50,000,001 to a head at 50,001,000: 1,000 ledgers; 250 done is a quarter
    // (by absolute number it would read 99.998%).
    const view = computeProgress({
      fromLedger: 50_000_001,
      lastLedger: 50_000_250,
      headLedger: 50_001_000,
      samples: [
        { atMs: 0, ledger: 50_000_000 },
        { atMs: 5000, ledger: 50_000_250 },
      ],
      nowMs: 5000,
      windowMs: 10_000,
    })
    expect(view.fraction).toBe(0.25)
    expect(view.remaining).toBe(750)
    expect(view.ledgersPerSecond).toBe(50)
    expect(view.etaSeconds).toBe(15)
    expect(view.atHead).toBe(false)
    expect(formatProgressBar(view, 20)).toBe(
      'ledgers 50000001..50001000 [#####---------------] 25% ledger 50000250, 50 ledgers/s, ETA 15s',
    )
    expect(formatProgressLine(view)).toBe(
      'indexer: ledger 50000250 of 50000001..50001000 (25%), 50 ledgers/s, ETA 15s',
    )
  })

  it('shows the rate of the recent window, not the lifetime average', () => {
    // 1000 ledgers/s for the first 60 s, then 100 ledgers/s for the last 20 s.
    const samples = [
      { atMs: 0, ledger: 0 },
      { atMs: 60_000, ledger: 60_000 },
      { atMs: 70_000, ledger: 61_000 },
      { atMs: 80_000, ledger: 62_000 },
    ]
    const view = computeProgress({
      fromLedger: 1,
      lastLedger: 62_000,
      headLedger: 100_000,
      samples,
      nowMs: 80_000,
      windowMs: 10_000,
    })
    // From the newest checkpoint at least 10 s old (70 s, ledger 61,000): 1,000 ledgers in 10 s.
    expect(view.ledgersPerSecond).toBe(100)
    expect(view.etaSeconds).toBe(380)
    // The lifetime average would have said 775 ledgers/s and an ETA of 49 s.
    expect(formatDuration(view.etaSeconds!)).toBe('6m 20s')
  })

  it('a stall lowers the rate as time passes; no progress means no ETA', () => {
    const samples = [
      { atMs: 0, ledger: 99 },
      { atMs: 10_000, ledger: 199 },
    ]
    const at = (nowMs: number) =>
      computeProgress({
        fromLedger: 100,
        lastLedger: 199,
        headLedger: 1099,
        samples,
        nowMs,
        windowMs: 10_000,
      })
    expect(at(10_000).ledgersPerSecond).toBe(10)
    // 5 s later with nothing new: 100 ledgers over the 15 s since the newest checkpoint 10 s old.
    expect(at(15_000).ledgersPerSecond).toBeCloseTo(100 / 15, 10)
    expect(at(15_000).etaSeconds).toBeCloseTo(900 / (100 / 15), 10)
    // A whole window without a ledger: the current rate is 0, and there is no ETA to give.
    expect(at(40_000).ledgersPerSecond).toBe(0)
    expect(at(40_000).etaSeconds).toBeNull()
    const stuck = computeProgress({
      fromLedger: 100,
      lastLedger: 99,
      headLedger: 1099,
      samples: [{ atMs: 0, ledger: 99 }],
      nowMs: 5000,
      windowMs: 10_000,
    })
    expect(stuck.ledgersPerSecond).toBe(0)
    expect(stuck.etaSeconds).toBeNull()
    expect(formatProgressLine(stuck)).toBe('indexer: ledger 99 of 100..1099 (0%), 0 ledgers/s, ETA unknown')
  })

  it('at the head: full, nothing left, ETA 0; a head that moves on widens the range', () => {
    const tracker = createProgressTracker(1000, 0, 10_000)
    const first = tracker.record(1499, 1999, 5000)
    expect(first.fraction).toBe(0.5)
    expect(first.ledgersPerSecond).toBe(100)
    expect(first.etaSeconds).toBe(5)
    const head = tracker.record(1999, 1999, 10_000)
    expect(head).toMatchObject({ fraction: 1, remaining: 0, etaSeconds: 0, atHead: true })
    expect(formatProgressLine(head)).toBe('indexer: at the head, ledger 1999; following new ledgers')
    const moved = tracker.record(2000, 2999, 15_000)
    expect(moved.fraction).toBe(1001 / 2000)
    // From the start-of-run sample at 0 s (the newest one at least 10 s old is at 5 s): 501 in 10 s.
    expect(moved.ledgersPerSecond).toBe(50.1)
  })

  it('durations read as seconds, minutes or hours', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(59.4)).toBe('59s')
    expect(formatDuration(61)).toBe('1m 01s')
    expect(formatDuration(3 * 3600 + 5 * 60 + 9)).toBe('3h 05m')
  })
})

const CONTRACT = (address: string, kind: ContractKind, protocol: string) => ({
  address,
  protocol,
  kind,
  name: kind,
  version: '1',
  status: 'active' as const,
  position_types: [],
  start_ledger: null,
})

const NETWORK = {
  name: 'testnet-like',
  passphrase: 'Test SDF Network ; September 2015',
  contracts: {
    vaultprotocol: CONTRACT('CA', 'fxdao-vaults', 'vaultprotocol'),
    oracles: [CONTRACT('CB', 'reflector', 'oracle')],
    lendingprotocol: [
      CONTRACT('CC', 'blend-pool-v2', 'lendingprotocol'),
      CONTRACT('CD', 'blend-pool-v2', 'lendingprotocol'),
    ],
    // The factory and router are described but not read; only the pairs are watched.
    ammprotocol: [
      CONTRACT('CE', 'soroswap-factory', 'ammprotocol'),
      CONTRACT('CF', 'soroswap-pair', 'ammprotocol'),
      CONTRACT('CG', 'soroswap-pair', 'ammprotocol'),
    ],
    yieldprotocol: [],
  },
  vaultprotocol: { collateral_asset: 'x', denominations: {} },
  ammprotocol: { pairs: { CF: { token_0: 'a', token_1: 'b' }, CG: { token_0: 'a', token_1: 'c' } } },
  assets: {},
} satisfies NetworkConfig

describe('what the indexer says it indexes', () => {
  it('names the network and counts the watched contracts by kind and protocol', () => {
    expect(describeNetwork(NETWORK)).toEqual([
      'network: testnet-like ("Test SDF Network ; September 2015")',
      'watching 6 contracts: 1 fxdao-vaults (vaultprotocol), 2 blend-pool-v2 (lendingprotocol), ' +
        '2 soroswap-pair (ammprotocol), 1 reflector (oracle)',
    ])
  })

  it('names the range, where it starts and why', () => {
    const rpc = 'http://rpc.example/'
    expect(
      describeStart(
        { fromLedger: 100, resumedFrom: null, headLedger: 199, rpcOldestLedger: 100, backfill: false },
        rpc,
      ),
    ).toBe(
      "ingesting ledgers 100..199 (100 ledgers to the head) from http://rpc.example/, from the RPC's oldest ledger",
    )
    expect(
      describeStart(
        { fromLedger: 151, resumedFrom: 150, headLedger: 199, rpcOldestLedger: 100, backfill: false },
        rpc,
      ),
    ).toBe(
      'ingesting ledgers 151..199 (49 ledgers to the head) from http://rpc.example/, resuming after checkpoint 150',
    )
    expect(
      describeStart(
        { fromLedger: 10, resumedFrom: null, headLedger: 199, rpcOldestLedger: 100, backfill: true },
        rpc,
      ),
    ).toBe(
      'ingesting ledgers 10..199 (190 ledgers to the head) from http://rpc.example/, from the requested first ledger; ledgers before 100 from the data lake',
    )
    expect(
      describeStart(
        { fromLedger: 200, resumedFrom: 199, headLedger: 199, rpcOldestLedger: 100, backfill: false },
        rpc,
      ),
    ).toBe(
      'at the head (ledger 199), following new ledgers from http://rpc.example/, resuming after checkpoint 199',
    )
  })

  it('among request logs, writes a line every few seconds while behind and one on reaching the head', () => {
    const written: string[] = []
    let now = 0
    const report = createProgressReporter({
      mode: 'lines',
      logger: createLogger('silent'),
      rpcUrl: 'http://rpc/',
      network: NETWORK,
      write: (text) => void written.push(text),
      now: () => now,
    })
    report.onStart({
      fromLedger: 1,
      resumedFrom: null,
      headLedger: 1000,
      rpcOldestLedger: 1,
      backfill: false,
    })
    const progress = (lastLedger: number, latestLedger: number) =>
      report.onProgress({
        fromLedger: 1,
        lastLedger,
        latestLedger,
        ingestedLedgers: lastLedger,
        ingestedChanges: 0,
        elapsedMs: now,
      })
    now = 1000
    progress(100, 1000) // not yet 5 s since the last line (the start counts as 0)
    now = 5000
    progress(500, 1000)
    now = 6000
    progress(600, 1000) // 1 s after the last line: quiet
    now = 8000
    progress(1000, 1000) // reached the head: said at once
    now = 20_000
    progress(1003, 1003) // still at the head: quiet
    expect(written).toEqual([
      "indexer: ingesting ledgers 1..1000 (1000 ledgers to the head) from http://rpc/, from the RPC's oldest ledger\n",
      'indexer: ledger 500 of 1..1000 (50%), 100 ledgers/s, ETA 5s\n',
      'indexer: at the head, ledger 1000; following new ledgers\n',
    ])
  })

  it('on a terminal of its own, redraws one bar', () => {
    const written: string[] = []
    let now = 0
    const report = createProgressReporter({
      mode: 'bar',
      logger: createLogger('silent'),
      rpcUrl: 'http://rpc/',
      network: NETWORK,
      write: (text) => void written.push(text),
      now: () => now,
    })
    report.onStart({ fromLedger: 1, resumedFrom: null, headLedger: 100, rpcOldestLedger: 1, backfill: false })
    now = 2000
    report.onProgress({
      fromLedger: 1,
      lastLedger: 50,
      latestLedger: 100,
      ingestedLedgers: 50,
      ingestedChanges: 0,
      elapsedMs: 2000,
    })
    report.finish()
    expect(written.slice(1)).toEqual([
      '\rledgers 1..100 [###############---------------] 50% ledger 50, 25 ledgers/s, ETA 2s\x1b[K',
      '\n',
    ])
  })
})
