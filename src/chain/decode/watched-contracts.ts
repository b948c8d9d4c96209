import { StrKey, type xdr } from '@stellar/stellar-sdk/base'
import { networkIdOf } from './envelopes.ts'
import { SC_ADDRESS_CONTRACT } from './wire.ts'

/** Which contracts a decoder keeps; everything else is dropped before any ScVal conversion. */
export interface WatchedContracts {
  readonly ids: readonly Uint8Array[]
  readonly strkeys: readonly string[]
  /** Per contract (same index): whether its instance storage is decoded. */
  readonly instanceStorage: readonly boolean[]
  /**
   * Per contract (same index): null, or the only holders whose entries are read, as C... StrKeys
   * (`holderIds`: their 32-byte ids). Such a contract (an asset whose balances of a few watched
   * contracts an adapter reads) yields only its entries keyed `Vec[Symbol, Address(holder)]`, and
   * none of its events: its other traffic costs no ScVal conversion.
   */
  readonly holders: readonly (readonly string[] | null)[]
  readonly holderIds: readonly (readonly Uint8Array[] | null)[]
  /** The network's passphrase: with it, transaction envelopes are matched to results (source, function, failed ones). */
  readonly passphrase: string | null
  readonly networkId: Uint8Array | null
}

/**
 * @param instanceStorage the watched contracts whose instance storage adapters read.
 * @param holders contracts read only for the entries of these holders (contracts themselves).
 */
export function buildWatchedContracts(
  strkeys: readonly string[],
  instanceStorage: readonly string[] = [],
  holders: Readonly<Record<string, readonly string[]>> = {},
  passphrase: string | null = null,
): WatchedContracts {
  const only = strkeys.map((s) => (Object.hasOwn(holders, s) ? [...holders[s]!] : null))
  return {
    ids: strkeys.map((s) => StrKey.decodeContract(s)),
    strkeys: [...strkeys],
    instanceStorage: strkeys.map((s) => instanceStorage.includes(s)),
    holders: only,
    holderIds: only.map((list) => (list === null ? null : list.map((h) => StrKey.decodeContract(h)))),
    passphrase,
    networkId: passphrase === null ? null : networkIdOf(passphrase),
  }
}

/** Index of the watched contract with these 32 id bytes, or -1. */
export function findWatched(watched: WatchedContracts, id: Uint8Array): number {
  const ids = watched.ids
  for (let i = 0; i < ids.length; i++) {
    const candidate = ids[i]!
    // Cheap first bytes before the full compare: almost every foreign contract differs there.
    if (candidate[0] !== id[0] || candidate[1] !== id[1] || candidate[2] !== id[2]) continue
    if (Buffer.compare(candidate, id) === 0) return i
  }
  return -1
}

/** Index of the watched contract an address names, or -1 (an account, or an unwatched contract). */
export function watchedIndex(watched: WatchedContracts, address: xdr.ScAddressWire): number {
  return address.type === SC_ADDRESS_CONTRACT ? findWatched(watched, address.contractId) : -1
}

/**
 * The watched contract a transaction may invoke, by its 32-byte id: null for an unwatched contract
 * and for one read only for some holders' entries (an asset: its transfers are not the protocol's).
 */
export function invokedWatched(watched: WatchedContracts, id: Uint8Array): string | null {
  const index = findWatched(watched, id)
  return index < 0 || watched.holderIds[index] ? null : watched.strkeys[index]!
}
