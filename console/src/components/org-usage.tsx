/**
 * The organization's usage against its quota: requests in the current rate-limit window (a meter,
 * and when the window resets), today's requests, and the last 30 UTC days as a step chart with the
 * same numbers in a table for those who do not read charts.
 */
import { useMemo } from 'preact/hooks'
import type { ApiError } from '../api.ts'
import { formatInteger } from '../format.ts'
import type { OrganizationUsage } from '../org-api.ts'
import { Chart } from './chart.tsx'
import { ErrorNote, Placeholder } from './status.tsx'

function percentOf(used: number, limit: number): number {
  if (limit <= 0) return 100
  return Math.min(100, Math.round((used * 100) / limit))
}

function resetsAt(value: string): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

/** Requests are whole: a fractional tick of the axis is left unlabelled rather than rounded onto a neighbour. */
const requestsAxis = (value: number) => (Number.isInteger(value) ? formatInteger(value) : '')

/** The epoch seconds of a UTC day `YYYY-MM-DD`, for the chart's time axis. */
function daySeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000
}

export function UsagePanel({
  usage,
  error,
  loading,
  onRefresh,
}: {
  usage: OrganizationUsage | undefined
  error: ApiError | undefined
  loading: boolean
  onRefresh: () => void
}) {
  return (
    <section aria-labelledby="usage-title">
      <div class="org-section-head">
        <h2 id="usage-title">Usage against the quota</h2>
        <button type="button" class="secondary" onClick={onRefresh} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh usage'}
        </button>
      </div>
      {error && <ErrorNote error={error} title="Could not load the usage" />}
      {!usage && !error && <Placeholder lines={8} label="Loading the usage" />}
      {usage && <UsageFigures usage={usage} />}
    </section>
  )
}

function UsageFigures({ usage }: { usage: OrganizationUsage }) {
  const { rate_limit: window, today, days } = usage
  const percent = percentOf(window.used, window.limit)
  // The chart redraws when its arrays change: keep them for as long as the days are the same.
  const x = useMemo(() => days.map((day) => daySeconds(day.date)), [days])
  const series = useMemo(() => [{ label: 'Requests', values: days.map((day) => day.requests) }], [days])
  return (
    <>
      <div class="cards">
        <div class="card" data-testid="usage-window">
          <div class="label">Requests this window ({formatInteger(window.window_seconds)} s)</div>
          <div class="value">
            <span data-testid="usage-used">{formatInteger(window.used)}</span> /{' '}
            <span data-testid="usage-limit">{formatInteger(window.limit)}</span>
          </div>
          <meter
            class="org-meter"
            min={0}
            max={Math.max(1, window.limit)}
            value={Math.min(window.used, window.limit)}
            aria-label="Share of this window's quota used"
          >
            {percent}%
          </meter>
          <div class="help">
            {formatInteger(window.remaining)} left; the window resets at{' '}
            <time dateTime={window.resets_at}>{resetsAt(window.resets_at)}</time>.
          </div>
          {window.local && (
            <p class="warning" data-testid="usage-local">
              The shared counter did not answer: these are this server's requests alone, against its share of
              the quota.
            </p>
          )}
        </div>
        <div class="card" data-testid="usage-today">
          <div class="label">Requests today ({today.date}, UTC)</div>
          <div class="value" data-testid="usage-today-requests">
            {formatInteger(today.requests)}
          </div>
        </div>
      </div>
      <h3>The last {days.length} days</h3>
      <Chart
        title={`Requests per UTC day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}`}
        x={x}
        series={series}
        time
        height={180}
        formatY={requestsAxis}
      />
      <details>
        <summary>The same days as a table</summary>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Requests per UTC day</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" class="num">
                  Requests
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <td>{day.date}</td>
                  <td class="num">{formatInteger(day.requests)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  )
}
