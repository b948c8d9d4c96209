/**
 * The protocols pages' charts: a protocol's TVL series (total, borrowed, and each asset's locked
 * USD) and a pool's sampled series. Values are plotted as Number() of the API's USD strings, which
 * only places points on the chart; every figure written on the page is the API's own string.
 */
import { useMemo } from 'preact/hooks'
import type { Enrichment, TvlSeries } from '../protocol-data.ts'
import { Chart, type ChartSeries } from './chart.tsx'
import { Empty } from './status.tsx'

/** How many series a chart can tell apart by colour (Chart's palette). */
const CHART_COLOURS = 5

/** A y-axis value in USD, short: $1.2M, $350K, $12. */
export function axisUsd(value: number): string {
  const size = Math.abs(value)
  if (size >= 1e9) return `$${(value / 1e9).toFixed(1)}B`
  if (size >= 1e6) return `$${(value / 1e6).toFixed(1)}M`
  if (size >= 1e3) return `$${(value / 1e3).toFixed(0)}K`
  return `$${value.toFixed(0)}`
}

/** An amount on an axis, short, in the asset's own units. */
export function axisAmount(value: number): string {
  const size = Math.abs(value)
  if (size >= 1e9) return `${(value / 1e9).toFixed(1)}B`
  if (size >= 1e6) return `${(value / 1e6).toFixed(1)}M`
  if (size >= 1e3) return `${(value / 1e3).toFixed(0)}K`
  return value.toFixed(2)
}

export function plotted(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null
  const number = Number(value)
  return Number.isFinite(number) ? number : null
}

export function symbolFor(enrichment: Enrichment | undefined, asset: string): string {
  return enrichment?.assets[asset]?.symbol ?? `${asset.slice(0, 4)}…${asset.slice(-4)}`
}

/** The protocol's TVL over ledgers: the total (and what is borrowed, where it lends) and each asset's part. */
export function TvlCharts({
  protocol,
  series,
  enrichment,
}: {
  protocol: string
  series: TvlSeries
  enrichment: Enrichment | undefined
}) {
  const points = series.data.points
  const built = useMemo(() => {
    const x = points.map((point) => point.ledger)
    const totals: ChartSeries[] = [{ label: 'TVL (USD)', values: points.map((p) => plotted(p.tvl_usd)) }]
    if (points.some((p) => p.borrowed_usd !== null)) {
      totals.push({ label: 'Borrowed (USD)', values: points.map((p) => plotted(p.borrowed_usd)) })
    }
    const assets: string[] = []
    for (const point of points)
      for (const asset of point.assets)
        if (asset.locked_usd !== null && !assets.includes(asset.asset)) assets.push(asset.asset)
    // The chart has five colours: past five assets, the five with the most USD locked at the last
    // point are drawn (Number() only orders them), so no two lines share a colour.
    const last = points[points.length - 1]
    const lastUsd = (asset: string) => plotted(last?.assets.find((a) => a.asset === asset)?.locked_usd) ?? -1
    const drawn =
      assets.length > CHART_COLOURS
        ? [...assets].sort((a, b) => lastUsd(b) - lastUsd(a)).slice(0, CHART_COLOURS)
        : assets
    const perAsset: ChartSeries[] = drawn.map((asset) => ({
      label: `${symbolFor(enrichment, asset)} locked (USD)`,
      values: points.map((p) => plotted(p.assets.find((a) => a.asset === asset)?.locked_usd)),
    }))
    return { x, totals, perAsset, left: assets.length - drawn.length }
  }, [points, enrichment])
  const every = series.data.interval === 'day' ? 'day' : 'hour'
  if (points.length === 0) {
    return <Empty>The TVL series has no point: no ledger of the range closed in a whole {every}.</Empty>
  }
  return (
    <>
      <p class="help chart-note">
        One point per {every} of ledger close time, each valued at the {every}'s last ledger; drawn as steps,
        since a value holds until the next point.
      </p>
      <Chart
        title={`${protocol} TVL in USD by ledger, one point per ${every}`}
        x={built.x}
        series={built.totals}
        formatY={axisUsd}
      />
      {built.perAsset.length > 0 && (
        <>
          <h3>Locked per asset</h3>
          {built.left > 0 && (
            <p class="help chart-note">
              The {CHART_COLOURS} assets with the most USD locked at the last point; the {built.left} others
              are in the table above.
            </p>
          )}
          <Chart
            title={`${protocol} USD locked per asset by ledger, one point per ${every}`}
            x={built.x}
            series={built.perAsset}
            formatY={axisUsd}
          />
        </>
      )}
    </>
  )
}
