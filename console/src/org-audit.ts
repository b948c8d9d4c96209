/**
 * The audit log's view as a URL query, so a view can be shared: `limit` (events per page), the
 * API's own filters `action`, `from` and `to` (UTC days, both included: the API's `since` and
 * `until`), and `cursor` (the page, as the API's `next_cursor` named it for that same filter).
 */
import { formatTime } from './format.ts'
import type { AuditEvent } from './org-api.ts'
import { paths } from './paths.ts'

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
] as const satisfies ReadonlyArray<AuditEvent['action']>

/** Every action the API can answer is offered: a new one fails the type check until it is listed. */
type Unlisted = Exclude<AuditEvent['action'], (typeof AUDIT_ACTIONS)[number]>
const everyActionListed: [Unlisted] extends [never] ? true : Unlisted = true
void everyActionListed

export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 25

export interface AuditView {
  limit: number
  action: AuditEvent['action'] | ''
  /** The first UTC day shown, `YYYY-MM-DD`, or ''. */
  from: string
  /** The last UTC day shown, `YYYY-MM-DD`, or ''. */
  to: string
  cursor: string | undefined
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A `YYYY-MM-DD` that names a real day, else ''. */
function day(value: string | undefined): string {
  if (!value || !DAY.test(value)) return ''
  const time = Date.parse(`${value}T00:00:00Z`)
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? '' : value
}

/** The API's query for a view: `since` the start of `from`, `until` the end of `to` (UTC). */
export function apiFilter(view: AuditView): {
  action?: AuditEvent['action']
  since?: string
  until?: string
} {
  const filter: { action?: AuditEvent['action']; since?: string; until?: string } = {}
  if (view.action) filter.action = view.action
  if (view.from) filter.since = `${view.from}T00:00:00Z`
  if (view.to) filter.until = new Date(Date.parse(`${view.to}T00:00:00Z`) + 86_400_000).toISOString()
  return filter
}

/** Reads the view from the URL's query; an unknown value falls back to the default, never an error. */
export function readView(query: Record<string, string | undefined>): AuditView {
  const limit = Number(query.limit)
  const action = (AUDIT_ACTIONS as readonly string[]).includes(query.action ?? '')
    ? (query.action as AuditEvent['action'])
    : ''
  const from = day(query.from)
  const to = day(query.to)
  return {
    limit: Number.isInteger(limit) && limit >= 1 && limit <= 500 ? limit : DEFAULT_PAGE_SIZE,
    action,
    // A range that ends before it starts is dropped rather than refused by the API.
    from: from && to && to < from ? '' : from,
    to,
    cursor: query.cursor ? query.cursor : undefined,
  }
}

/** The URL of a view; defaults are left out so the plain page stays `/console/audit-log`. */
export function viewUrl(view: AuditView): string {
  const params = new URLSearchParams()
  if (view.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(view.limit))
  if (view.action) params.set('action', view.action)
  if (view.from) params.set('from', view.from)
  if (view.to) params.set('to', view.to)
  if (view.cursor) params.set('cursor', view.cursor)
  const query = params.toString()
  return query ? `${paths.audit}?${query}` : paths.audit
}

/** An event's details as `name: value` pairs in the order the API gave them; times in the reader's locale. */
export function detailPairs(details: AuditEvent['details']): Array<[string, string]> {
  if (!details) return []
  return Object.entries(details).map(([name, value]) => [
    name,
    Array.isArray(value)
      ? value.join(', ')
      : name.endsWith('_at')
        ? formatTime(String(value))
        : String(value),
  ])
}
