/**
 * The organization: who it is and its plan (changed within the highest plan the operator allows,
 * after a confirmation), and its usage against the quota.
 */
import '../org.css'
import { useState } from 'preact/hooks'
import { type ApiError, manage, unwrap } from '../api.ts'
import { RequireSession } from '../app.tsx'
import { ConfirmDialog } from '../components/org-dialog.tsx'
import { UsagePanel } from '../components/org-usage.tsx'
import { ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { formatInteger, formatTime } from '../format.ts'
import { loadOrganization, loadUsage, type Organization, type Plan, plansUpTo } from '../org-api.ts'
import { forget, useQuery } from '../query.ts'

export function OrganizationPage() {
  return (
    <RequireSession>
      <OrganizationView />
    </RequireSession>
  )
}

function OrganizationView() {
  const org = useQuery('org', loadOrganization)
  const usage = useQuery('org-usage', loadUsage)
  return (
    <>
      <PageTitle title="Organization">
        Your organization, its plan and how much of its quota it uses.
      </PageTitle>
      {org.error && <ErrorNote error={org.error} title="Could not load the organization" />}
      {!org.data && !org.error && <Placeholder lines={6} label="Loading the organization" />}
      {org.data && (
        <>
          <Details org={org.data} />
          <PlanChange
            org={org.data}
            onChanged={() => {
              forget('org')
              org.reload()
              usage.reload()
            }}
          />
        </>
      )}
      <UsagePanel usage={usage.data} error={usage.error} loading={usage.loading} onRefresh={usage.reload} />
    </>
  )
}

function Details({ org }: { org: Organization }) {
  return (
    <dl class="cards org-details">
      <div class="card">
        <dt class="label">Name</dt>
        <dd class="value" data-testid="org-name">
          {org.name}
        </dd>
      </div>
      <div class="card">
        <dt class="label">Slug</dt>
        <dd class="value">
          <code data-testid="org-slug">{org.slug}</code>
        </dd>
      </div>
      <div class="card">
        <dt class="label">Plan</dt>
        <dd class="value" data-testid="org-plan">
          {org.plan}
        </dd>
        <dd class="help">
          {formatInteger(org.rate_limit.limit)} requests per {formatInteger(org.rate_limit.window_seconds)} s,
          shared by every key
        </dd>
      </div>
      <div class="card">
        <dt class="label">Highest plan allowed</dt>
        <dd class="value" data-testid="org-max-plan">
          {org.max_plan}
        </dd>
      </div>
      <div class="card">
        <dt class="label">Billing email</dt>
        <dd class="value org-small" data-testid="org-billing-email">
          {org.billing_email ?? 'None set'}
        </dd>
      </div>
      <div class="card">
        <dt class="label">Created</dt>
        <dd class="value org-small">
          <time dateTime={org.created_at} title={org.created_at}>
            {formatTime(org.created_at)}
          </time>
        </dd>
      </div>
    </dl>
  )
}

function PlanChange({ org, onChanged }: { org: Organization; onChanged: () => void }) {
  const choices = plansUpTo(org.max_plan)
  const [chosen, setChosen] = useState<Plan>(org.plan)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const change = async () => {
    setBusy(true)
    setError(null)
    try {
      const answer = await unwrap(manage.PATCH('/v1/org/billing', { body: { plan: chosen } }))
      setDone(
        `The plan is now ${answer.plan}: ${formatInteger(answer.rate_limit.limit)} requests per ${formatInteger(answer.rate_limit.window_seconds)} s.`,
      )
      setConfirming(false)
      onChanged()
    } catch (failure) {
      setError(failure as ApiError)
      setConfirming(false)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      {error && <ErrorNote error={error} title="Could not change the plan" />}
      {done && (
        <p class="note" role="status">
          {done}
        </p>
      )}
      {choices.length < 2 ? (
        <p class="help">
          The operator allows this organization the {org.max_plan} plan at most, so there is no other plan to
          choose. A higher plan is set by the operator.
        </p>
      ) : (
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault()
            setDone(null)
            setConfirming(true)
          }}
        >
          <div class="field org-inline">
            <label for="plan">New plan</label>
            <select
              id="plan"
              value={chosen}
              onChange={(event) => setChosen((event.target as HTMLSelectElement).value as Plan)}
            >
              {choices.map((plan) => (
                <option key={plan} value={plan}>
                  {plan}
                  {plan === org.plan ? ' (current)' : ''}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={chosen === org.plan}>
            Change plan
          </button>
        </form>
      )}
      <ConfirmDialog
        id="plan-confirm"
        title={`Change the plan to ${chosen}?`}
        open={confirming}
        onCancel={() => setConfirming(false)}
      >
        <p>
          {org.name} moves from {org.plan} to {chosen}. The quota of every key changes at once, and the change
          is recorded in the audit log.
        </p>
        <div class="row">
          <button type="button" onClick={change} disabled={busy}>
            {busy ? 'Changing…' : `Change to ${chosen}`}
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      </ConfirmDialog>
    </section>
  )
}
