import { Address, StrKey, xdr } from '@stellar/stellar-sdk'
import type { NetworkConfig } from '../../src/chain/network.ts'

/**
 * Reading DeFindex effects from decoded XDR, for the devnet's ledgers and mainnet's alike: every
 * address is named by its role (vault, strategy, pool, asset, holder), and every value by its shape,
 * so two transactions can be compared without their amounts.
 */

export type Roles = (address: string) => string

/** Roles of the devnet's contracts, from its network description. */
export function devnetRoles(network: NetworkConfig): Roles {
  const roles = new Map<string, string>()
  for (const c of network.contracts.yieldprotocol)
    roles.set(c.address, c.kind === 'defindex-vault' ? 'vault' : 'strategy')
  for (const p of network.contracts.lendingprotocol) roles.set(p.address, 'pool')
  for (const a of Object.values(network.assets)) if (a.id.startsWith('C')) roles.set(a.id, 'asset')
  return (address) => roles.get(address) ?? (address.startsWith('G') ? 'holder' : 'contract')
}

const addressOf = (a: xdr.ScAddressWire): string =>
  a.type === 0
    ? StrKey.encodeEd25519PublicKey(Buffer.from(a.accountId.ed25519))
    : a.type === 1
      ? StrKey.encodeContract(Buffer.from(a.contractId))
      : '?'

/** A value's shape: types, symbol names, map keys, an address's role; a vector lists its distinct element shapes. */
export function shapeOf(v: xdr.ScValWire, roles: Roles, keepStrings: string[] = []): string {
  switch (v.type) {
    case 0:
      return 'Bool'
    case 1:
      return 'Void'
    case 3:
      return 'U32'
    case 5:
      return 'U64'
    case 10:
      return 'I128'
    case 14: {
      const text = v.str.toString()
      return keepStrings.includes(text) ? `Str(${text})` : 'Str'
    }
    case 15:
      return `Sym(${v.sym.toString()})`
    case 16: {
      const items = [...new Set((v.vec ?? []).map((x) => shapeOf(x, roles, keepStrings)))]
      return `Vec[${items.join(',')}]`
    }
    case 17:
      return `Map{${(v.map ?? []).map((e) => `${shapeOf(e.key, roles, keepStrings)}:${shapeOf(e.val, roles, keepStrings)}`).join(',')}}`
    case 18:
      return `Addr(${roles(addressOf(v.address))})`
    default:
      return `T${v.type}`
  }
}

const KINDS = ['created', 'updated', 'removed', 'state', 'restored']

/** One entry change as `role|kind|durability|key|value`; instance entries list their storage's shapes. */
export function changeShape(change: xdr.LedgerEntryChangeWire, roles: Roles): string {
  const kind = KINDS[change.type]!
  if (change.type === 2) return `${kind}|key type ${change.removed.type}`
  const entry =
    change.type === 0
      ? change.created
      : change.type === 1
        ? change.updated
        : change.type === 3
          ? change.state
          : change.restored
  const data = entry.data
  if (data.type === 9) return `${kind}|ttl`
  if (data.type === 1) return `${kind}|trustline`
  if (data.type !== 6) return `${kind}|entry type ${data.type}`
  const cd = data.contractData
  const role = roles(Address.fromScAddress(xdr.ScAddress.fromXdrObject(cd.contract)).toString())
  const durability = cd.durability === 0 ? 'temporary' : 'persistent'
  if (cd.key.type === 20 && cd.val.type === 19) {
    const storage = (cd.val.instance.storage ?? []).map(
      (e) => `${shapeOf(e.key, roles)}=${shapeOf(e.val, roles)}`,
    )
    return `${role}|${kind}|${durability}|instance|${storage.join(';')}`
  }
  return `${role}|${kind}|${durability}|${shapeOf(cd.key, roles)}|${shapeOf(cd.val, roles)}`
}

/** One event as `role|topics|data`, naming the contracts' own topic strings. */
export function eventShape(event: xdr.ContractEventWire, roles: Roles): string {
  const contract = StrKey.encodeContract(Buffer.from(event.contractId!))
  const v0 = event.body.v0
  const keep = ['DeFindexVault', 'BlendStrategy']
  return `${roles(contract)}|${v0.topics.map((t) => shapeOf(t, roles, keep)).join(' ')}|${shapeOf(v0.data, roles, keep)}`
}

/** A decoded i128 as a bigint. */
export function i128Of(v: xdr.ScValWire | undefined): bigint {
  if (v?.type !== 10) throw new Error(`not an i128: ${v?.type}`)
  return (v.i128.hi << 64n) | v.i128.lo
}

/** A struct's (map's) field by name. */
export function field(v: xdr.ScValWire | undefined, name: string): xdr.ScValWire | undefined {
  if (v?.type !== 17) return undefined
  return v.map?.find((e) => e.key.type === 15 && e.key.sym.toString() === name)?.val
}

export interface RawTx {
  hash: string
  changes: xdr.LedgerEntryChangeWire[]
  events: xdr.ContractEventWire[]
}

/** Each transaction's entry changes and contract events, straight from a ledger's XDR. */
export function rawTxs(bytes: Uint8Array): RawTx[] {
  const lcm = xdr.LedgerCloseMeta.fromXDR(Buffer.from(bytes))
  if (lcm.type === 'v0') throw new Error('a v0 ledger')
  const body = lcm.type === 'v2' ? lcm.v2 : lcm.v1
  return body.txProcessing.map((tp) => {
    const meta = tp.txApplyProcessing.toXdrObject()
    const hash = tp.result.transactionHash.toXdr('hex')
    if (meta.v === 4) {
      return {
        hash,
        changes: meta.v4.operations.flatMap((op) => op.changes),
        events: meta.v4.operations.flatMap((op) => op.events),
      }
    }
    if (meta.v === 3) {
      return {
        hash,
        changes: meta.v3.operations.flatMap((op) => op.changes),
        events: meta.v3.sorobanMeta?.events ?? [],
      }
    }
    return { hash, changes: [], events: [] }
  })
}
