import type { Enrichment, PositionsDeps, ProtocolModule } from '../protocols/protocol-module.ts'
import { answerPositions, type PositionsMeta } from './answer.ts'
import { addTotals, formatTotals, rowUsdParts, sumUsdParts } from './totals.ts'

/**
 * "What did this account hold across Stellar DeFi at ledger P": every registered protocol's
 * snapshot surface, each answered exactly as its own endpoint answers it (its own `as_of_ledger`
 * and `partial_result`), plus USD totals over all of them.
 */

export interface ProtocolSection {
  kind: ProtocolModule['kind']
  as_of_ledger: number | null
  partial_result: boolean
  oracle_staleness_seconds: number
  data: unknown
  totals: ReturnType<typeof formatTotals>
}

export interface AllPositionsResponse {
  data: {
    address: string
    protocols: Record<string, ProtocolSection>
    totals: ReturnType<typeof formatTotals>
  }
  enrichment: Enrichment
  meta: PositionsMeta
}

export async function answerAllPositions(
  modules: readonly ProtocolModule[],
  deps: PositionsDeps,
  query: { address: string; pin: number | bigint | null },
): Promise<AllPositionsResponse> {
  const answers = await Promise.all(
    modules.map((module) => answerPositions(module, deps, { ...query, atPin: false })),
  )
  const enrichment: Enrichment = { assets: {}, contracts: {} }
  const protocols: Record<string, ProtocolSection> = {}
  const totals = answers.map((answer, i) => {
    const module = modules[i]!
    const parts = module.positions.usdParts?.(answer.data) ?? rowUsdParts(answer.data)
    const sum = sumUsdParts(parts)
    protocols[module.name] = {
      kind: module.kind,
      as_of_ledger: answer.meta.as_of_ledger,
      partial_result: answer.meta.partial_result,
      oracle_staleness_seconds: answer.meta.oracle_staleness_seconds,
      data: answer.data,
      totals: formatTotals(sum),
    }
    Object.assign(enrichment.assets, answer.enrichment.assets)
    Object.assign(enrichment.contracts, answer.enrichment.contracts)
    return sum
  })
  // The head and pin are the same for every section; the served ledger is the newest section's.
  const first = answers[0]!.meta
  const served = answers.flatMap((a) => (a.meta.as_of_ledger === null ? [] : [a.meta.as_of_ledger]))
  const sources = [...new Set(answers.flatMap((a) => a.meta.sources))]
  const meta: PositionsMeta = {
    ...first,
    as_of_ledger: served.length === 0 ? null : Math.max(...served),
    oracle_staleness_seconds: Math.max(...answers.map((a) => a.meta.oracle_staleness_seconds)),
    partial_result: answers.some((a) => a.meta.partial_result),
    sources,
  }
  return {
    data: { address: query.address, protocols, totals: formatTotals(addTotals(totals)) },
    enrichment,
    meta,
  }
}
