/**
 * The account's net USD value per protocol over the indexed range: ledgers sampled evenly, every
 * protocol valued at each (`/positions/at/{ledger}`, four requests at a time), drawn as steps. The
 * sampled ledgers are listed under the chart; an unpriced sample is a gap.
 */
import { useMemo } from 'preact/hooks'
import { loadValueSamples, sampleLedgers } from '../explorer-api.ts'
import { formatInteger } from '../format.ts'
import { useQuery } from '../query.ts'
import { Chart } from './chart.tsx'
import { Empty, ErrorNote, Placeholder } from './status.tsx'

const HEIGHT = 260

const usdAxis = (value: number) =>
  `$${value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) < 10 ? 2 : 0 })}`

export function ValueChart({
  address,
  from,
  to,
  marked,
}: {
  address: string
  from: number
  to: number
  /** The ledger the page shows (sampled too, and marked on the chart); null for the latest. */
  marked: number | null
}) {
  const ledgers = useMemo(() => sampleLedgers(from, to, marked), [from, to, marked])
  const shown = marked !== null && ledgers.includes(marked) ? marked : null
  const query = useQuery(`explorer:value:${address}:${ledgers.join(',')}`, () =>
    loadValueSamples(address, ledgers),
  )
  const series = useMemo(
    () => query.data?.series.map((s) => ({ label: s.protocol, values: s.values })) ?? [],
    [query.data],
  )
  const title = `Net USD value of ${address} per protocol, at ${ledgers.length} ledgers from ${formatInteger(from)} to ${formatInteger(to)}`
  return (
    <div class="value-chart" data-testid="value-chart">
      {query.error && <ErrorNote error={query.error} title="Could not load the value over time" />}
      {query.data === undefined && !query.error ? (
        <div class="chart-placeholder">
          <Placeholder lines={8} label="Valuing the account at each sampled ledger" />
        </div>
      ) : query.data && series.length === 0 ? (
        <div class="chart-placeholder">
          <Empty>The account held nothing at any of the sampled ledgers.</Empty>
        </div>
      ) : query.data ? (
        <Chart
          title={title}
          x={query.data.ledgers}
          series={series}
          formatY={usdAxis}
          height={HEIGHT}
          marker={shown}
        />
      ) : null}
      <p class="help samples">
        Sampled at ledgers{' '}
        <span data-testid="sampled-ledgers">{ledgers.map((l) => formatInteger(l)).join(', ')}</span>. Each
        protocol is valued at each of them; a protocol holding nothing counts 0, a holding the API could not
        price is a gap, and the line holds its value between two samples.
        {shown !== null && (
          <span data-testid="chart-marker">
            {' '}
            The dashed line marks ledger {formatInteger(shown)}, the one the positions above are valued at.
          </span>
        )}
      </p>
    </div>
  )
}
