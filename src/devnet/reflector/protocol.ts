import { buildInstanceKey } from '../ledger/contract-layout.ts'
import { compareScVal } from '../ledger/scval.ts'
import type { SimulatedProtocol } from '../simulated-protocol.ts'
import type { DevnetIdentities } from '../world/identities.ts'
import { ORACLE_INTERVAL_LEDGERS, PRICE_ONE } from '../world/world-state.ts'
import { buildOracleInstanceEntry, deployOracleTx, setPriceTx } from './calls.ts'
import type { OracleAsset } from './layout.ts'
import type { OracleState } from './state.ts'

/** The Reflector feed: deployed in the first ledger, then a `set_price` every oracle interval. */
export function createReflectorProtocol(
  ids: DevnetIdentities,
  startLedger: number,
  reflectorV3Ledger: number | null,
): SimulatedProtocol {
  // The feed quotes XLM by its asset contract and the fiat denominations by ticker.
  // USDC and EURC (the lending pools' reserves) are quoted by their asset contracts too.
  const assets: OracleAsset[] = [
    { contract: ids.xlmContract },
    { symbol: 'EUR' },
    { symbol: 'GBP' },
    { contract: ids.usdcContract },
    { contract: ids.eurcContract },
  ]
  const oracle: OracleState = {
    assets,
    lastTimestampMs: 0n,
    instanceModified: startLedger,
    // Absent: v3 throughout, every update is at or above ledger 0.
    v3Ledger: reflectorV3Ledger ?? 0,
  }
  return {
    name: 'reflector',
    actsInDeployLedger: true,
    deployTxs: (w) => [deployOracleTx(w, oracle)],
    ledgerTxs: (w) => {
      if ((w.sequence - startLedger) % ORACLE_INTERVAL_LEDGERS !== 0) return []
      // The world has just moved its prices; USDC is quoted at one dollar, EURC at the EUR price.
      const eur = w.denoms[1]!.price
      return [setPriceTx(w, oracle, [w.xlmPrice, eur, w.denoms[2]!.price, PRICE_ONE, eur])]
    },
    lookupEntry: (w, contract, key, durability) => {
      if (!contract.equals(ids.oracleContract)) return undefined
      // Only the instance is answered: v2's temporary price records are not.
      if (durability !== 1 || compareScVal(key, buildInstanceKey()) !== 0 || key.type !== 20) return null
      return buildOracleInstanceEntry(w, oracle)
    },
  }
}
