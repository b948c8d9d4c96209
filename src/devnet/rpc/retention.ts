import type { DevnetChain } from '../world/chain.ts'

/** The retention window fields several Stellar RPC results carry: the devnet's RPC serves `servedFrom()` on. */
export function buildRetention(chain: DevnetChain) {
  return {
    latestLedger: chain.latestLedger(),
    latestLedgerCloseTime: chain.getLedger(chain.latestLedger())!.closeTime,
    oldestLedger: chain.servedFrom(),
    oldestLedgerCloseTime: chain.getLedger(chain.servedFrom())!.closeTime,
  }
}
