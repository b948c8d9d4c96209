// What the Blend layout tests share: the devnet's Blend v2 pools generated once per file and decoded
// with the SDK, the field lists blend-contracts-v2 writes, and small readers of decoded changes.
// The bindings below are live: set by loadBlendLedgers in a test file's beforeAll.
import { scValToNative, xdr } from '@stellar/stellar-sdk'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/devnet.ts'
import { type DecodedChange, type DecodedLedger, type DecodedTx, decodeLedgers } from './decode-ledgers.ts'

// Blend v2 pools (blend-capital/blend-contracts-v2, pool/src), checked on the XDR decoded with the
// SDK; the formulas are written again here from the contract source, not taken from the devnet.
export const START = 2_000
export const LEDGERS = 2_500
export const S7 = 10_000_000n
export const S12 = 1_000_000_000_000n

export const POOL_CONFIG_FIELDS = ['bstop_rate', 'max_positions', 'min_collateral', 'oracle', 'status']
export const RESERVE_CONFIG_FIELDS = [
  'c_factor',
  'decimals',
  'enabled',
  'index',
  'l_factor',
  'max_util',
  'r_base',
  'r_one',
  'r_three',
  'r_two',
  'reactivity',
  'supply_cap',
  'util',
]
export const RESERVE_DATA_FIELDS = [
  'b_rate',
  'b_supply',
  'backstop_credit',
  'd_rate',
  'd_supply',
  'ir_mod',
  'last_time',
]
export const ACTIONS = ['supply', 'withdraw', 'supply_collateral', 'withdraw_collateral', 'borrow', 'repay']

export type Positions = {
  collateral: Record<string, bigint>
  liabilities: Record<string, bigint>
  supply: Record<string, bigint>
}

export let chain: DevnetChain
export let ledgers: DecodedLedger[]
export let pools: string[]
export let assets: string[]
export let oracle: string
export const closeTimeOf = new Map<number, bigint>()

export const fieldNames = (wire: xdr.ScValWire | null): string[] =>
  wire?.type === 17 ? (wire.map ?? []).map((e) => (e.key.type === 15 ? e.key.sym.toString() : '?')) : []
export const keyTag = (c: DecodedChange): string | null => (Array.isArray(c.key) ? String(c.key[0]) : null)
export const sym = (base64: string) => scValToNative(xdr.ScVal.fromXDR(base64, 'base64'))

/** Generates and decodes the devnet's Blend ledgers, once per test file (its `beforeAll`). */
export function loadBlendLedgers(): void {
  chain = createDevnetChain({
    seed: 'blend',
    ledgers: LEDGERS,
    accounts: 80,
    activity: 0.03,
    startLedger: START,
    // The pools alone: DeFindex strategies (pool users inside vault calls) are checked in defindex-layout.test.ts.
    yieldActivity: 0,
  })
  ledgers = decodeLedgers(chain)
  pools = chain.network.contracts.lendingprotocol.map((p) => p.address)
  const bySymbol = (s: string) => Object.values(chain.network.assets).find((a) => a.symbol === s)!.id
  assets = [bySymbol('XLM'), bySymbol('USDC'), bySymbol('EURC')]
  oracle = chain.network.contracts.oracles[0]!.address
  for (const l of ledgers) closeTimeOf.set(l.sequence, BigInt(l.closeTime))
}

export const poolTxs = (pool: string): DecodedTx[] =>
  ledgers
    .flatMap((l) => l.txs)
    .filter((t) => t.changes.some((c) => c.contract === pool) || isFailedSubmit(t, pool))
export function isFailedSubmit(t: DecodedTx, pool: string): boolean {
  // A failed transaction has no changes; its target is only in the envelope, so any failed submit counts.
  return !t.successful && t.fn === 'submit' && pool !== ''
}
