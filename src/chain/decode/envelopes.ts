import { createHash } from 'node:crypto'
import { StrKey, scValToNative, xdr } from '@stellar/stellar-sdk/base'

/**
 * What a ledger's transaction set says about the transactions that invoke a watched contract: who
 * sent them and which function they called. A transaction's meta says neither, and a failed one
 * has no events or changes at all, so only its envelope shows it touched a watched contract.
 * Envelopes are matched to results by hash (SHA-256 of the network id and the tagged transaction,
 * as Stellar signs them); only those invoking a watched contract are hashed.
 */
export interface Invocation {
  /** The transaction's source account (G...; the inner transaction's for a fee bump). */
  source: string
  /** The contract invoked (C...) and the function. */
  contract: string
  fn: string
  /** The call's arguments as native values (see `scValToNative`). */
  args: unknown[]
}

const ENVELOPE_TX = 2
const ENVELOPE_FEE_BUMP = 5
const OP_INVOKE_HOST_FUNCTION = 24
const HOST_FUNCTION_INVOKE_CONTRACT = 0
const SC_ADDRESS_CONTRACT = 1
const MUXED_ED25519 = 0

/** An ScVal as the SDK's `scValToNative` gives it: the reference the decoders' own conversion matches. */
export function sdkToNative(value: xdr.ScValWire): unknown {
  return scValToNative(xdr.ScVal.fromXdrObject(value))
}

/** The network id transactions are hashed with: SHA-256 of the passphrase. */
export function networkIdOf(passphrase: string): Uint8Array {
  return createHash('sha256').update(passphrase).digest()
}

function accountOf(muxed: xdr.MuxedAccountWire): string {
  const key = muxed.type === MUXED_ED25519 ? muxed.ed25519 : muxed.med25519.ed25519
  return StrKey.encodeEd25519PublicKey(Buffer.from(key))
}

function envelopesOf(txSet: xdr.GeneralizedTransactionSetWire): xdr.TransactionEnvelopeWire[] {
  const out: xdr.TransactionEnvelopeWire[] = []
  for (const phase of txSet.v1TxSet.phases) {
    if (phase.v === 0) {
      for (const component of phase.v0Components) out.push(...component.txsMaybeDiscountedFee.txs)
    } else {
      for (const stage of phase.parallelTxsComponent.executionStages)
        for (const cluster of stage) out.push(...cluster)
    }
  }
  return out
}

/**
 * The invocations of watched contracts in a ledger's transaction set, by transaction hash (hex).
 * @param isWatched whether a contract's 32-byte id is one the decoder keeps (its StrKey, or null).
 */
export function readInvocations(
  txSet: xdr.GeneralizedTransactionSetWire,
  networkId: Uint8Array,
  isWatched: (contractId: Uint8Array) => string | null,
): Map<string, Invocation> {
  return readEnvelopeInvocations(envelopesOf(txSet), networkId, isWatched, sdkToNative)
}

/** The same from envelopes decoded one by one (those of a transaction set that may invoke one). */
export function readEnvelopeInvocations(
  envelopes: Iterable<xdr.TransactionEnvelopeWire>,
  networkId: Uint8Array,
  isWatched: (contractId: Uint8Array) => string | null,
  toNative: (value: xdr.ScValWire) => unknown,
): Map<string, Invocation> {
  const found = new Map<string, Invocation>()
  for (const envelope of envelopes) {
    const inner =
      envelope.type === ENVELOPE_TX
        ? envelope.v1
        : envelope.type === ENVELOPE_FEE_BUMP
          ? envelope.feeBump.tx.innerTx.v1
          : null
    // v0 envelopes predate Soroban: they cannot invoke a contract.
    if (inner === null) continue
    const op = inner.tx.operations[0]
    if (op?.body.type !== OP_INVOKE_HOST_FUNCTION) continue
    const host = op.body.invokeHostFunctionOp.hostFunction
    if (host.type !== HOST_FUNCTION_INVOKE_CONTRACT) continue
    const address = host.invokeContract.contractAddress
    if (address.type !== SC_ADDRESS_CONTRACT) continue
    const contract = isWatched(address.contractId)
    if (contract === null) continue
    const tagged: xdr.TransactionSignaturePayloadTaggedTransactionWire =
      envelope.type === ENVELOPE_FEE_BUMP
        ? { type: ENVELOPE_FEE_BUMP, feeBump: envelope.feeBump.tx }
        : { type: ENVELOPE_TX, tx: inner.tx }
    const payload = xdr.TransactionSignaturePayload.schema.encode({ networkId, taggedTransaction: tagged })
    const hash = createHash('sha256').update(payload).digest('hex')
    found.set(hash, {
      source: accountOf(inner.tx.sourceAccount),
      contract,
      fn: host.invokeContract.functionName.toString(),
      args: host.invokeContract.args.map(toNative),
    })
  }
  return found
}
