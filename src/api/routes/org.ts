import { Type } from 'typebox'
import type { Plan } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { changePlan } from '../../org/plans.ts'
import {
  getOrganization,
  type Organization,
  updateOrganizationBillingEmail,
} from '../../store/organizations.ts'
import { normaliseEmail } from '../../store/users.ts'
import type { App } from '../app-type.ts'
import { requireBearer } from '../caller.ts'
import { Email, errorResponses, Timestamp, toRfc3339 } from '../schemas.ts'

const PlanSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise')])
const RateLimitSchema = Type.Object({
  limit: Type.Integer({ description: 'Requests per window, shared by every key of the organization' }),
  window_seconds: Type.Integer(),
})
const MaxPlanSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise')], {
  description:
    'The highest plan the operator allows this organization (`strata set-plan`); it may choose any plan up to it',
})
const BillingSchema = Type.Object({
  plan: PlanSchema,
  max_plan: MaxPlanSchema,
  billing_email: Type.Union([Type.String(), Type.Null()]),
  rate_limit: RateLimitSchema,
})

export function registerOrgRoutes(app: App, ctx: AppContext): void {
  const rateLimitOf = (org: Organization) => ({
    limit: ctx.quotaFor(org.plan),
    window_seconds: ctx.config.rateLimitWindowS,
  })

  const requireOrganization = async (id: string): Promise<Organization> => {
    const org = await getOrganization(ctx.database.db, id)
    // A token outliving its organization is a credential for nothing.
    if (!org) throw new AppError('unauthorized', 'the organization of this token no longer exists')
    return org
  }

  app.get(
    '/v1/org',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: "Get the caller's organization",
        description:
          "The caller's organization: its name and slug, its plan and the highest plan the operator allows it, the quota that plan gives its API keys, and its billing email.",
        tags: ['Organization'],
        security: [{ bearer: [] }],
        response: {
          200: Type.Object(
            {
              id: Type.String(),
              name: Type.String(),
              slug: Type.String(),
              plan: PlanSchema,
              max_plan: MaxPlanSchema,
              rate_limit: RateLimitSchema,
              billing_email: Type.Union([Type.String(), Type.Null()]),
              created_at: Timestamp,
            },
            { title: 'Organization' },
          ),
          ...errorResponses('unauthorized'),
        },
      },
    },
    async (request) => {
      const org = await requireOrganization(requireBearer(request).organizationId)
      return {
        id: org.id,
        name: org.name,
        slug: org.slug,
        plan: org.plan as Plan,
        max_plan: org.max_plan as Plan,
        rate_limit: rateLimitOf(org),
        billing_email: org.billing_email,
        created_at: toRfc3339(org.created_at),
      }
    },
  )

  app.patch(
    '/v1/org/billing',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: 'Update billing',
        description:
          "Changes the plan (the organization's quota changes at once) and/or the billing email. An organization may choose `free` and any plan up to the one the operator allows it (`strata set-plan`); a higher plan is 403 `forbidden`. Plan changes are recorded in the audit log.",
        tags: ['Organization'],
        security: [{ bearer: [] }],
        body: Type.Object(
          { plan: Type.Optional(PlanSchema), billing_email: Type.Optional(Type.Union([Email, Type.Null()])) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: {
          200: BillingSchema,
          ...errorResponses('invalid_request', 'unauthorized', 'forbidden', 'unsupported_media_type'),
        },
      },
    },
    async (request) => {
      const caller = requireBearer(request)
      await requireOrganization(caller.organizationId)
      const { plan, billing_email } = request.body
      const now = ctx.clock.now()
      const org = await ctx.database.db.transaction().execute(async (trx) => {
        if (plan !== undefined) {
          await changePlan(trx, {
            organizationId: caller.organizationId,
            plan,
            by: { kind: 'user', userId: caller.userId },
            clientIp: request.ip,
            now,
          })
        }
        if (billing_email !== undefined) {
          const email = billing_email === null ? null : normaliseEmail(billing_email)
          await updateOrganizationBillingEmail(trx, caller.organizationId, email)
        }
        return getOrganization(trx, caller.organizationId)
      })
      if (!org) throw new AppError('unauthorized', 'the organization of this token no longer exists')
      return {
        plan: org.plan as Plan,
        max_plan: org.max_plan as Plan,
        billing_email: org.billing_email,
        rate_limit: rateLimitOf(org),
      }
    },
  )
}
