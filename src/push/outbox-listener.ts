import type pg from 'pg'
import type { Logger } from '../logger.ts'
import { WEBHOOK_CHANNEL } from '../store/webhook-outbox.ts'

/**
 * On PostgreSQL, a LISTEN on the outbox's channel: the indexer's batch transaction NOTIFYs it when
 * it wrote messages, and PostgreSQL delivers the notification at the commit, to every listening
 * process. One pooled connection is held for it; when it breaks, the listener connects again
 * (after 1 s, then up to 30 s apart) and wakes the dispatcher once, for anything committed while
 * it was away.
 */
export interface OutboxListener {
  close(): Promise<void>
}

export function listenForOutbox(pool: pg.Pool, onNotify: () => void, logger: Logger): OutboxListener {
  let closed = false
  let client: pg.PoolClient | null = null
  let retryMs = 1000
  let timer: NodeJS.Timeout | null = null

  const connect = async () => {
    if (closed) return
    try {
      const connected = await pool.connect()
      if (closed) {
        connected.release()
        return
      }
      client = connected
      connected.on('notification', (message) => {
        if (message.channel === WEBHOOK_CHANNEL) onNotify()
      })
      connected.on('error', (error) => {
        logger.warn({ err: error }, 'webhooks: the LISTEN connection broke; connecting again')
        connected.release(error)
        if (client === connected) client = null
        retry()
      })
      await connected.query(`LISTEN ${WEBHOOK_CHANNEL}`)
      retryMs = 1000
      onNotify()
    } catch (error) {
      logger.warn({ err: error }, 'webhooks: cannot LISTEN for new messages; retrying')
      retry()
    }
  }
  const retry = () => {
    if (closed || timer !== null) return
    timer = setTimeout(() => {
      timer = null
      void connect()
    }, retryMs)
    timer.unref()
    retryMs = Math.min(retryMs * 2, 30_000)
  }
  void connect()

  return {
    async close() {
      closed = true
      if (timer !== null) clearTimeout(timer)
      const held = client
      client = null
      if (held === null) return
      await held.query(`UNLISTEN ${WEBHOOK_CHANNEL}`).catch(() => {})
      held.release()
    },
  }
}
