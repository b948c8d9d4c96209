import type { xdr } from '@stellar/stellar-sdk'
import { buildContractEvent } from './contract-layout.ts'
import { buildAddressVal, buildI128, buildString, buildSymbol } from './scval.ts'

/**
 * Events of a Stellar Asset Contract, as the token interface (SEP-41) and CAP-67 define them:
 * - `transfer`: topics `[transfer, from, to, sep0011_asset]`, data i128;
 * - `mint`: before protocol 23 `[mint, admin, to, asset]`; from protocol 23 (CAP-67) `[mint, to, asset]`;
 * - `burn`: `[burn, from, asset]`.
 * The asset name is a String: `native`, or `CODE:ISSUER`.
 */
export interface SacEvents {
  transfer(from: xdr.ScAddressWire, to: xdr.ScAddressWire, amount: bigint): xdr.ContractEventWire
  mint(
    admin: xdr.ScAddressWire,
    to: xdr.ScAddressWire,
    amount: bigint,
    protocol23: boolean,
  ): xdr.ContractEventWire
  burn(from: xdr.ScAddressWire, amount: bigint): xdr.ContractEventWire
}

export function createSacEvents(contract: Uint8Array, assetName: string): SacEvents {
  const asset = buildString(assetName)
  return {
    transfer: (from, to, amount) =>
      buildContractEvent(
        contract,
        [buildSymbol('transfer'), buildAddressVal(from), buildAddressVal(to), asset],
        buildI128(amount),
      ),
    mint: (admin, to, amount, protocol23) =>
      buildContractEvent(
        contract,
        protocol23
          ? [buildSymbol('mint'), buildAddressVal(to), asset]
          : [buildSymbol('mint'), buildAddressVal(admin), buildAddressVal(to), asset],
        buildI128(amount),
      ),
    burn: (from, amount) =>
      buildContractEvent(contract, [buildSymbol('burn'), buildAddressVal(from), asset], buildI128(amount)),
  }
}
