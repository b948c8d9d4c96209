import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { Address, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import {
  pricePerShare,
  reportAndLock,
  strategyBalance,
  underlyingOf,
} from '../../src/protocols/yieldprotocol/funds.ts'

/**
 * The vault's arithmetic against what mainnet's contracts did in ledger 63092996 (test/fixtures/
 * pubnet): the entries before the deposit (the meta's pre-images), the deposit event's
 * `total_managed_funds_before`, and the `Report` the vault wrote, all read with the SDK.
 */
const VAULT = 'CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR'
const FIXED = 'CDB2WMKQQNVZMEBY7Q7GZ5C7E7IAFSNMZ7GGVD6WKTCEWK7XOIAVZSAP'
const POOL = 'CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'

function readFixture() {
  const bytes = gunzipSync(
    readFileSync(new URL('../fixtures/pubnet/wallet-backend__ledger-63092996.xdr.gz', import.meta.url)),
  )
  const lcm = xdr.LedgerCloseMeta.fromXDR(bytes)
  if (lcm.type !== 'v2') throw new Error('expected LedgerCloseMeta v2')
  const before = new Map<string, unknown>()
  const after = new Map<string, unknown>()
  let deposit: Record<string, unknown> | null = null
  for (const processing of lcm.v2.txProcessing) {
    const meta = processing.txApplyProcessing
    if (meta.type !== 'v4') continue
    for (const op of meta.v4.operations) {
      for (const change of op.changes) {
        const entry =
          change.type === 'ledgerEntryState'
            ? change.state
            : change.type === 'ledgerEntryUpdated'
              ? change.updated
              : null
        if (entry?.data.type !== 'contractData') continue
        const data = entry.data.contractData
        const contract = Address.fromScAddress(data.contract).toString()
        const into = change.type === 'ledgerEntryState' ? before : after
        if (data.key.type === 'scvLedgerKeyContractInstance' && data.val.type === 'scvContractInstance') {
          for (const e of data.val.instance.storage ?? [])
            into.set(`${contract} ${JSON.stringify(scValToNative(e.key))}`, scValToNative(e.val))
        } else into.set(`${contract} ${JSON.stringify(scValToNative(data.key))}`, scValToNative(data.val))
      }
      for (const event of op.events) {
        const topics = event.body.v0.topics.map((t) => scValToNative(t))
        if (topics[0] === 'DeFindexVault' && topics[1] === 'deposit')
          deposit = scValToNative(event.body.v0.data) as Record<string, unknown>
      }
    }
  }
  const key = (contract: string, ...k: unknown[]) => `${contract} ${JSON.stringify(k)}`
  return { before, after, key, deposit: deposit! }
}

describe('DeFindex arithmetic against a genuine mainnet deposit', () => {
  const { before, after, key, deposit } = readFixture()
  const funds = (deposit.total_managed_funds_before as Array<Record<string, unknown>>)[0]!
  const allocation = (funds.strategy_allocations as Array<Record<string, bigint>>)[0]!
  const reserves = before.get(key(FIXED, 'Reserves')) as Record<string, bigint>
  const pos = before.get(key(FIXED, 'VaultPos', VAULT)) as bigint
  // The pool accrued the reserve to the ledger's time for this call and stored that b_rate.
  const bRate = (after.get(key(POOL, 'ResData', USDC)) as Record<string, bigint>).b_rate!
  const reportBefore = before.get(key(VAULT, 'Report', FIXED)) as Record<string, bigint>
  const fee = BigInt(before.get(key(VAULT, 'VaultFee')) as number)
  const toReport = (r: Record<string, bigint>) => ({
    gainsOrLosses: r.gains_or_losses!,
    lockedFee: r.locked_fee!,
    prevBalance: r.prev_balance!,
  })

  it("the strategy's balance, the report's lock and the invested amount are the vault's own", () => {
    const balance = strategyBalance(
      pos,
      {
        bRate: reserves.b_rate!,
        totalBTokens: reserves.total_b_tokens!,
        totalShares: reserves.total_shares!,
      },
      bRate,
    )!
    const locked = reportAndLock(toReport(reportBefore), balance, fee)
    expect(balance - locked.lockedFee).toBe(allocation.amount)
    // The Report the call wrote keeps that locked fee (and then adds the invested deposit to prev_balance).
    const written = after.get(key(VAULT, 'Report', FIXED)) as Record<string, bigint>
    expect(written.locked_fee).toBe(locked.lockedFee)
    expect(locked.lockedFee).toBeGreaterThan(reportBefore.locked_fee!)
  })

  it("the shares minted are the deposit priced at the event's price per share", () => {
    const total = funds.total_amount as bigint
    const supply = deposit.total_supply_before as bigint
    const [amount] = deposit.amounts as bigint[]
    expect((amount! * supply) / total).toBe(deposit.df_tokens_minted)
    // What the minted shares are worth back, rounded down as the vault pays out.
    expect(underlyingOf(deposit.df_tokens_minted as bigint, total, supply)).toBeLessThanOrEqual(amount!)
    expect(pricePerShare(total, supply, 7)).toBe((total * 10n ** 12n) / supply)
    expect(pricePerShare(total, 0n, 7)).toBeNull()
  })

  it('no shares: a balance of 0 without asking the pool; shares without reserves or rate: unknown', () => {
    expect(strategyBalance(0n, null, null)).toBe(0n)
    expect(strategyBalance(pos, null, bRate)).toBeNull()
    expect(
      strategyBalance(
        pos,
        { bRate: 1n, totalBTokens: reserves.total_b_tokens!, totalShares: reserves.total_shares! },
        null,
      ),
    ).toBeNull()
    expect(strategyBalance(pos, { bRate: 1n, totalBTokens: 0n, totalShares: 0n }, null)).toBe(0n)
    // A first report counts prev_balance 0 as the balance itself: nothing gained, nothing locked.
    expect(reportAndLock({ gainsOrLosses: 0n, lockedFee: 0n, prevBalance: 0n }, 1_000n, 5_000n)).toEqual({
      gainsOrLosses: 0n,
      lockedFee: 0n,
      prevBalance: 1_000n,
    })
    // Losses are carried, not locked.
    expect(reportAndLock({ gainsOrLosses: 0n, lockedFee: 7n, prevBalance: 1_000n }, 900n, 5_000n)).toEqual({
      gainsOrLosses: -100n,
      lockedFee: 7n,
      prevBalance: 900n,
    })
  })
})
