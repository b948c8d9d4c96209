import type { AppContext } from '../context.ts'
import type { CommitSignal } from '../push/commit-signal.ts'
import { createHealthCrossings } from '../push/health-crossings.ts'
import { listenForOutbox } from '../push/outbox-listener.ts'
import { createWebhookDispatcher, leaseMsFor, type WebhookDispatcher } from '../push/webhook-dispatcher.ts'
import { createPayloadRenderer } from '../push/webhook-payloads.ts'
import { openWebhookSecret } from '../push/webhook-secrets.ts'
import { createWebhookAgents, sendWebhook } from '../push/webhook-send.ts'
import { VERSION } from '../version.ts'
import type { App } from './app-type.ts'
import { dataDeps } from './route-helpers.ts'

/** The longest pause between two passes of the dispatcher on SQLite (an indexer in another process cannot wake it). */
const SQLITE_IDLE_MS = 1000
/** On PostgreSQL, every commit with messages NOTIFYs: the pass is a safety net only. */
const POSTGRES_IDLE_MS = 10_000

/**
 * Starts this process's webhook dispatcher (src/push/webhook-dispatcher.ts) and its
 * `health_factor.below` evaluator (src/push/health-crossings.ts) when the app is ready and stops
 * them when the app closes: both woken by the in-process indexer's commits, by PostgreSQL's NOTIFY,
 * and otherwise by their own timers; a range judged with crossings wakes the dispatcher.
 */
export function registerWebhookDelivery(
  app: App,
  ctx: AppContext,
  commits?: CommitSignal,
): WebhookDispatcher {
  const agents = createWebhookAgents()
  const render = createPayloadRenderer({
    database: ctx.database,
    reader: ctx.reader,
    answers: ctx.caches.answers,
    deps: () => dataDeps(ctx),
  })
  const dispatcher = createWebhookDispatcher({
    database: ctx.database,
    logger: ctx.logger.child({ component: 'webhooks' }),
    clock: ctx.clock,
    render,
    secretsOf: (webhook, now) => {
      const secrets = [openWebhookSecret(webhook.secret, ctx.keyPepper)]
      if (webhook.previous_secret !== null && (webhook.previous_secret_until ?? 0) > now)
        secrets.push(openWebhookSecret(webhook.previous_secret, ctx.keyPepper))
      return secrets
    },
    send: (delivery) =>
      sendWebhook(
        delivery,
        {
          timeoutMs: ctx.config.webhookTimeoutMs,
          allowLoopback: ctx.config.webhooksAllowLoopback,
          userAgent: `Strata-Webhooks/${VERSION}`,
        },
        undefined,
        agents,
      ),
    retryScheduleMs: ctx.config.webhookRetryScheduleMs,
    idleMs: ctx.database.kind === 'postgres' ? POSTGRES_IDLE_MS : SQLITE_IDLE_MS,
    leaseMs: leaseMsFor(ctx.config.webhookTimeoutMs),
    deliver: ctx.config.webhookDelivery,
  })
  // health_factor.below is judged after each commit, once across processes
  // (push/health-crossings.ts), by the processes that deliver.
  const delivering = ctx.config.webhookDelivery
  const health = delivering
    ? createHealthCrossings({
        database: ctx.database,
        reader: ctx.reader,
        deps: () => dataDeps(ctx),
        logger: ctx.logger.child({ component: 'webhooks' }),
        clock: ctx.clock,
        idleMs: ctx.database.kind === 'postgres' ? POSTGRES_IDLE_MS : SQLITE_IDLE_MS,
        onMessages: () => dispatcher.wake(),
      })
    : null
  const wake = () => {
    dispatcher.wake()
    health?.wake()
  }
  const unsubscribe = delivering ? commits?.subscribe(wake) : undefined
  const listener =
    delivering && ctx.database.kind === 'postgres'
      ? listenForOutbox(ctx.database.pool, wake, ctx.logger)
      : null
  app.addHook('onClose', async () => {
    unsubscribe?.()
    await listener?.close()
    await health?.close()
    await dispatcher.close()
    agents.close()
  })
  return dispatcher
}
