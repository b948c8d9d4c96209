import { createHash } from 'node:crypto'
import { xdr } from '@stellar/stellar-sdk'

/**
 * Where Soroswap's factory deploys the pair of two tokens (soroswap/core, contracts/factory/src/pair.rs
 * and contracts/library/src/tokens.rs `pair_for`): the tokens sorted as Soroban orders addresses,
 * `salt = sha256(xdr(ScVal::Address token_0) ‖ xdr(ScVal::Address token_1))`, and the contract ID
 * `sha256(HashIdPreimage::ContractId{sha256(passphrase), FromAddress{factory, salt}})`. The same
 * derivation names the mainnet pairs in networks/pubnet.json and the devnet's own.
 */

const ENVELOPE_TYPE_CONTRACT_ID = 8
const CONTRACT_ID_PREIMAGE_FROM_ADDRESS = 0

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest()
}

/** Two token contract IDs in the factory's order: Soroban compares contract addresses by their bytes. */
export function sortSoroswapTokens(a: Uint8Array, b: Uint8Array): [Uint8Array, Uint8Array] {
  const order = Buffer.compare(Buffer.from(a), Buffer.from(b))
  if (order === 0) throw new RangeError('a Soroswap pair needs two different tokens')
  return order < 0 ? [a, b] : [b, a]
}

function encodeContractAddress(contractId: Uint8Array): Uint8Array {
  return xdr.ScVal.schema.encode({ type: 18, address: { type: 1, contractId } })
}

/** The 32-byte contract ID of the factory's pair for two tokens (in either order). */
export function deriveSoroswapPairId(
  passphrase: string,
  factory: Uint8Array,
  tokenA: Uint8Array,
  tokenB: Uint8Array,
): Uint8Array {
  const [token0, token1] = sortSoroswapTokens(tokenA, tokenB)
  const salt = sha256(Buffer.concat([encodeContractAddress(token0), encodeContractAddress(token1)]))
  const preimage = xdr.HashIdPreimage.schema.encode({
    type: ENVELOPE_TYPE_CONTRACT_ID,
    contractId: {
      networkId: sha256(Buffer.from(passphrase)),
      contractIdPreimage: {
        type: CONTRACT_ID_PREIMAGE_FROM_ADDRESS,
        fromAddress: { address: { type: 1, contractId: factory }, salt },
      },
    },
  })
  return sha256(preimage)
}
