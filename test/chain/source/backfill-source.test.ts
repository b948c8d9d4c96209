import { describe, expect, it } from 'vitest'
import { LedgerContinuityError } from '../../../src/chain/ledger-continuity.ts'
import { createBackfillSource } from '../../../src/chain/source/backfill-source.ts'
import type {
  LedgerArchive,
  LedgerSource,
  SourceLedger,
  SourcePage,
  SourceWindow,
} from '../../../src/chain/source/ledger-source.ts'

const signal = new AbortController().signal

const ledgerOf = (sequence: number): SourceLedger => ({
  sequence,
  hash: null,
  meta: new Uint8Array([sequence & 0xff]),
})

/** Sequences from..to inclusive, written out without the code under test. */
function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let s = from; s <= to; s++) out.push(s)
  return out
}

/** An archive holding ledgers `first`..`last`, in pages of 7; it records what it was asked. */
function fakeArchive(first: number, last: number) {
  const asked: Array<[number, number]> = []
  const archive: LedgerArchive = {
    async *networks() {
      yield { passphrase: 'archive net', servedBy: 'the archive holds' }
    },
    async *pages(from, to) {
      asked.push([from, to])
      let page: SourceLedger[] = []
      for (let s = Math.max(from, first); s <= Math.min(to, last); s++) {
        page.push(ledgerOf(s))
        if (page.length === 7) {
          yield page
          page = []
        }
      }
      if (page.length > 0) yield page
    },
  }
  return { archive, asked }
}

/**
 * A live source whose window is each of `windows` in turn (the last one repeats); it serves its
 * window's ledgers in pages of 10 and refuses anything older, as Stellar RPC does.
 */
function fakeLive(windows: SourceWindow[]) {
  const asked: Array<[number, number | undefined]> = []
  let calls = 0
  const current = () => windows[Math.min(calls, windows.length - 1)]!
  const live: LedgerSource = {
    backfills: false,
    async *networks() {
      yield { passphrase: 'live net', servedBy: 'the live source serves' }
    },
    async window() {
      const window = current()
      calls++
      return window
    },
    async *pages(from, to) {
      asked.push([from, to])
      const { oldestLedger, latestLedger } = windows[windows.length - 1]!
      if (from < oldestLedger) throw new Error(`ledger ${from} is older than the oldest, ${oldestLedger}`)
      const end = Math.min(to ?? latestLedger, latestLedger)
      for (let s = from; s <= end; s += 10) {
        yield { ledgers: range(s, Math.min(s + 9, end)).map(ledgerOf), latestLedger }
      }
    },
  }
  return { live, asked }
}

async function collect(pages: AsyncIterable<SourcePage>): Promise<SourcePage[]> {
  const out: SourcePage[] = []
  for await (const page of pages) out.push(page)
  return out
}

const sequences = (pages: SourcePage[]) => pages.flatMap((p) => p.ledgers.map((l) => l.sequence))

describe('createBackfillSource: the archive, then the live source', () => {
  it("hands over at the live source's oldest ledger when the archive holds more (no ledger twice)", async () => {
    const { archive, asked: archiveAsked } = fakeArchive(1, 500)
    const { live, asked: liveAsked } = fakeLive([{ oldestLedger: 101, latestLedger: 150 }])
    const pages = await collect(createBackfillSource(archive, live).pages(50, 150, signal))
    expect(sequences(pages)).toEqual(range(50, 150))
    expect(archiveAsked).toEqual([[50, 100]])
    expect(liveAsked).toEqual([[101, 150]])
    // The archive's pages report the live source's head, for progress.
    expect(pages.every((p) => p.latestLedger === 150)).toBe(true)
  })

  it('asks the window again after each archive stretch, so a window that moved on leaves no gap', async () => {
    const { archive, asked: archiveAsked } = fakeArchive(1, 500)
    const { live, asked: liveAsked } = fakeLive([
      { oldestLedger: 101, latestLedger: 150 },
      { oldestLedger: 121, latestLedger: 170 },
    ])
    const pages = await collect(createBackfillSource(archive, live).pages(50, 170, signal))
    expect(sequences(pages)).toEqual(range(50, 170))
    expect(archiveAsked).toEqual([
      [50, 100],
      [101, 120],
    ])
    expect(liveAsked).toEqual([[121, 170]])
  })

  it('reads only the live source from inside its window, and only the archive below it', async () => {
    const inside = fakeArchive(1, 500)
    const live = fakeLive([{ oldestLedger: 101, latestLedger: 150 }])
    expect(
      sequences(await collect(createBackfillSource(inside.archive, live.live).pages(130, 140, signal))),
    ).toEqual(range(130, 140))
    expect(inside.asked).toEqual([])

    const below = fakeArchive(1, 500)
    const untouched = fakeLive([{ oldestLedger: 101, latestLedger: 150 }])
    expect(
      sequences(await collect(createBackfillSource(below.archive, untouched.live).pages(10, 60, signal))),
    ).toEqual(range(10, 60))
    expect(below.asked).toEqual([[10, 60]])
    expect(untouched.asked).toEqual([])
  })

  it('hands over exactly at the boundary when the stretch ends at the last archived ledger', async () => {
    const { archive } = fakeArchive(1, 100)
    const { live } = fakeLive([{ oldestLedger: 101, latestLedger: 120 }])
    expect(sequences(await collect(createBackfillSource(archive, live).pages(95, 105, signal)))).toEqual(
      range(95, 105),
    )
  })

  it('refuses an archive that ends before the live window begins, rather than leaving a gap', async () => {
    const { archive } = fakeArchive(1, 90)
    const { live, asked } = fakeLive([{ oldestLedger: 101, latestLedger: 150 }])
    const error = await collect(createBackfillSource(archive, live).pages(50, 150, signal)).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(LedgerContinuityError)
    expect(error).toMatchObject({
      kind: 'sequence',
      message: 'ledger gap: the archive ended at ledger 90, before 100',
    })
    expect(asked).toEqual([])
  })

  it("names the live source's network, then the archive's, and keeps the live window", async () => {
    const { archive } = fakeArchive(1, 10)
    const { live } = fakeLive([{ oldestLedger: 101, latestLedger: 150 }])
    const source = createBackfillSource(archive, live)
    const networks = []
    for await (const n of source.networks(signal)) networks.push(n.passphrase)
    expect(networks).toEqual(['live net', 'archive net'])
    expect(await source.window(signal)).toEqual({ oldestLedger: 101, latestLedger: 150 })
    expect(source.backfills).toBe(true)
  })
})
