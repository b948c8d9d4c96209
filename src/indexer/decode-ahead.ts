import type { DecodedLedger } from '../chain/decode-ledger.ts'
import { checkServedAs } from '../chain/ledger-continuity.ts'
import type { LedgerDecoder } from '../chain/ledger-decoder.ts'
import type { SourcePage } from '../chain/source/ledger-source.ts'

/** A source page, and its ledgers decoded (each checked to be the ledger it was served as). */
export interface DecodingPage {
  page: SourcePage
  decoding: Promise<DecodedLedger[]>
}

/**
 * Pages with their decoding already under way: as soon as the source delivers page N+1 its decoding
 * starts (on the decoder's thread) while the consumer still adapts and writes page N, and the source
 * fetches page N+2. At the head a page is handed over at once, not held for a next one.
 */
export async function* decodeAhead(
  pages: AsyncIterable<SourcePage>,
  decoder: LedgerDecoder,
): AsyncGenerator<DecodingPage> {
  const iterator = pages[Symbol.asyncIterator]()
  const pull = () =>
    iterator.next().then((result) => {
      if (result.done) return null
      const page = result.value
      const decoding = decoder.decode(page.ledgers.map((l) => l.meta)).then((decoded) => {
        for (const [i, ledger] of decoded.entries()) checkServedAs(page.ledgers[i]!, ledger)
        return decoded
      })
      decoding.catch(() => {})
      return { page, decoding }
    })
  let next = pull()
  try {
    while (true) {
      const current = await next
      if (current === null) return
      next = pull()
      next.catch(() => {})
      yield current
    }
  } finally {
    // Not awaited: a fetch under way ends with the caller's abort, not here.
    iterator.return?.().catch(() => {})
  }
}
