/**
 * One pool of a protocol (a Blend pool, a Soroswap pair, a DeFindex vault) at the latest or a
 * picked ledger (`?ledger=N`, shareable): its reserves, rates and APY, utilization, and a chart of
 * its own figures over the indexed range. The TVL endpoint answers per protocol, not per pool, so
 * the chart asks the pool endpoint at sampled ledgers (four requests at a time) and says so.
 */
import '../protocol.css'
import { useMemo } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { Address } from '../components/address.tsx'
import { Chart, type ChartSeries } from '../components/chart.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { axisAmount, axisUsd, plotted, symbolFor } from '../components/protocol-charts.tsx'
import { LedgerPin } from '../components/protocol-ledger-pin.tsx'
import { AmmPoolDetails, LendingPoolDetails, YieldPoolDetails } from '../components/protocol-pool-details.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { formatInteger } from '../format.ts'
import { paths } from '../paths.ts'
import {
  hasPools,
  isProtocol,
  ledgerFromQuery,
  loadPool,
  loadPoolSamples,
  POOL_NOUN,
  type PoolAnswer,
  type PoolProtocol,
} from '../protocol-data.ts'
import { useQuery } from '../query.ts'
import { apiKey } from '../session.ts'

export function PoolPage() {
  const { params, query } = useRoute()
  const protocol = params.protocol ?? ''
  const pool = params.pool ?? ''
  const ledger = ledgerFromQuery(query.ledger)
  const key = apiKey.value
  if (!isProtocol(protocol) || !hasPools(protocol)) {
    return (
      <>
        <PageTitle title="Pool not found" />
        <Empty>
          {isProtocol(protocol)
            ? `${protocol} has no pools: its page shows its TVL.`
            : `No protocol is named “${protocol}”.`}{' '}
          See <a href={isProtocol(protocol) ? paths.protocol(protocol) : paths.protocols}>the protocols</a>.
        </Empty>
      </>
    )
  }
  return <PoolView protocol={protocol} pool={pool} ledger={ledger} apiKey={key} />
}

function PoolView({
  protocol,
  pool,
  ledger,
  apiKey: key,
}: {
  protocol: PoolProtocol
  pool: string
  ledger: number | null
  apiKey: string | null
}) {
  const answer = useQuery(key ? `pool:${key}:${protocol}:${pool}:${ledger ?? 'latest'}` : null, () =>
    loadPool(protocol, pool, ledger),
  )
  const noun = POOL_NOUN[protocol]
  const name = answer.data ? poolName(answer.data) : null
  const meta = answer.data?.answer.meta
  return (
    <>
      <PageTitle title={name ?? noun.one}>
        A {noun.one} of <a href={paths.protocol(protocol)}>{protocol}</a>{' '}
        <span class="address-inline">
          <Address value={pool} />
        </span>
      </PageTitle>
      <p class="crumbs">
        <a href={paths.protocols}>All protocols</a> › <a href={paths.protocol(protocol)}>{protocol}</a>
      </p>
      <KeyPicker />
      {!key ? (
        <Empty>Pick an API key above to see this {noun.one}.</Empty>
      ) : (
        <>
          <LedgerPin
            ledger={ledger}
            indexedFrom={meta?.indexed_from_ledger ?? null}
            indexedTo={meta?.last_indexed_ledger ?? null}
          />
          {answer.error ? (
            <ErrorNote error={answer.error} title={`The ${noun.one} could not be loaded`} />
          ) : !answer.data ? (
            <Placeholder lines={22} label={`Loading the ${noun.one}`} />
          ) : (
            <>
              <p class="help" data-testid="pool-ledgers">
                Asked at ledger {formatInteger(meta?.requested_ledger)}; its entries were last written at
                ledger {formatInteger(meta?.as_of_ledger)}, valued at ledger{' '}
                {formatInteger(meta?.valuation_ledger)}.
                {meta?.partial_result ? ' Partial: the store lacks part of its history.' : ''}
              </p>
              <PoolDetails pool={answer.data} />
            </>
          )}
          <section aria-labelledby="pool-chart-heading">
            <h2 id="pool-chart-heading">Over time</h2>
            {answer.error ? (
              <Empty>The chart needs the {noun.one}, which could not be loaded.</Empty>
            ) : meta && meta.indexed_from_ledger !== null && meta.last_indexed_ledger !== null ? (
              <PoolChart
                protocol={protocol}
                pool={pool}
                from={meta.indexed_from_ledger}
                to={ledger ?? meta.last_indexed_ledger}
                apiKey={key}
                enrichment={answer.data?.answer.enrichment}
              />
            ) : (
              <div class="chart-space">
                <Placeholder lines={8} label="Loading the chart" />
              </div>
            )}
          </section>
        </>
      )}
    </>
  )
}

function poolName(pool: PoolAnswer): string {
  if (pool.protocol === 'ammprotocol') {
    const address = pool.answer.data.contract_address
    return pool.answer.enrichment.contracts[address]?.name ?? address
  }
  return pool.answer.data.name
}

function PoolDetails({ pool }: { pool: PoolAnswer }) {
  if (pool.protocol === 'lendingprotocol') return <LendingPoolDetails pool={pool.answer} />
  if (pool.protocol === 'ammprotocol') return <AmmPoolDetails pool={pool.answer} />
  return <YieldPoolDetails pool={pool.answer} />
}

/** What the chart draws for each kind of pool, from the sampled answers. */
function chartSeries(
  samples: Array<{ ledger: number; pool: PoolAnswer }>,
  enrichment: PoolAnswer['answer']['enrichment'] | undefined,
): { series: ChartSeries[]; usd: boolean; what: string } {
  const first = samples[0]?.pool
  if (!first || first.protocol === 'lendingprotocol') {
    const lending = (s: { pool: PoolAnswer }) =>
      s.pool.protocol === 'lendingprotocol' ? s.pool.answer.data : null
    return {
      usd: true,
      what: 'the USD supplied to and borrowed from the pool',
      series: [
        { label: 'Supplied (USD)', values: samples.map((s) => plotted(lending(s)?.supplied_usd)) },
        { label: 'Borrowed (USD)', values: samples.map((s) => plotted(lending(s)?.borrowed_usd)) },
      ],
    }
  }
  if (first.protocol === 'ammprotocol') {
    return {
      usd: true,
      what: "the pair's TVL in USD",
      series: [
        {
          label: 'TVL (USD)',
          values: samples.map((s) =>
            plotted(s.pool.protocol === 'ammprotocol' ? s.pool.answer.data.tvl_usd : null),
          ),
        },
      ],
    }
  }
  const assets = first.answer.data.assets.map((a) => a.asset)
  return {
    usd: false,
    what: "the funds the vault manages, in each asset's own units",
    series: assets.map((asset) => ({
      label: `${symbolFor(enrichment, asset)} managed`,
      values: samples.map((s) =>
        plotted(
          s.pool.protocol === 'yieldprotocol'
            ? s.pool.answer.data.assets.find((a) => a.asset === asset)?.total_managed_funds
            : null,
        ),
      ),
    })),
  }
}

function PoolChart({
  protocol,
  pool,
  from,
  to,
  apiKey: key,
  enrichment,
}: {
  protocol: PoolProtocol
  pool: string
  from: number
  to: number
  apiKey: string
  enrichment: PoolAnswer['answer']['enrichment'] | undefined
}) {
  const samples = useQuery(`pool-samples:${key}:${protocol}:${pool}:${from}:${to}`, () =>
    loadPoolSamples(protocol, pool, from, to),
  )
  const built = useMemo(() => {
    if (!samples.data) return null
    return { x: samples.data.map((s) => s.ledger), ...chartSeries(samples.data, enrichment) }
  }, [samples.data, enrichment])
  const noun = POOL_NOUN[protocol].one
  if (samples.error) return <ErrorNote error={samples.error} title="The chart's data could not be loaded" />
  if (!built) {
    return (
      <div class="chart-space">
        <Placeholder lines={8} label="Loading the chart" />
      </div>
    )
  }
  if (built.series.length === 0) return <Empty>The {noun} has nothing to chart: it manages no asset.</Empty>
  return (
    <>
      <p class="help chart-note" data-testid="pool-chart-note">
        The {noun} asked at {formatInteger(built.x.length)} ledgers spread over ledgers {formatInteger(from)}{' '}
        to {formatInteger(to)} (the TVL endpoint answers per protocol, not per pool): {built.what}, drawn as
        steps from each sampled ledger to the next.
      </p>
      <Chart
        title={`${noun} ${pool}: ${built.what}, at ${built.x.length} sampled ledgers`}
        x={built.x}
        series={built.series}
        formatY={built.usd ? axisUsd : axisAmount}
      />
    </>
  )
}
