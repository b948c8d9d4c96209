import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, grantPlan, type TestApp } from '../support/app.ts'
import { bearer, type SignedUp, signUp } from '../support/factories.ts'

const QUOTA = 7

describe('who may change the plan', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(QUOTA) })
  })
  afterAll(async () => t.close())

  const patch = (user: SignedUp, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: '/v1/org/billing',
      headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
      payload,
    })
  const planOf = async (user: SignedUp) =>
    (await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })).json().plan
  const planEvents = async (user: SignedUp) =>
    (await t.app.inject({ method: 'GET', url: '/v1/org/audit-log', headers: bearer(user.access_token) }))
      .json()
      .data.filter((e: { action: string }) => e.action === 'organization.plan_changed')
      .map((e: { actor: string; details: Record<string, string> }) => ({ actor: e.actor, ...e.details }))

  it('refuses a self-service upgrade to a paid plan with 403 forbidden, changing nothing', async () => {
    const user = await signUp(t.app)
    for (const plan of ['pro', 'enterprise']) {
      const response = await patch(user, { plan, billing_email: 'new@example.com' })
      expect(response.statusCode, plan).toBe(403)
      expect(response.json().error.code).toBe('forbidden')
      expect(response.json().error.message).toBe(
        `the ${plan} plan is granted by the operator; this organization may choose: free`,
      )
      expect(response.json().error.details).toEqual([
        { field: 'plan', message: 'plan must be one of free for this organization' },
      ])
    }
    // The billing email in the same request was not applied either: one transaction.
    const org = (
      await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })
    ).json()
    expect(org).toMatchObject({
      plan: 'free',
      max_plan: 'free',
      billing_email: user.email,
      rate_limit: { limit: QUOTA },
    })
    expect(await planEvents(user)).toEqual([])
  })

  it('lets the organization move among the plans the operator allows, recording each change', async () => {
    const user = await signUp(t.app)
    await grantPlan(t, user.organization_id, 'enterprise')
    expect(await planOf(user)).toBe('enterprise')
    const down = await patch(user, { plan: 'pro' })
    expect(down.statusCode).toBe(200)
    expect(down.json().rate_limit).toEqual({ limit: QUOTA * 10, window_seconds: 60 })
    // The allowance is shown, so a client can offer only the plans it may choose.
    expect(down.json()).toMatchObject({ plan: 'pro', max_plan: 'enterprise' })
    expect((await patch(user, { plan: 'free' })).statusCode).toBe(200)
    expect((await patch(user, { plan: 'enterprise' })).statusCode).toBe(200)
    // Choosing the plan it is on changes nothing and records nothing.
    expect((await patch(user, { plan: 'enterprise' })).statusCode).toBe(200)
    // The operator lowers the allowance: the organization can no longer go back up.
    await grantPlan(t, user.organization_id, 'pro')
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })).json(),
    ).toMatchObject({ plan: 'pro', max_plan: 'pro' })
    const refused = await patch(user, { plan: 'enterprise' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toContain('may choose: free, pro')
    expect(await planEvents(user)).toEqual([
      { actor: 'admin', from: 'enterprise', to: 'pro', max_plan: 'pro' },
      { actor: user.user_id, from: 'free', to: 'enterprise', max_plan: 'enterprise' },
      { actor: user.user_id, from: 'pro', to: 'free', max_plan: 'enterprise' },
      { actor: user.user_id, from: 'enterprise', to: 'pro', max_plan: 'enterprise' },
      { actor: 'admin', from: 'free', to: 'enterprise', max_plan: 'enterprise' },
    ])
  })

  it('still lets any organization change only its billing email', async () => {
    const user = await signUp(t.app)
    const response = await patch(user, { billing_email: 'Accounts@Example.com' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      plan: 'free',
      max_plan: 'free',
      billing_email: 'accounts@example.com',
      rate_limit: { limit: QUOTA, window_seconds: 60 },
    })
    expect((await patch(user, { plan: 'free' })).statusCode).toBe(200)
    expect(await planEvents(user)).toEqual([])
  })
})
