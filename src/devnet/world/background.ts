import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry } from '../ledger/contract-layout.ts'
import { createSacEvents, type SacEvents } from '../ledger/sac-events.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildBool,
  buildI128,
  buildStruct,
  buildSymbol,
  buildVec,
} from '../ledger/scval.ts'
import { deriveKey } from './identities.ts'
import { createRng, type Rng } from './prng.ts'
import type { SimTx } from './world-state.ts'

/**
 * Traffic no indexer of ours watches, as most of mainnet is: transfers on other asset contracts
 * between accounts outside the simulated population, each updating two SAC `Balance(Address)`
 * entries (`{amount, authorized, clawback}`) and emitting a `transfer` event. It has its own random
 * stream, so turning it on leaves the watched world exactly as it was.
 */
const TOKENS = 24
const HOLDERS = 50_000

export interface Background {
  ledgerTxs(sequence: number, count: number): SimTx[]
}

export function createBackground(seed: string): Background {
  const rng: Rng = createRng(`${seed}:background`)
  const tokens = Array.from({ length: TOKENS }, (_, i) => {
    const contract = deriveKey(seed, `background-token:${i}`)
    return { contract, sac: createSacEvents(contract, `TK${i}:${'G'.padEnd(56, 'A')}`) as SacEvents }
  })
  const holder = (i: number) => deriveKey(seed, `background-holder:${i}`)
  const balances = new Map<string, bigint>()

  const balanceEntry = (contract: Uint8Array, who: Uint8Array, amount: bigint, sequence: number) =>
    buildContractDataEntry(
      contract,
      buildVec([buildSymbol('Balance'), buildAddressVal(buildAccountAddress(who))]),
      buildStruct({ amount: buildI128(amount), authorized: buildBool(true), clawback: buildBool(false) }),
      sequence,
    )

  return {
    ledgerTxs(sequence, count) {
      const txs: SimTx[] = []
      for (let i = 0; i < count; i++) {
        const token = tokens[rng.nextInt(TOKENS)]!
        const fromIndex = rng.nextInt(HOLDERS)
        const toIndex = rng.nextInt(HOLDERS)
        const from = holder(fromIndex)
        const to = holder(toIndex)
        const amount = BigInt(rng.nextRange(1, 1_000_000)) * 10_000n
        const changes: xdr.LedgerEntryChangeWire[] = []
        for (const [who, delta] of [
          [from, -amount],
          [to, amount],
        ] as const) {
          const key = `${token.contract[0]}:${Buffer.from(who).toString('hex')}`
          const before = balances.get(key) ?? 10n ** 15n
          balances.set(key, before + delta)
          changes.push(
            { type: 3, state: balanceEntry(token.contract, who, before, sequence - 1) },
            { type: 1, updated: balanceEntry(token.contract, who, before + delta, sequence) },
          )
        }
        txs.push({
          source: from,
          contract: token.contract,
          fn: 'transfer',
          args: [
            buildAddressVal(buildAccountAddress(from)),
            buildAddressVal(buildAccountAddress(to)),
            buildI128(amount),
          ],
          successful: true,
          changes,
          events: [token.sac.transfer(buildAccountAddress(from), buildAccountAddress(to), amount)],
        })
      }
      return txs
    },
  }
}
