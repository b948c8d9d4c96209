import { Type } from 'typebox'
import type { Plan } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { changePlan } from '../../org/plans.ts'
import { utcDay } from '../../org/usage.ts'
import { named } from '../../protocols/kit/response-schema.ts'
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

/** Days of `GET /v1/org/usage`, today included. */
export const USAGE_DAYS = 30
const DAY_MS = 86_400_000

const UsageDay = named(
  'UsageDay',
  Type.Object({
    date: Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD' }),
    requests: Type.Integer({
      description: "Requests of the organization's API keys counted against its quota that day",
    }),
  }),
)

const UsageSchema = Type.Object(
  {
    plan: PlanSchema,
    rate_limit: Type.Object({
      limit: Type.Integer({
        description:
          "Requests per window, shared by every key of the organization (when `local`, this instance's share of it)",
      }),
      window_seconds: Type.Integer(),
      used: Type.Integer({
        description:
          'Requests counted in the current window, refused ones included (so it may exceed `limit`)',
      }),
      remaining: Type.Integer({ description: 'limit − used, at least 0' }),
      resets_at: {
        ...Timestamp,
        description: 'When the current window ends (windows are aligned to the epoch)',
      },
      local: Type.Boolean({
        description:
          "true when Redis is configured but did not answer: `used` is this instance's count alone and `limit` its share of the quota (what `Strata-RateLimit-Scope: local` says on a data answer)",
      }),
    }),
    today: UsageDay,
    days: Type.Array(UsageDay, {
      description: `The last ${USAGE_DAYS} UTC days, oldest first, today last; a day without requests is 0`,
    }),
  },
  { title: 'OrganizationUsage' },
)

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

  app.get(
    '/v1/org/usage',
    {
      config: { auth: 'bearer' },
      schema: {
        summary: "Get the organization's usage",
        description: `The organization's quota and how much of it its API keys have used: the requests counted in the current rate-limit window (every key of the organization shares it), and the requests of each of the last ${USAGE_DAYS} UTC days. A request counts when the quota counts it: every data request made with one of its keys, including one refused with 429 because the quota was spent. Reading this answer counts nothing. The day counts include this instance's requests at once and other instances' within \`LAST_USED_FLUSH_MS\` (about a second).`,
        tags: ['Organization'],
        security: [{ bearer: [] }],
        response: {
          200: UsageSchema,
          ...errorResponses('unauthorized'),
        },
      },
    },
    async (request) => {
      const org = await requireOrganization(requireBearer(request).organizationId)
      const now = ctx.clock.now()
      const windowS = ctx.config.rateLimitWindowS
      const windowMs = windowS * 1000
      const quota = ctx.quotaFor(org.plan)
      const today = utcDay(now)
      const from = utcDay(now - (USAGE_DAYS - 1) * DAY_MS)
      const [count, daily] = await Promise.all([
        ctx.rateLimiter.peek(`org:${org.id}`, windowS),
        ctx.orgUsage.daily(org.id, from, today),
      ])
      // While Redis cannot count, this instance decides against its share of the quota.
      const limit = count.fallback ? Math.max(1, Math.ceil(quota / ctx.config.replicas)) : quota
      const days = Array.from({ length: USAGE_DAYS }, (_, i) => {
        const date = utcDay(now - (USAGE_DAYS - 1 - i) * DAY_MS)
        return { date, requests: daily.get(date) ?? 0 }
      })
      return {
        plan: org.plan as Plan,
        rate_limit: {
          limit,
          window_seconds: windowS,
          used: count.count,
          remaining: Math.max(0, limit - count.count),
          resets_at: toRfc3339(Math.floor(now / windowMs) * windowMs + windowMs),
          local: count.fallback,
        },
        today: { date: today, requests: daily.get(today) ?? 0 },
        days,
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
