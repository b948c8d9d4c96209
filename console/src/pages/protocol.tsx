/**
 * One protocol: its TVL at the latest or a picked ledger (`?ledger=N` keeps the view shareable),
 * its TVL series drawn as steps, the assets behind the figure, and its pools with links to each.
 */
import '../protocol.css'
import { useRoute } from 'preact-iso'
import { Address } from '../components/address.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { symbolFor, TvlCharts } from '../components/protocol-charts.tsx'
import { LedgerPin } from '../components/protocol-ledger-pin.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { TableWrap } from '../components/table-wrap.tsx'
import { formatDecimal, formatInteger, formatUsd } from '../format.ts'
import { paths } from '../paths.ts'
import {
  hasPools,
  isProtocol,
  ledgerFromQuery,
  loadPools,
  loadTvl,
  loadTvlSeries,
  POOL_NOUN,
  type PoolProtocol,
  type ProtocolName,
  type TvlState,
} from '../protocol-data.ts'
import { useQuery } from '../query.ts'
import { reasonText } from '../reasons.ts'
import { apiKey } from '../session.ts'

const LEAD: Record<ProtocolName, string> = {
  vaultprotocol: 'FxDAO collateralized debt vaults: XLM collateral locked, stablecoins minted against it.',
  lendingprotocol: 'Blend lending pools: assets supplied, borrowed and used as collateral.',
  ammprotocol: 'Soroswap pairs: liquidity in two-token pools.',
  yieldprotocol: 'DeFindex vaults: deposits managed across strategies.',
}

export function ProtocolPage() {
  const { params, query } = useRoute()
  const name = params.protocol ?? ''
  const ledger = ledgerFromQuery(query.ledger)
  const key = apiKey.value
  if (!isProtocol(name)) {
    return (
      <>
        <PageTitle title="Protocol not found" />
        <Empty>
          No protocol is named “{name}”. See <a href={paths.protocols}>every protocol</a>.
        </Empty>
      </>
    )
  }
  return (
    <>
      <PageTitle title={name}>{LEAD[name]}</PageTitle>
      <p class="crumbs">
        <a href={paths.protocols}>All protocols</a>
      </p>
      <KeyPicker />
      {key ? (
        <ProtocolBody protocol={name} ledger={ledger} apiKey={key} />
      ) : (
        <Empty>Pick an API key above to see this protocol's TVL and pools.</Empty>
      )}
    </>
  )
}

function ProtocolBody({
  protocol,
  ledger,
  apiKey: key,
}: {
  protocol: ProtocolName
  ledger: number | null
  apiKey: string
}) {
  const state = useQuery(`protocol:tvl:${key}:${protocol}:${ledger ?? 'latest'}`, () =>
    loadTvl(protocol, ledger),
  )
  const meta = state.data?.meta
  const from = meta?.indexed_from_ledger ?? null
  const to = ledger ?? meta?.last_indexed_ledger ?? null
  const series = useQuery(
    from !== null && to !== null && to >= from ? `protocol:series:${key}:${protocol}:${from}:${to}` : null,
    () => loadTvlSeries(protocol, from as number, to as number),
  )
  return (
    <>
      <LedgerPin ledger={ledger} indexedFrom={from} indexedTo={meta?.last_indexed_ledger ?? null} />
      <section aria-labelledby="tvl-heading">
        <h2 id="tvl-heading">Total value locked</h2>
        {state.error ? (
          <ErrorNote error={state.error} title="The TVL could not be loaded" />
        ) : state.data ? (
          <TvlSummary tvl={state.data} />
        ) : (
          <Placeholder lines={14} label="Loading the TVL" />
        )}
        <h3>Over time</h3>
        {series.error ? (
          <ErrorNote error={series.error} title="The TVL series could not be loaded" />
        ) : state.error ? (
          <Empty>The series needs the TVL above, which could not be loaded.</Empty>
        ) : from !== null && to !== null && to < from ? (
          <Empty>
            Ledger {formatInteger(to)} is before the first indexed ledger, {formatInteger(from)}: there is no
            series to draw.
          </Empty>
        ) : series.data ? (
          <TvlCharts protocol={protocol} series={series.data} enrichment={state.data?.enrichment} />
        ) : (
          <div class="chart-space">
            <Placeholder lines={8} label="Loading the TVL series" />
          </div>
        )}
      </section>
      <section aria-labelledby="pools-heading">
        {hasPools(protocol) ? (
          <Pools protocol={protocol} ledger={ledger} apiKey={key} />
        ) : (
          <>
            <h2 id="pools-heading">Pools</h2>
            <Empty>
              {protocol} has no pools: its vaults are positions of one contract, so what it has is the TVL
              above, its collateral locked and the debt minted against it.
            </Empty>
          </>
        )}
      </section>
    </>
  )
}

function TvlSummary({ tvl }: { tvl: TvlState }) {
  const { data, meta, enrichment } = tvl
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">TVL</div>
          <div class="value" data-testid="tvl-usd">
            {formatUsd(data.tvl_usd)}
          </div>
          {data.tvl_usd === null && data.usd_unavailable_reason && (
            <div class="help">Unknown: {reasonText(data.usd_unavailable_reason)}</div>
          )}
        </div>
        <div class="card">
          <div class="label">Borrowed</div>
          <div class="value" data-testid="borrowed-usd">
            {formatUsd(data.borrowed_usd)}
          </div>
          {data.borrowed_usd === null && (
            <div class="help">{data.usd_unavailable_reason ?? 'Nothing lent'}</div>
          )}
        </div>
        <div class="card">
          <div class="label">Valuation ledger</div>
          <div class="value">{formatInteger(data.ledger)}</div>
          <div class="help">Latest indexed: {formatInteger(meta.last_indexed_ledger)}</div>
        </div>
      </div>
      {data.assets.length === 0 ? (
        <Empty>No asset is locked in this protocol at this ledger.</Empty>
      ) : (
        <TableWrap label={`TVL per asset at ledger ${formatInteger(data.ledger)}`}>
          <table>
            <caption class="visually-hidden">TVL per asset at ledger {formatInteger(data.ledger)}</caption>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col" class="num">
                  Locked
                </th>
                <th scope="col" class="num">
                  Locked (USD)
                </th>
                <th scope="col" class="num">
                  Borrowed
                </th>
                <th scope="col" class="num">
                  Borrowed (USD)
                </th>
              </tr>
            </thead>
            <tbody>
              {data.assets.map((asset) => (
                <tr key={asset.asset}>
                  <td>
                    <span class="asset-name">{symbolFor(enrichment, asset.asset)}</span>{' '}
                    <Address value={asset.asset} />
                  </td>
                  <td class="num">{formatDecimal(asset.locked)}</td>
                  <td class="num">{formatUsd(asset.locked_usd)}</td>
                  <td class="num">{formatDecimal(asset.borrowed)}</td>
                  <td class="num">{formatUsd(asset.borrowed_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  )
}

function Pools({
  protocol,
  ledger,
  apiKey: key,
}: {
  protocol: PoolProtocol
  ledger: number | null
  apiKey: string
}) {
  const pools = useQuery(`protocol:pools:${key}:${protocol}:${ledger ?? 'latest'}`, () =>
    loadPools(protocol, ledger),
  )
  const noun = POOL_NOUN[protocol]
  const showUsd = protocol === 'ammprotocol'
  return (
    <>
      <h2 id="pools-heading">{noun.many}</h2>
      {pools.error ? (
        <ErrorNote error={pools.error} title={`The ${noun.many} could not be loaded`} />
      ) : !pools.data ? (
        <Placeholder lines={6} label={`Loading the ${noun.many}`} />
      ) : pools.data.pools.length === 0 ? (
        <Empty>The network lists no {noun.one} for this protocol.</Empty>
      ) : (
        <TableWrap label={`${noun.many}`}>
          <table class="pools">
            <caption class="visually-hidden">{noun.many}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Assets</th>
                {showUsd && (
                  <th scope="col" class="num">
                    TVL (USD)
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {pools.data.pools.map((pool) => (
                <tr key={pool.address} data-pool={pool.address}>
                  <td>
                    <a href={poolHref(protocol, pool.address, ledger)}>{pool.name}</a>
                  </td>
                  <td>
                    <Address value={pool.address} />
                  </td>
                  <td>{pool.assets.join(', ')}</td>
                  {showUsd && (
                    <td class="num">
                      {formatUsd(pool.usd)}
                      {pool.usd === null && pool.usdReason ? ` (${reasonText(pool.usdReason)})` : ''}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  )
}

function poolHref(protocol: PoolProtocol, pool: string, ledger: number | null): string {
  const base = paths.pool(protocol, pool)
  return ledger === null ? base : `${base}?ledger=${ledger}`
}
