/**
 * What the organization pages ask the API, through the typed client with the signed-in person's
 * access token. Each loader's cache key starts with the prefix the pages forget after a change.
 */
import type { components } from '@strata/client'
import { manage, unwrap } from './api.ts'

export type Organization = components['schemas']['Organization']
export type ApiKeyRecord = components['schemas']['ApiKeyRecord']
export type KeyCreationResult = components['schemas']['KeyCreationResult']
export type AuditEvent = components['schemas']['AuditEvent']
export type Plan = Organization['plan']

/** The plans in order: an organization may choose any plan up to its `max_plan`. */
export const PLANS: Plan[] = ['free', 'pro', 'enterprise']

export function plansUpTo(max: Plan): Plan[] {
  return PLANS.slice(0, PLANS.indexOf(max) + 1)
}

/** `GET /v1/org/usage`: the quota's current window, today, and the last 30 UTC days. */
export type OrganizationUsage = components['schemas']['OrganizationUsage']

export const loadOrganization = () => unwrap(manage.GET('/v1/org'))

export const loadUsage = () => unwrap(manage.GET('/v1/org/usage'))

export const loadKeys = () => unwrap(manage.GET('/v1/org/api-keys'))

export const loadAuditLog = (
  limit: number,
  cursor: string | undefined,
  filter: { action?: AuditEvent['action']; since?: string; until?: string } = {},
) =>
  unwrap(
    manage.GET('/v1/org/audit-log', {
      params: { query: { limit, ...filter, ...(cursor ? { cursor } : {}) } },
    }),
  )

/**
 * How many keys the API counts as active for "the last active key": neither revoked nor expired,
 * and not rotated out (a rotation gives the old key an expiry and creates a newer key of the same
 * name; the API does not count an old key in its overlap). The list has no rotation field, so this
 * reads it from names and times; when it is wrong the API's refusal says so in words.
 */
export function activeKeyCount(keys: ApiKeyRecord[], now: number): number {
  return keys.filter((key) => {
    if (!keyState(key, now).active) return false
    const rotatedOut =
      key.expires_at !== null &&
      keys.some(
        (other) => other.id !== key.id && other.name === key.name && other.created_at > key.created_at,
      )
    return !rotatedOut
  }).length
}

/** A key's state as a person reads it, from the list's fields at `now`. */
export function keyState(key: ApiKeyRecord, now: number): { label: string; active: boolean } {
  if (key.revoked) return { label: 'Revoked', active: false }
  if (key.expires_at && Date.parse(key.expires_at) <= now) return { label: 'Expired', active: false }
  if (key.expires_at) return { label: 'Active', active: true }
  return { label: 'Active', active: true }
}
