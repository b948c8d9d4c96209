/**
 * A line chart drawn by uPlot, in steps by default: a value holds until the ledger it changed at,
 * which is what a snapshot series means. The chart keeps its height before and after its data
 * arrives, follows its container's width, and redraws in the theme's colours when the theme changes.
 */
import 'uplot/dist/uPlot.min.css'
import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'

export interface ChartSeries {
  label: string
  /** y for each x; null where unknown (a gap, never a zero). */
  values: Array<number | null>
}

export interface ChartProps {
  /** What the chart shows, read by screen readers. */
  title: string
  /** The x values: ledgers, or epoch seconds when `time` is set. */
  x: number[]
  series: ChartSeries[]
  /** Whether x is a time in epoch seconds (else a ledger sequence). */
  time?: boolean
  /** Draw steps (true) or straight lines between points. */
  steps?: boolean
  /** How a y value is written on the axis and in the legend. */
  formatY?: (value: number) => string
  height?: number
  /** An x to mark with a dashed vertical line (the ledger a page shows), or null. */
  marker?: number | null
}

const PALETTE = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5']

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888'
}

export function Chart({
  title,
  x,
  series,
  time = false,
  steps = true,
  formatY,
  height = 260,
  marker = null,
}: ChartProps) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (!element || x.length === 0) return
    const axisColour = cssVar('--muted')
    const gridColour = cssVar('--border')
    // The marker is drawn over the series, in the text colour, each time the plot is drawn.
    const drawMarker = (plot: uPlot) => {
      if (marker === null) return
      const left = plot.valToPos(marker, 'x', true)
      const { top, height: plotHeight } = plot.bbox
      const context = plot.ctx
      context.save()
      context.strokeStyle = cssVar('--text')
      context.lineWidth = Math.max(1, devicePixelRatio)
      context.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio])
      context.beginPath()
      context.moveTo(left, top)
      context.lineTo(left, top + plotHeight)
      context.stroke()
      context.restore()
    }
    const yValue = (_: uPlot, value: number | null) =>
      value === null ? '—' : formatY ? formatY(value) : String(value)
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height,
      scales: { x: { time } },
      legend: { live: true },
      hooks: { draw: [drawMarker] },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { stroke: axisColour, grid: { stroke: gridColour }, ticks: { stroke: gridColour } },
        {
          stroke: axisColour,
          grid: { stroke: gridColour },
          ticks: { stroke: gridColour },
          size: 80,
          values: (_, ticks) => ticks.map((tick) => (formatY ? formatY(tick) : String(tick))),
        },
      ],
      series: [
        { label: time ? 'Time' : 'Ledger', value: (_, v) => (v === null ? '—' : String(v)) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: cssVar(PALETTE[i % PALETTE.length] as string),
          width: 2,
          value: yValue,
          ...(steps ? { paths: uPlot.paths.stepped?.({ align: 1 }) } : {}),
        })),
      ],
    }
    const plot = new uPlot(options, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, element)
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(200, element.clientWidth), height }),
    )
    resize.observe(element)
    const scheme = window.matchMedia('(prefers-color-scheme: dark)')
    const redraw = () => plot.redraw()
    scheme.addEventListener('change', redraw)
    return () => {
      resize.disconnect()
      scheme.removeEventListener('change', redraw)
      plot.destroy()
    }
  }, [x, series, time, steps, formatY, height, marker])
  return (
    <figure
      class="chart"
      style={{ minHeight: `${height + 40}px` }}
      data-marker={marker === null ? undefined : String(marker)}
    >
      <figcaption class="visually-hidden">{title}</figcaption>
      <div ref={box} role="img" aria-label={title} />
    </figure>
  )
}
