import { Type } from 'typebox'
import type { AnswerCache, SurfaceSerializers } from '../positions/answer-cache.ts'
import { historyItemJson } from '../positions/answer-json.ts'
import { historyItem } from '../positions/surface-answer.ts'
import type { PositionsDeps, ProtocolModule } from '../protocols/kit/protocol-module.ts'
import { buildHistorySchema, named } from '../protocols/kit/response-schema.ts'
import { PROTOCOLS } from '../protocols/registry.ts'
import type { IndexerHead } from '../store/positions-read.ts'
import { POSITION_CHANGED } from '../store/webhook-outbox.ts'
import type { ChangedSnapshot } from './changes-read.ts'

/**
 * The `position.changed` event, written once for every way it is delivered (the Server-Sent
 * Events stream now, webhooks later): an account's positions in one protocol changed at a ledger.
 * Its `item` is the very history item `GET /v1/users/{address}/positions/{protocol}/history`
 * answers for that snapshot (the same rendering, the same bytes), so a subscriber and a poller
 * read one shape.
 */

/** The event's type, as the payload names it (the outbox writes it too). */
export { POSITION_CHANGED }

/** The schema of a history item of each registered protocol (what `item` may be). */
function historyItemSchemas() {
  return PROTOCOLS.map((module) => {
    const page = buildHistorySchema(module.positions.dataSchema)
    return page.properties.data.properties.snapshots.items
  })
}

/** The `position.changed` payload, as the OpenAPI document names and describes it. */
export const PositionChangedEvent = named(
  'PositionChangedEvent',
  Type.Object({
    type: Type.Literal(POSITION_CHANGED, { description: 'The kind of event', examples: [POSITION_CHANGED] }),
    address: Type.String({
      description: 'The account whose positions changed (G... or C...)',
      examples: ['GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD'],
    }),
    protocol: Type.String({ description: 'The protocol they changed in', examples: ['vaultprotocol'] }),
    ledger: Type.Integer({ description: "The ledger they changed at: the new snapshot's", examples: [3055] }),
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Close time of that ledger, RFC 3339 in UTC; null when the store lacks it',
      examples: ['2026-01-01T02:51:15.000Z'],
    }),
    previous_ledger: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "The ledger of this account's previous snapshot in this protocol; null when this is its first",
      examples: [3001],
    }),
    item: Type.Union(historyItemSchemas(), {
      description:
        "The new snapshot exactly as the protocol's `/history` answers it (one item of `data.snapshots`)",
    }),
  }),
)

/** One event ready to write: its ledger and its payload's JSON. */
export interface RenderedChange {
  ledger: number
  protocol: string
  address: string
  json: string
}

const BY_NAME = new Map(PROTOCOLS.map((module) => [module.name, module]))

/** The registered protocol of a name, or undefined. */
export function protocolNamed(name: string): ProtocolModule | undefined {
  return BY_NAME.get(name)
}

/**
 * The events of changed snapshots, in their order: each rendered as its history item (through the
 * answer cache, so a snapshot a history page rendered is not rendered again, and the reverse).
 * `head` is the checkpoint they were read under (the cache's epoch depends on it).
 */
export async function renderChanges(
  changes: readonly ChangedSnapshot[],
  deps: PositionsDeps,
  head: IndexerHead,
  cache: AnswerCache,
  serializers: SurfaceSerializers,
): Promise<RenderedChange[]> {
  const { network } = deps
  if (network === null) return []
  const epoch = cache.observe(head, network, deps.maxPriceAgeS)
  const out: RenderedChange[] = []
  for (const change of changes) {
    const module = BY_NAME.get(change.protocol)
    if (module === undefined) continue
    const item = await historyItem(module, deps, network, change.address, change, cache, epoch, serializers)
    const json = `{"type":"${POSITION_CHANGED}","address":${JSON.stringify(change.address)},"protocol":${JSON.stringify(
      change.protocol,
    )},"ledger":${change.ledger},"closed_at":${
      item.closedAt === null ? 'null' : `"${item.closedAt}"`
    },"previous_ledger":${change.previous_ledger === null ? 'null' : change.previous_ledger},"item":${historyItemJson(item)}}`
    out.push({ ledger: change.ledger, protocol: change.protocol, address: change.address, json })
  }
  return out
}
