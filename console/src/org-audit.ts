/**
 * The audit log's view as a URL query, so a view can be shared: `limit` (events per page, as the
 * API pages them), `action` (shows only that action among the page's events) and `cursor` (the
 * page, as the API's `next_cursor` named it).
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

export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 25

export interface AuditView {
  limit: number
  action: AuditEvent['action'] | ''
  cursor: string | undefined
}

/** Reads the view from the URL's query; an unknown value falls back to the default, never an error. */
export function readView(query: Record<string, string | undefined>): AuditView {
  const limit = Number(query.limit)
  const action = (AUDIT_ACTIONS as readonly string[]).includes(query.action ?? '')
    ? (query.action as AuditEvent['action'])
    : ''
  return {
    limit: Number.isInteger(limit) && limit >= 1 && limit <= 500 ? limit : DEFAULT_PAGE_SIZE,
    action,
    cursor: query.cursor ? query.cursor : undefined,
  }
}

/** The URL of a view; defaults are left out so the plain page stays `/console/audit-log`. */
export function viewUrl(view: AuditView): string {
  const params = new URLSearchParams()
  if (view.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(view.limit))
  if (view.action) params.set('action', view.action)
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
