import { Type } from 'typebox'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import type { WebhookDispatcher } from '../../push/webhook-dispatcher.ts'
import { getWebhook } from '../../store/webhooks.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import { errorResponses } from '../schemas.ts'
import { deliveryAnswer, WebhookDelivery, WebhookIdParam } from '../webhook-schemas.ts'

/** `{delivery_id}`: a delivery's id as the deliveries list shows it. */
const DeliveryIdParam = Type.String({
  pattern: '^msg_[0-9]{1,15}$',
  description:
    'The delivery id (`msg_<n>`, the `webhook-id` header it is sent with), as the deliveries list shows it',
  examples: ['msg_42'],
})

/**
 * `POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver`: sends one message again now, with
 * its first `webhook-id` and body, whatever its state, and answers the delivery as it is after
 * the attempt (the request waits for the receiver, at most the delivery timeout).
 */
export function registerWebhookRedelivery(app: App, ctx: AppContext, dispatcher: WebhookDispatcher): void {
  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: { auth: 'bearer' },
      schema: {
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send one delivery again',
        description:
          'Sends the message now, with its first `webhook-id` and the same body, whether it is `pending`, `delivered` or `failed`, and answers the delivery after the attempt (`attempts`, `last_status`, `last_error`; `status` becomes `delivered` on a 2xx). It does not wait for the subscription’s retry schedule and works on a disabled subscription too, so a receiver can be tested before the subscription is enabled again. A pending message delivered this way releases the messages queued behind it. The request lasts as long as the receiver takes, at most the delivery timeout. See docs/webhooks.md.',
        tags: ['Webhooks'],
        security: [{ bearer: [] }],
        params: Type.Object({ id: WebhookIdParam, delivery_id: DeliveryIdParam }),
        response: {
          200: WebhookDelivery,
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      const { id, delivery_id: deliveryId } = request.params as { id: string; delivery_id: string }
      if (!(await getWebhook(ctx.database.db, caller.organizationId, id)))
        throw new AppError('not_found', `webhook ${id} not found`)
      const row = await dispatcher.redeliver(id, Number(deliveryId.slice('msg_'.length)))
      if (row === null)
        throw new AppError('not_found', `delivery ${deliveryId} not found among this webhook's deliveries`)
      return deliveryAnswer(row)
    },
  )
}
