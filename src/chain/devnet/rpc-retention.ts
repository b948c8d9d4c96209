import type { DevnetChain } from './chain.ts'

/** The retention window fields several Stellar RPC results carry. The devnet keeps every ledger. */
export function buildRetention(chain: DevnetChain) {
  return {
    latestLedger: chain.latestLedger(),
    latestLedgerCloseTime: chain.getLedger(chain.latestLedger())!.closeTime,
    oldestLedger: chain.oldestLedger(),
    oldestLedgerCloseTime: chain.getLedger(chain.oldestLedger())!.closeTime,
  }
}
