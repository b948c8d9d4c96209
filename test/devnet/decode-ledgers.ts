import { Address, scValToNative, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/devnet/devnet.ts'

/**
 * An independent reading of the devnet's ledgers, straight from their XDR with stellar-sdk, so
 * tests compare the RPC surface and the world's invariants against what the bytes say.
 */
export interface DecodedChange {
  kind: 'created' | 'updated' | 'removed' | 'state' | 'restored'
  contract: string
  durability?: 'temporary' | 'persistent'
  keyXdr: string
  key: unknown
  /** Native value (null for removed). */
  val: unknown
  valWire: xdr.ScValWire | null
}

export interface DecodedTx {
  hash: string
  /** The contract function invoked, read from the envelope in the transaction set. */
  fn: string
  /** The contract invoked (C...), read from the same envelope. */
  contract: string
  /** The transaction's source account (G...), from the same envelope. */
  source: string
  /** The call's arguments, as natives. */
  args: unknown[]
  ledger: number
  index: number
  successful: boolean
  changes: DecodedChange[]
  events: {
    id: string
    contractId: string
    topics: string[]
    value: string
    topicsWire: xdr.ScValWire[]
    valueWire: xdr.ScValWire
  }[]
}

export interface DecodedLedger {
  sequence: number
  closeTime: number
  version: string
  txs: DecodedTx[]
  /** Contract-data keys evicted at this ledger, as natives with their contract. */
  evicted: { contract: string; key: unknown }[]
}

export function decodeLedgers(chain: DevnetChain): DecodedLedger[] {
  const out: DecodedLedger[] = []
  for (let seq = chain.oldestLedger(); seq <= chain.latestLedger(); seq++) {
    out.push(decodeLedger(chain.ledgerMetaXdr(seq), chain.passphrase))
  }
  return out
}

export function decodeLedger(bytes: Uint8Array, passphrase: string): DecodedLedger {
  const lcm = xdr.LedgerCloseMeta.fromXdr(bytes)
  if (lcm.type === 'v0') throw new Error('unexpected v0 ledger')
  const body = lcm.type === 'v1' ? lcm.v1 : lcm.v2
  const header = body.ledgerHeader.header
  const sequence = header.ledgerSeq
  const functions = new Map<string, { fn: string; contract: string; source: string; args: unknown[] }>()
  const set = body.txSet.toXdrObject()
  if (set.v === 1) {
    for (const phase of set.v1TxSet.phases) {
      if (phase.v !== 0) continue
      for (const component of phase.v0Components) {
        for (const envelope of component.txsMaybeDiscountedFee.txs) {
          const base64 = Buffer.from(xdr.TransactionEnvelope.schema.encode(envelope)).toString('base64')
          const parsed = TransactionBuilder.fromXDR(base64, passphrase)
          const hash = Buffer.from(parsed.hash()).toString('hex')
          const source = 'innerTransaction' in parsed ? parsed.innerTransaction.source : parsed.source
          const body = envelope.type === 2 ? envelope.v1.tx.operations[0]?.body : undefined
          const invoke =
            body?.type === 24 && body.invokeHostFunctionOp.hostFunction.type === 0
              ? body.invokeHostFunctionOp.hostFunction.invokeContract
              : null
          functions.set(hash, {
            source,
            args: invoke ? invoke.args.map((a) => scValToNative(xdr.ScVal.fromXdrObject(a))) : [],
            fn: invoke ? invoke.functionName.toString() : '',
            contract: invoke
              ? Address.fromScAddress(xdr.ScAddress.fromXdrObject(invoke.contractAddress)).toString()
              : '',
          })
        }
      }
    }
  }
  const txs = body.txProcessing.map((tp, i): DecodedTx => {
    const meta = tp.txApplyProcessing
    let changes: xdr.LedgerEntryChange[] = []
    let events: xdr.ContractEvent[] = []
    if (meta.type === 'v4') {
      changes = meta.v4.operations.flatMap((op) => op.changes)
      events = meta.v4.operations.flatMap((op) => op.events)
    } else if (meta.type === 'v3') {
      changes = meta.v3.operations.flatMap((op) => op.changes)
      events = meta.v3.sorobanMeta?.events ?? []
    }
    const hash = tp.result.transactionHash.toXdr('hex')
    return {
      hash,
      fn: functions.get(hash)?.fn ?? '',
      contract: functions.get(hash)?.contract ?? '',
      source: functions.get(hash)?.source ?? '',
      args: functions.get(hash)?.args ?? [],
      ledger: sequence,
      index: i + 1,
      successful: tp.result.result.result.type === 'txSuccess',
      changes: changes.map(decodeChange),
      events: events.map((e, j) => {
        const wire = e.toXdrObject()
        const v0 = wire.body.v0
        const toid = (BigInt(sequence) << 32n) | (BigInt(i + 1) << 12n)
        return {
          id: `${toid.toString().padStart(19, '0')}-${String(j).padStart(10, '0')}`,
          contractId: Address.contract(Buffer.from(wire.contractId!)).toString(),
          topics: v0.topics.map((t) => xdr.ScVal.fromXdrObject(t).toXdr('base64')),
          value: xdr.ScVal.fromXdrObject(v0.data).toXdr('base64'),
          topicsWire: v0.topics,
          valueWire: v0.data,
        }
      }),
    }
  })
  const evicted =
    lcm.type === 'v2'
      ? lcm.v2.evictedKeys.flatMap((k) => {
          const wire = k.toXdrObject()
          if (wire.type !== 6) return []
          return [
            {
              contract: Address.fromScAddress(
                xdr.ScAddress.fromXdrObject(wire.contractData.contract),
              ).toString(),
              key: scValToNative(xdr.ScVal.fromXdrObject(wire.contractData.key)),
            },
          ]
        })
      : []
  return { sequence, closeTime: Number(header.scpValue.closeTime), version: lcm.type, txs, evicted }
}

function decodeChange(change: xdr.LedgerEntryChange): DecodedChange {
  const wire = change.toXdrObject()
  if (wire.type === 2) {
    if (wire.removed.type !== 6) throw new Error('unexpected removed key')
    const cd = wire.removed.contractData
    return {
      kind: 'removed',
      contract: Address.fromScAddress(xdr.ScAddress.fromXdrObject(cd.contract)).toString(),
      durability: cd.durability === 0 ? 'temporary' : 'persistent',
      keyXdr: xdr.ScVal.fromXdrObject(cd.key).toXdr('base64'),
      key: scValToNative(xdr.ScVal.fromXdrObject(cd.key)),
      val: null,
      valWire: null,
    }
  }
  const entry =
    wire.type === 0
      ? wire.created
      : wire.type === 1
        ? wire.updated
        : wire.type === 3
          ? wire.state
          : wire.type === 4
            ? wire.restored
            : null
  if (entry?.data.type !== 6) throw new Error(`unexpected change ${wire.type}`)
  const cd = entry.data.contractData
  const val = cd.val
  return {
    kind: (['created', 'updated', 'removed', 'state', 'restored'] as const)[wire.type],
    contract: Address.fromScAddress(xdr.ScAddress.fromXdrObject(cd.contract)).toString(),
    durability: cd.durability === 0 ? 'temporary' : 'persistent',
    keyXdr: xdr.ScVal.fromXdrObject(cd.key).toXdr('base64'),
    key: val.type === 19 ? 'instance' : scValToNative(xdr.ScVal.fromXdrObject(cd.key)),
    // An instance entry's value is its storage map, as [key, value] natives in stored order.
    val:
      val.type === 19
        ? (val.instance.storage ?? []).map((e) => [
            scValToNative(xdr.ScVal.fromXdrObject(e.key)),
            scValToNative(xdr.ScVal.fromXdrObject(e.val)),
          ])
        : scValToNative(xdr.ScVal.fromXdrObject(val)),
    valWire: cd.val,
  }
}
