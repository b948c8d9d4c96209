import { StrKey, type xdr } from '@stellar/stellar-sdk/base'
import { sdkToNative } from './envelopes.ts'
import { SC_ADDRESS_CONTRACT } from './wire.ts'

/** StrKeys of the addresses seen lately, by their 32 key bytes (latin1): the same few recur. */
const strkeys = new Map<string, string>()
const STRKEY_CACHE_SIZE = 10_000

function cachedStrKey(bytes: Uint8Array, encode: (key: Buffer) => string, tag: string): string {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const id = tag + key.toString('latin1')
  let found = strkeys.get(id)
  if (found === undefined) {
    found = encode(Buffer.from(key))
    if (strkeys.size >= STRKEY_CACHE_SIZE) strkeys.clear()
    strkeys.set(id, found)
  }
  return found
}

const encodeAccount = (key: Buffer) => StrKey.encodeEd25519PublicKey(key)
const encodeContract = (key: Buffer) => StrKey.encodeContract(key)

/** ASCII bytes as a string (what a strict UTF-8 decode gives for them); null when not all ASCII. */
function asciiString(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return null
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}

/**
 * `scValToNative` of the SDK, without building its class instances for the values contract state
 * is made of (numbers, symbols, vectors, maps, account and contract addresses), and with the StrKeys
 * of recurring addresses cached; any other value goes through the SDK itself. Same results: the
 * test compares the two on every value of the committed pubnet ledgers and devnet ledgers.
 */
export function toNative(value: xdr.ScValWire): unknown {
  switch (value.type) {
    case 0:
      return value.b
    case 1:
      return null
    case 3:
      return value.u32
    case 4:
      return value.i32
    case 5:
      return value.u64
    case 6:
      return value.i64
    case 9:
      return (BigInt.asUintN(64, value.u128.hi) << 64n) | BigInt.asUintN(64, value.u128.lo)
    case 10:
      return BigInt.asIntN(
        128,
        (BigInt.asUintN(64, value.i128.hi) << 64n) | BigInt.asUintN(64, value.i128.lo),
      )
    case 14:
    case 15: {
      const text = value.type === 15 ? value.sym : value.str
      return asciiString(text.bytes) ?? text.asStringOrBytes()
    }
    case 16:
      return (value.vec ?? []).map(toNative)
    case 17:
      return Object.fromEntries((value.map ?? []).map((entry) => [toNative(entry.key), toNative(entry.val)]))
    case 18: {
      const address = value.address
      if (address.type === 0 && address.accountId.type === 0)
        return cachedStrKey(address.accountId.ed25519, encodeAccount, 'G')
      if (address.type === SC_ADDRESS_CONTRACT) return cachedStrKey(address.contractId, encodeContract, 'C')
      break
    }
  }
  return sdkToNative(value)
}

/** How ScVals become native values: `toNative`, or the SDK's own (the reference decoder). */
export type Native = (value: xdr.ScValWire) => unknown
