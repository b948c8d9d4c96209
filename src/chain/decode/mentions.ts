import type { WatchedContracts } from './watched-contracts.ts'

/**
 * Whether any watched contract's 32-byte id occurs in the raw ledger. Every contract-data entry and
 * event of a contract names its id, so a ledger without one cannot touch a watched contract. On
 * mainnet most ledgers are such (payments, other contracts): their ~100-900 KB need no decoding.
 */
export function mentionsWatched(bytes: Uint8Array, watched: WatchedContracts): boolean {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < watched.ids.length; i++) {
    // A contract read only for some holders' entries matters only where a holder is named too.
    const wanted = watched.holderIds[i] ?? [watched.ids[i]!]
    for (const id of wanted) if (haystack.indexOf(id) >= 0) return true
  }
  return false
}

/**
 * Where the watched ids occur in a raw ledger, as ascending byte offsets: `all` for every id a ledger
 * or transaction must name to matter (see `mentionsWatched`), `invocable` for the contracts a
 * transaction could invoke (see `invokedWatched`). A transaction or envelope names one when an
 * occurrence lies wholly inside its bytes.
 *
 * One pass over the ledger's 4-byte words: XDR aligns every value to 4 bytes from the start of the
 * LedgerCloseMeta, so a contract id in an address, a contract-data key or an event starts at a
 * multiple of 4. (An id that only occurs unaligned, inside opaque bytes, names nothing the decoder
 * reads: a transaction found only by such an occurrence would be decoded and yield nothing.) A
 * table on each id's first two bytes rejects almost every word with one lookup.
 */
export interface Mentions {
  all: number[]
  invocable: number[]
}

interface MentionTable {
  /** Non-zero at the first two bytes (big-endian) of some id. */
  firstBytes: Uint8Array
  ids: Uint8Array[]
  /** Per id: whether it is a contract that can be invoked (not only a holder of entries). */
  inInvocable: boolean[]
}

const mentionTables = new WeakMap<WatchedContracts, MentionTable>()

function mentionTable(watched: WatchedContracts): MentionTable {
  const known = mentionTables.get(watched)
  if (known) return known
  const byHex = new Map<string, { id: Uint8Array; invocable: boolean }>()
  const add = (id: Uint8Array, invocable: boolean) => {
    const hex = Buffer.from(id).toString('hex')
    const entry = byHex.get(hex) ?? { id, invocable: false }
    entry.invocable ||= invocable
    byHex.set(hex, entry)
  }
  for (let i = 0; i < watched.ids.length; i++) {
    const holders = watched.holderIds[i]
    // A contract read only for some holders' entries matters only where a holder is named.
    if (holders) for (const id of holders) add(id, false)
    else add(watched.ids[i]!, true)
  }
  const entries = [...byHex.values()]
  const table: MentionTable = {
    firstBytes: new Uint8Array(65536),
    ids: entries.map((e) => e.id),
    inInvocable: entries.map((e) => e.invocable),
  }
  for (const { id } of entries) table.firstBytes[(id[0]! << 8) | id[1]!] = 1
  mentionTables.set(watched, table)
  return table
}

/** The offsets of every watched id in a raw ledger (see `Mentions`). */
export function findMentions(bytes: Uint8Array, watched: WatchedContracts): Mentions {
  const table = mentionTable(watched)
  const { firstBytes, ids } = table
  const all: number[] = []
  const invocable: number[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const last = bytes.byteLength - 32
  for (let at = 0; at <= last; at += 4) {
    if (firstBytes[view.getUint16(at)] === 0) continue
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!
      let same = true
      for (let j = 0; j < 32; j++) {
        if (bytes[at + j] !== id[j]) {
          same = false
          break
        }
      }
      if (!same) continue
      all.push(at)
      if (table.inInvocable[k]) invocable.push(at)
      break
    }
  }
  return { all, invocable }
}

/** Whether an occurrence (a 32-byte id at one of the sorted `offsets`) lies wholly in [start, end). */
export function mentionedIn(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0
  let high = offsets.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (offsets[mid]! < start) low = mid + 1
    else high = mid
  }
  return low < offsets.length && offsets[low]! + 32 <= end
}
