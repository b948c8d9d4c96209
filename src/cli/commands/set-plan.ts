import { PLANS, type Plan } from '../../config.ts'
import { changePlan, plansAllowed } from '../../org/plans.ts'
import { getOrganizationBySlug } from '../../store/organizations.ts'
import type { Command } from '../command.ts'
import { openRuntime, stringOption } from '../runtime.ts'

export const setPlanCommand: Command = {
  help: `
Usage: strata set-plan --org <slug> --plan <${PLANS.join('|')}>

Puts the organization on the plan and makes it the highest plan the organization may choose
itself with PATCH /v1/org/billing (it may always move down, to free for instance, and back up
to this plan). This is how a paid plan is granted: users cannot upgrade past what the operator
allows. The change is recorded in the organization's audit log with the actor "admin". The first
line on stderr names the database it writes to (DATABASE_URL): use the server's.`,
  options: { org: { type: 'string' }, plan: { type: 'string' } },
  async run(values) {
    const slug = stringOption(values.org)
    const plan = stringOption(values.plan)
    if (!slug || !plan) {
      process.stderr.write('strata set-plan: --org and --plan are required\n')
      return 1
    }
    if (!(PLANS as readonly string[]).includes(plan)) {
      process.stderr.write(`strata set-plan: --plan must be one of ${PLANS.join(', ')}, got "${plan}"\n`)
      return 1
    }
    const { database } = await openRuntime('set-plan')
    try {
      const org = await getOrganizationBySlug(database.db, slug)
      if (!org) {
        process.stderr.write(`strata set-plan: no organization with slug "${slug}"\n`)
        return 1
      }
      const changed = await database.db.transaction().execute((trx) =>
        changePlan(trx, {
          organizationId: org.id,
          plan: plan as Plan,
          by: { kind: 'admin' },
          clientIp: null,
          now: Date.now(),
        }),
      )
      // Every replica serving from memory applies the new plan before this command says it did.
      await database.committed.settle?.()
      process.stdout.write(
        `${JSON.stringify({
          organization_id: changed.id,
          organization_slug: changed.slug,
          plan: changed.plan,
          plans_allowed: plansAllowed(changed.max_plan),
        })}\n`,
      )
      return 0
    } finally {
      await database.close()
    }
  },
}
