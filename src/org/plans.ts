import type { Kysely } from 'kysely'
import { PLANS, type Plan } from '../config.ts'
import { AppError } from '../errors.ts'
import { insertAuditEvent } from '../store/audit-log.ts'
import { getOrganization, type Organization, setOrganizationPlan } from '../store/organizations.ts'
import type { Schema } from '../store/schema.ts'

/**
 * The most active keys (not revoked, not expired) an organization may create for itself, by plan.
 * The operator's endpoint and CLI and a rotation are not held to it: an operator decides, and a
 * rotation replaces a key (its overlap ends by itself).
 */
export const PLAN_KEY_LIMIT: Record<Plan, number> = { free: 5, pro: 25, enterprise: 100 }

/** The key limit of a stored plan name; an unknown plan gets the free plan's. */
export function keyLimitOf(plan: string): number {
  return PLAN_KEY_LIMIT[plan as Plan] ?? PLAN_KEY_LIMIT.free
}

/** The most webhook subscriptions an organization may hold, by plan. */
export const PLAN_WEBHOOK_LIMIT: Record<Plan, number> = { free: 2, pro: 20, enterprise: 100 }

/** The most addresses one webhook subscription may watch, by plan. */
export const PLAN_WEBHOOK_ADDRESS_LIMIT: Record<Plan, number> = { free: 100, pro: 1_000, enterprise: 10_000 }

/** The subscription limit of a stored plan name; an unknown plan gets the free plan's. */
export function webhookLimitOf(plan: string): number {
  return PLAN_WEBHOOK_LIMIT[plan as Plan] ?? PLAN_WEBHOOK_LIMIT.free
}

/** The per-subscription address limit of a stored plan name; an unknown plan gets the free plan's. */
export function webhookAddressLimitOf(plan: string): number {
  return PLAN_WEBHOOK_ADDRESS_LIMIT[plan as Plan] ?? PLAN_WEBHOOK_ADDRESS_LIMIT.free
}

/** The plans an organization may choose itself: every plan up to the one the operator allows. */
export function plansAllowed(maxPlan: string): Plan[] {
  const ceiling = PLANS.indexOf(maxPlan as Plan)
  return PLANS.slice(0, Math.max(0, ceiling) + 1)
}

export interface ChangePlanInput {
  organizationId: string
  plan: Plan
  /**
   * `user`: a member of the organization, who may choose any plan up to `max_plan` (so `free`
   * always). `admin`: the operator, who sets the plan and raises or lowers `max_plan` to it.
   */
  by: { kind: 'user'; userId: string } | { kind: 'admin' }
  clientIp: string | null
  now: number
}

/**
 * Changes an organization's plan inside the caller's transaction and records
 * `organization.plan_changed` when anything changed. A user asking for more than the operator
 * allows is 403 `forbidden`. Returns the organization as it is afterwards.
 */
export async function changePlan(trx: Kysely<Schema>, input: ChangePlanInput): Promise<Organization> {
  // A concurrent change makes the conditional update miss; read again and retry.
  for (let attempt = 0; attempt < 5; attempt++) {
    const org = await getOrganization(trx, input.organizationId)
    if (!org) throw new AppError('not_found', `organization ${input.organizationId} not found`)
    const maxPlan = input.by.kind === 'admin' ? input.plan : org.max_plan
    if (input.by.kind === 'user' && !plansAllowed(maxPlan).includes(input.plan)) {
      const allowed = plansAllowed(maxPlan).join(', ')
      throw new AppError(
        'forbidden',
        `the ${input.plan} plan is granted by the operator; this organization may choose: ${allowed}`,
        { details: [{ field: 'plan', message: `plan must be one of ${allowed} for this organization` }] },
      )
    }
    if (org.plan === input.plan && org.max_plan === maxPlan) return org
    if (!(await setOrganizationPlan(trx, org, { plan: input.plan, max_plan: maxPlan }))) continue
    await insertAuditEvent(trx, {
      organizationId: org.id,
      at: input.now,
      action: 'organization.plan_changed',
      actor: input.by.kind === 'admin' ? 'admin' : input.by.userId,
      target: org.id,
      clientIp: input.clientIp,
      details: { from: org.plan, to: input.plan, max_plan: maxPlan },
    })
    return { ...org, plan: input.plan, max_plan: maxPlan }
  }
  throw new AppError('conflict', 'the plan was being changed by another request; try again')
}
