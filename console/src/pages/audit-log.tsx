/**
 * The organization's audit log, newest first, a page at a time with the API's cursor, filtered by
 * the API (an action, a range of UTC days). The view lives in the URL, so it can be shared and
 * survives a reload.
 */
import '../org.css'
import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { RequireSession } from '../app.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { formatInteger, formatTime } from '../format.ts'
import { type AuditEvent, loadAuditLog } from '../org-api.ts'
import {
  AUDIT_ACTIONS,
  type AuditView,
  apiFilter,
  detailPairs,
  PAGE_SIZES,
  readView,
  viewUrl,
} from '../org-audit.ts'
import { useQuery } from '../query.ts'

export function AuditLogPage() {
  return (
    <RequireSession>
      <AuditLog />
    </RequireSession>
  )
}

function AuditLog() {
  const { query, route } = useLocation()
  const view = readView(query)
  const filter = apiFilter(view)
  const log = useQuery(`audit:${view.limit}:${JSON.stringify(filter)}:${view.cursor ?? ''}`, () =>
    loadAuditLog(view.limit, view.cursor, filter),
  )
  const events = log.data?.data ?? []
  const filtered = Boolean(view.action || view.from || view.to)
  const nextCursor = log.data?.meta.next_cursor ?? null
  return (
    <>
      <PageTitle title="Audit log">
        Security events of the organization, newest first: sign-ups and logins, keys, plan changes, webhooks.
      </PageTitle>
      <Filters view={view} onApply={(next) => route(viewUrl(next))} />
      {log.error && <ErrorNote error={log.error} title="Could not load the audit log" />}
      {!log.data && !log.error && (
        <Placeholder lines={Math.min(view.limit, 10) + 1} label="Loading the audit log" />
      )}
      {log.data && (
        <>
          <p class="help" role="status" data-testid="audit-summary">
            {`${formatInteger(events.length)} ${filtered ? 'matching ' : ''}events on this page.`}
            {view.cursor ? ' This is a later page.' : ''}
          </p>
          {events.length === 0 ? (
            <Empty>
              {filtered
                ? 'No event of the organization matches this filter.'
                : 'No events here: the organization has none on this page.'}
            </Empty>
          ) : (
            <EventTable events={events} />
          )}
          <nav class="pager" aria-label="Audit log pages">
            {view.cursor ? (
              <a href={viewUrl({ ...view, cursor: undefined })}>First page</a>
            ) : (
              <span>First page</span>
            )}
            {nextCursor ? (
              <a href={viewUrl({ ...view, cursor: nextCursor })} rel="next">
                Next page
              </a>
            ) : (
              <span>No later events</span>
            )}
          </nav>
        </>
      )}
    </>
  )
}

function Filters({ view, onApply }: { view: AuditView; onApply: (view: AuditView) => void }) {
  const [limit, setLimit] = useState(view.limit)
  const [action, setAction] = useState(view.action)
  const [from, setFrom] = useState(view.from)
  const [to, setTo] = useState(view.to)
  // Back, forward and links change the view: the form follows the URL.
  useEffect(() => {
    setLimit(view.limit)
    setAction(view.action)
    setFrom(view.from)
    setTo(view.to)
  }, [view.limit, view.action, view.from, view.to])
  return (
    <form
      class="row org-filters"
      aria-label="Filter the audit log"
      onSubmit={(event) => {
        event.preventDefault()
        onApply({ limit, action, from, to, cursor: undefined })
      }}
    >
      <div class="field org-inline">
        <label for="audit-action">Action</label>
        <select
          id="audit-action"
          value={action}
          onChange={(event) => setAction((event.target as HTMLSelectElement).value as AuditView['action'])}
        >
          <option value="">Every action</option>
          {AUDIT_ACTIONS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="field org-inline">
        <label for="audit-from">From (UTC day)</label>
        <input
          id="audit-from"
          type="date"
          value={from}
          max={to || undefined}
          onInput={(event) => setFrom((event.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field org-inline">
        <label for="audit-to">To (UTC day, included)</label>
        <input
          id="audit-to"
          type="date"
          value={to}
          min={from || undefined}
          onInput={(event) => setTo((event.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field org-inline">
        <label for="audit-limit">Events per page</label>
        <select
          id="audit-limit"
          value={String(limit)}
          onChange={(event) => setLimit(Number((event.target as HTMLSelectElement).value))}
        >
          {[...new Set([...PAGE_SIZES, view.limit])]
            .sort((a, b) => a - b)
            .map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
        </select>
      </div>
      <button type="submit">Apply</button>
      <p class="help org-filter-help">Every page of a filtered log holds only matching events.</p>
    </form>
  )
}

function EventTable({ events }: { events: AuditEvent[] }) {
  return (
    <div class="table-wrap">
      <table class="org-table" data-testid="audit-table">
        <caption class="visually-hidden">Audit events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Action</th>
            <th scope="col">Actor</th>
            <th scope="col">Target</th>
            <th scope="col">IP</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id} data-event-id={event.id}>
              <td>
                <time dateTime={event.at} title={event.at}>
                  {formatTime(event.at)}
                </time>
              </td>
              <td>
                <code class="org-nowrap">{event.action}</code>
              </td>
              <td>{event.actor ? <code>{event.actor}</code> : <span class="help">none</span>}</td>
              <td>{event.target ? <code>{event.target}</code> : '—'}</td>
              <td>{event.client_ip ?? '—'}</td>
              <td>
                {detailPairs(event.details).length === 0 ? (
                  '—'
                ) : (
                  <dl class="org-event-details">
                    {detailPairs(event.details).map(([name, value]) => (
                      <div key={name}>
                        <dt>{name}</dt>
                        <dd>{value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
