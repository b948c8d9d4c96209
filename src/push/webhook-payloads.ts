import { Type } from 'typebox'
import type { Awaitable } from '../awaitable.ts'
import { valueActions } from '../positions/activity-items.ts'
import { Action } from '../positions/activity-schema.ts'
import type { AnswerCache, SurfaceSerializers } from '../positions/answer-cache.ts'
import { standaloneCompiler, surfaceSerializers } from '../positions/serializers.ts'
import type { PositionsDeps } from '../protocols/kit/protocol-module.ts'
import { named } from '../protocols/kit/response-schema.ts'
import { createActivitiesReader } from '../store/activities.ts'
import type { Database } from '../store/db.ts'
import type { PositionsReader } from '../store/positions-read.ts'
import type { WebhookMessagesTable } from '../store/schema.ts'
import { ACTIVITY_CREATED, POSITION_CHANGED } from '../store/webhook-outbox.ts'
import { readChanges } from './changes-read.ts'
import { renderChanges } from './position-changed.ts'

/**
 * The body of a webhook message, rendered from the store when it is first sent and then kept
 * with the message (so every retry and redelivery sends the same bytes). The store's history is
 * immutable, so the rendering is the one any later read of the same ledger would give: a
 * `position.changed` body is the very `PositionChangedEvent` the stream sends, an
 * `activity.created` body carries the activity as `/v1/users/{address}/activities` answers it.
 */

/** The `activity.created` payload, as the OpenAPI document names and describes it. */
export const ActivityCreatedEvent = named(
  'ActivityCreatedEvent',
  Type.Object({
    type: Type.Literal(ACTIVITY_CREATED, { description: 'The kind of event', examples: [ACTIVITY_CREATED] }),
    address: Type.String({
      description: 'The watched account whose activity it is (G... or C...)',
      examples: ['GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD'],
    }),
    protocol: Type.String({ description: 'The protocol of the activity', examples: ['lendingprotocol'] }),
    ledger: Type.Integer({ description: 'The ledger of the activity', examples: [3055] }),
    item: Type.Union([Action], {
      description: 'The activity exactly as `GET /v1/users/{address}/activities` answers it',
    }),
  }),
)

/** What rendering a message reads. */
export interface PayloadSources {
  database: Database
  reader: PositionsReader
  answers: AnswerCache
  /** The dependencies of a data answer (network description, price age, time, activities reader). */
  deps: () => Awaitable<PositionsDeps>
}

export type MessageSource = Pick<WebhookMessagesTable, 'type' | 'ledger' | 'address' | 'protocol' | 'ref'>

/**
 * A renderer of message bodies. Returns null when the message's source is not in the store (a
 * store re-indexed from a later ledger): such a message cannot be rendered, ever.
 */
export function createPayloadRenderer(
  sources: PayloadSources,
): (message: MessageSource) => Promise<string | null> {
  let serializers: SurfaceSerializers | undefined
  let activity: ((value: unknown) => string) | undefined
  const activities = createActivitiesReader(sources.database)

  const positionChanged = async (m: MessageSource): Promise<string | null> => {
    const ledger = Number(m.ledger)
    const rows = await readChanges(sources.database, [m.address], [m.protocol], ledger - 1, ledger, 2)
    const row = rows.find((r) => r.ledger === ledger)
    if (row === undefined) return null
    serializers ??= surfaceSerializers(standaloneCompiler())
    const head = await sources.reader.head()
    const deps = await sources.deps()
    const [rendered] = await renderChanges([row], deps, head, sources.answers, serializers)
    return rendered?.json ?? null
  }

  const activityCreated = async (m: MessageSource): Promise<string | null> => {
    const match = /^(\d+):(\d+)$/.exec(m.ref ?? '')
    if (match === null) return null
    const key = {
      ledger: Number(m.ledger),
      tx_order: Number(match[1]),
      event_index: Number(match[2]),
      protocol: m.protocol,
    }
    const rows = await activities.activitiesByKeys([key])
    if (rows.length === 0) return null
    const deps = await sources.deps()
    const [item] = await valueActions(deps, deps.network, rows, activities)
    if (item === undefined) return null
    activity ??= standaloneCompiler()(Action)
    return `{"type":"${ACTIVITY_CREATED}","address":${JSON.stringify(m.address)},"protocol":${JSON.stringify(
      m.protocol,
    )},"ledger":${key.ledger},"item":${activity(item)}}`
  }

  return (message) => {
    if (message.type === POSITION_CHANGED) return positionChanged(message)
    if (message.type === ACTIVITY_CREATED) return activityCreated(message)
    // Any other event (health_factor.below) has its body written with it, in `payload`, which the
    // dispatcher sends as it is: there is nothing to render.
    return Promise.resolve(null)
  }
}
