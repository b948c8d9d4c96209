import { createHash } from 'node:crypto'
import { xdr } from '@stellar/stellar-sdk'
import type { SimLedger, SimTx } from '../world/world-state.ts'
import { buildContractAddress } from './scval.ts'

/** Turns a simulated ledger into genuine LedgerCloseMeta XDR, encoded by stellar-sdk's own schemas. */

export interface EncodedLedger {
  sequence: number
  closeTime: number
  hash: Buffer
  protocolVersion: number
  /** Raw LedgerCloseMeta XDR. */
  meta: Buffer
  /** Raw LedgerHeaderHistoryEntry XDR. */
  header: Buffer
  /** Raw LedgerHeader XDR (what getLatestLedger returns). */
  headerOnly: Buffer
  /** 32 bytes per transaction, in application order. */
  txHashes: Buffer
}

export interface LedgerEncoder {
  encodeLedger(sim: SimLedger, previousHash: Buffer): EncodedLedger
}

/** Ledgers from this protocol version on use LedgerCloseMeta v2 and TransactionMeta v4. */
export const PROTOCOL_23 = 23
const FEE_CHARGED = 100_000n
const ZERO_HASH = Buffer.alloc(32)
const EMPTY_EXT = { v: 0 } as const

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest()
}

/**
 * @param protocolSwitchLedger ledgers below it are encoded as protocol 22 (LedgerCloseMeta v1,
 *   TransactionMeta v3), so indexers are tested on both eras; null means every ledger is protocol 23.
 */
export function createLedgerEncoder(passphrase: string, protocolSwitchLedger: number | null): LedgerEncoder {
  const networkId = sha256(Buffer.from(passphrase))

  const encodeLedger = (sim: SimLedger, previousHash: Buffer): EncodedLedger => {
    const modern = protocolSwitchLedger === null || sim.sequence >= protocolSwitchLedger
    const envelopes: xdr.TransactionEnvelopeWire[] = []
    const hashes: Buffer[] = []
    sim.txs.forEach((tx, i) => {
      const envelope = buildEnvelope(tx, sim.sequence, i)
      envelopes.push({ type: 2, v1: envelope })
      hashes.push(
        sha256(
          xdr.TransactionSignaturePayload.schema.encode({
            networkId,
            taggedTransaction: { type: 2, tx: envelope.tx },
          }),
        ),
      )
    })
    const txSet: xdr.GeneralizedTransactionSetWire = {
      v: 1,
      v1TxSet: {
        previousLedgerHash: previousHash,
        phases: [
          { v: 0, v0Components: [] },
          { v: 0, v0Components: [{ type: 0, txsMaybeDiscountedFee: { baseFee: 100n, txs: envelopes } }] },
        ],
      },
    }
    const results = sim.txs.map((tx, i) => ({ transactionHash: hashes[i]!, result: buildResult(tx) }))
    const header: xdr.LedgerHeaderWire = {
      ledgerVersion: modern ? PROTOCOL_23 : PROTOCOL_23 - 1,
      previousLedgerHash: previousHash,
      scpValue: {
        // Hashing the transaction hashes, not a second encoding of the whole set, keeps generation
        // fast; nothing downstream recomputes a transaction set's hash.
        txSetHash: sha256(Buffer.concat([previousHash, ...hashes])),
        closeTime: BigInt(sim.closeTime),
        upgrades: [],
        ext: { v: 0 },
      },
      txSetResultHash: sha256(Buffer.concat(hashes)),
      bucketListHash: sha256(Buffer.concat([previousHash, Buffer.from(String(sim.sequence))])),
      ledgerSeq: sim.sequence,
      totalCoins: 1_000_000_000_000_000_000n,
      feePool: FEE_CHARGED * BigInt(sim.txs.length),
      inflationSeq: 0,
      idPool: 0n,
      baseFee: 100,
      baseReserve: 5_000_000,
      maxTxSetSize: 1_000,
      skipList: [ZERO_HASH, ZERO_HASH, ZERO_HASH, ZERO_HASH],
      ext: { v: 0 },
    }
    const headerOnly = Buffer.from(xdr.LedgerHeader.schema.encode(header))
    const hash = sha256(headerOnly)
    const ledgerHeader: xdr.LedgerHeaderHistoryEntryWire = { hash, header, ext: { v: 0 } }
    const common = {
      ext: EMPTY_EXT,
      ledgerHeader,
      txSet,
      upgradesProcessing: [],
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: 0n,
      // Eviction lists archived keys from protocol 23 on; the world evicts nothing before it.
      evictedKeys: sim.evictedKeys,
    }
    const lcm: xdr.LedgerCloseMetaWire = modern
      ? {
          v: 2,
          v2: {
            ...common,
            txProcessing: sim.txs.map((tx, i) => ({
              ext: EMPTY_EXT,
              result: results[i]!,
              feeProcessing: [],
              txApplyProcessing: buildMetaV4(tx),
              postTxApplyFeeProcessing: [],
            })),
          },
        }
      : {
          v: 1,
          v1: {
            ...common,
            txProcessing: sim.txs.map((tx, i) => ({
              result: results[i]!,
              feeProcessing: [],
              txApplyProcessing: buildMetaV3(tx),
            })),
            unused: [],
          },
        }
    return {
      sequence: sim.sequence,
      closeTime: sim.closeTime,
      hash,
      protocolVersion: header.ledgerVersion,
      meta: Buffer.from(xdr.LedgerCloseMeta.schema.encode(lcm)),
      header: Buffer.from(xdr.LedgerHeaderHistoryEntry.schema.encode(ledgerHeader)),
      headerOnly,
      txHashes: Buffer.concat(hashes),
    }
  }
  return { encodeLedger }
}

function buildEnvelope(tx: SimTx, sequence: number, index: number): xdr.TransactionV1EnvelopeWire {
  return {
    tx: {
      sourceAccount: { type: 0, ed25519: tx.source },
      fee: 1_000_000,
      // Unique and increasing per source, as sequence numbers must be.
      seqNum: (BigInt(sequence) << 32n) | BigInt(index + 1),
      cond: { type: 0 },
      memo: { type: 0 },
      operations: [
        {
          sourceAccount: null,
          body: {
            type: 24,
            invokeHostFunctionOp: {
              hostFunction: {
                type: 0,
                invokeContract: {
                  contractAddress: buildContractAddress(tx.contract),
                  functionName: new xdr.XdrString(tx.fn),
                  args: tx.args,
                },
              },
              auth: [],
            },
          },
        },
      ],
      ext: { v: 0 },
    },
    signatures: [],
  }
}

function buildResult(tx: SimTx): xdr.TransactionResultWire {
  return {
    feeCharged: FEE_CHARGED,
    result: tx.successful
      ? {
          code: 0,
          results: [{ code: 0, tr: { type: 24, invokeHostFunctionResult: { code: 0, success: ZERO_HASH } } }],
        }
      : // txFAILED with the operation trapped: the contract panicked and nothing was applied.
        { code: -1, results: [{ code: 0, tr: { type: 24, invokeHostFunctionResult: { code: -2 } } }] },
    ext: { v: 0 },
  }
}

function buildMetaV4(tx: SimTx): xdr.TransactionMetaWire {
  return {
    v: 4,
    v4: {
      ext: EMPTY_EXT,
      txChangesBefore: [],
      operations: tx.successful ? [{ ext: EMPTY_EXT, changes: tx.changes, events: tx.events }] : [],
      txChangesAfter: [],
      sorobanMeta: { ext: { v: 0 }, returnValue: tx.successful ? { type: 1 } : null },
      events: [],
      diagnosticEvents: [],
    },
  }
}

function buildMetaV3(tx: SimTx): xdr.TransactionMetaWire {
  return {
    v: 3,
    v3: {
      ext: EMPTY_EXT,
      txChangesBefore: [],
      operations: tx.successful ? [{ changes: tx.changes }] : [],
      txChangesAfter: [],
      sorobanMeta: tx.successful
        ? { ext: { v: 0 }, events: tx.events, returnValue: { type: 1 }, diagnosticEvents: [] }
        : null,
    },
  }
}
