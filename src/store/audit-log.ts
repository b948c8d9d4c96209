import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Schema } from './schema.ts'

/** Every security event the audit log records. */
export const AUDIT_ACTIONS = [
  'organization.created',
  'organization.plan_changed',
  'user.created',
  'user.login',
  'user.login_failed',
  'user.logout',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.secret_rotated',
  'webhook.deleted',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** Facts of an event, by action; each field is set by the actions it belongs to. */
export interface AuditDetails {
  /** organization.created */
  slug?: string
  /** api_key.created and api_key.rotated: the key's name, prefix and scopes */
  name?: string
  key_prefix?: string
  scopes?: string[]
  /** api_key.rotated: the new key, and when the old one stops working */
  new_key_id?: string
  old_key_expires_at?: string
  /** organization.plan_changed */
  from?: string
  to?: string
  max_plan?: string
  /** webhook.updated: the names of the fields the change set */
  fields?: string[]
  /** webhook.disabled by the dispatcher (actor null): why, and the delivery whose retries were spent */
  reason?: string
  delivery_id?: string
}

/** Who acted: a user id, the operator (`admin`, over HTTP or the CLI), or nobody authenticated. */
export type AuditActor = string | 'admin' | null

export interface AuditEventInput {
  organizationId: string
  at: number
  action: AuditAction
  actor: AuditActor
  target: string | null
  clientIp: string | null
  details?: AuditDetails | null
}

export interface AuditEvent {
  seq: number
  id: string
  at: number
  action: AuditAction
  actor: string | null
  target: string | null
  client_ip: string | null
  details: AuditDetails | null
}

/**
 * Records one event. Callers pass the transaction that makes the change the event records, so
 * the change and its record commit together or not at all.
 */
export async function insertAuditEvent(db: Kysely<Schema>, event: AuditEventInput): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: `evt_${randomBytes(12).toString('base64url')}`,
      organization_id: event.organizationId,
      at: event.at,
      action: event.action,
      actor: event.actor,
      target: event.target,
      client_ip: event.clientIp,
      details: event.details ? JSON.stringify(event.details) : null,
    })
    .execute()
}

/** Which of an organization's events a page lists: one action, and a time range (ms, `since` included, `until` not). */
export interface AuditFilter {
  action: AuditAction | null
  sinceMs: number | null
  untilMs: number | null
}

/**
 * One page of the organization's events, newest first: those written before `beforeSeq`, if given,
 * that the filter admits.
 */
export async function listAuditEvents(
  db: Kysely<Schema>,
  organizationId: string,
  options: { limit: number; beforeSeq: number | null } & Partial<AuditFilter>,
): Promise<AuditEvent[]> {
  let query = db
    .selectFrom('audit_events')
    .select(['seq', 'id', 'at', 'action', 'actor', 'target', 'client_ip', 'details'])
    .where('organization_id', '=', organizationId)
  if (options.action) query = query.where('action', '=', options.action)
  if (options.sinceMs != null) query = query.where('at', '>=', options.sinceMs)
  if (options.untilMs != null) query = query.where('at', '<', options.untilMs)
  if (options.beforeSeq !== null) query = query.where('seq', '<', options.beforeSeq)
  const rows = await query.orderBy('seq', 'desc').limit(options.limit).execute()
  return rows.map((row) => ({
    ...row,
    seq: Number(row.seq),
    action: row.action as AuditAction,
    details: row.details === null ? null : readDetails(row.details),
  }))
}

/**
 * Stored details as the API answers them. Events written before scopes were stored as a list
 * hold them space-joined ("data:read other"): read as the list they are.
 */
function readDetails(stored: string): AuditDetails {
  const details = JSON.parse(stored) as Omit<AuditDetails, 'scopes'> & { scopes?: string[] | string }
  const { scopes } = details
  if (typeof scopes !== 'string') return details as AuditDetails
  return { ...details, scopes: scopes.split(' ').filter((scope) => scope !== '') }
}
