/**
 * What a pool page shows of each kind of pool, from the pool endpoint's answer: a Blend pool's
 * reserves with their rates, a Soroswap pair's reserves and 24-hour volume, a DeFindex vault's
 * assets, APYs and strategies. Every figure is the API's decimal string, formatted, never computed.
 */
import { formatDecimal, formatInteger, formatPercent, formatUsd } from '../format.ts'
import { paths } from '../paths.ts'
import type { AmmPool, LendingPool, YieldPool } from '../protocol-data.ts'
import { Address } from './address.tsx'
import { symbolFor } from './protocol-charts.tsx'
import { Empty } from './status.tsx'
import { TableWrap } from './table-wrap.tsx'
import { Unknown } from './unknown.tsx'

/** Basis points as a percentage: 1000 → 10.00%. */
export function formatBps(bps: number | null): string {
  if (bps === null) return '—'
  return `${formatInteger(Math.trunc(bps / 100))}.${String(bps % 100).padStart(2, '0')}%`
}

export function LendingPoolDetails({ pool }: { pool: LendingPool }) {
  const { data, enrichment } = pool
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">Supplied</div>
          <div class="value" data-testid="pool-supplied-usd">
            {formatUsd(data.supplied_usd)}
          </div>
        </div>
        <div class="card">
          <div class="label">Borrowed</div>
          <div class="value" data-testid="pool-borrowed-usd">
            {formatUsd(data.borrowed_usd)}
          </div>
        </div>
        <div class="card">
          <div class="label">Status</div>
          <div class="value">{data.config?.status_name?.replaceAll('_', ' ') ?? '—'}</div>
          {data.config && (
            <div class="help">
              Backstop take rate {formatPercent(data.config.bstop_rate)}, at most{' '}
              {formatInteger(data.config.max_positions)} positions
            </div>
          )}
        </div>
      </div>
      <h2>Reserves</h2>
      {data.reserves.length === 0 ? (
        <Empty>The pool has no reserve at this ledger.</Empty>
      ) : (
        <>
          <TableWrap label="Reserves: amounts">
            <table data-testid="reserves">
              <caption class="visually-hidden">Reserves: amounts</caption>
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col" class="num">
                    Supplied
                  </th>
                  <th scope="col" class="num">
                    Supplied (USD)
                  </th>
                  <th scope="col" class="num">
                    Borrowed
                  </th>
                  <th scope="col" class="num">
                    Borrowed (USD)
                  </th>
                  <th scope="col" class="num">
                    Utilization
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.reserves.map((reserve) => (
                  <tr key={reserve.asset} data-asset={reserve.asset}>
                    <td>
                      <span class="asset-name">{symbolFor(enrichment, reserve.asset)}</span>{' '}
                      <Address value={reserve.asset} />
                    </td>
                    <td class="num">{formatDecimal(reserve.supplied)}</td>
                    <td class="num">
                      {reserve.supplied_usd === null ? (
                        <Unknown reason={reserve.usd_unavailable_reason} />
                      ) : (
                        formatUsd(reserve.supplied_usd)
                      )}
                    </td>
                    <td class="num">{formatDecimal(reserve.borrowed)}</td>
                    <td class="num">
                      {reserve.borrowed_usd === null ? (
                        <Unknown reason={reserve.usd_unavailable_reason} />
                      ) : (
                        formatUsd(reserve.borrowed_usd)
                      )}
                    </td>
                    <td class="num">{formatPercent(reserve.utilization)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <h3>Rates</h3>
          <p class="help">
            APR is the simple annual rate of the interest curve; APY compounds it as Blend's interface does
            (supply weekly, borrow daily). Emission APR is the BLND emitted per dollar held.
          </p>
          <TableWrap label="Reserves: rates">
            <table data-testid="rates" class="rates">
              <caption class="visually-hidden">Reserves: rates</caption>
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col" class="num">
                    Supply APR
                  </th>
                  <th scope="col" class="num">
                    Supply APY
                  </th>
                  <th scope="col" class="num">
                    Borrow APR
                  </th>
                  <th scope="col" class="num">
                    Borrow APY
                  </th>
                  <th scope="col" class="num">
                    Supply emission APR
                  </th>
                  <th scope="col" class="num">
                    Borrow emission APR
                  </th>
                  <th scope="col" class="num">
                    Collateral factor
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.reserves.map((reserve) => (
                  <tr key={reserve.asset} data-asset={reserve.asset}>
                    <th scope="row">{symbolFor(enrichment, reserve.asset)}</th>
                    {[reserve.supply_apr, reserve.supply_apy, reserve.borrow_apr, reserve.borrow_apy].map(
                      (rate, i) => (
                        <td class="num" key={i}>
                          {rate === null ? (
                            <Unknown reason={reserve.rates_unavailable_reason} />
                          ) : (
                            formatPercent(rate)
                          )}
                        </td>
                      ),
                    )}
                    <td class="num">
                      {reserve.supply_emission_apr === null ? (
                        <Unknown reason={reserve.supply_emission_apr_unavailable_reason} />
                      ) : (
                        formatPercent(reserve.supply_emission_apr)
                      )}
                    </td>
                    <td class="num">
                      {reserve.borrow_emission_apr === null ? (
                        <Unknown reason={reserve.borrow_emission_apr_unavailable_reason} />
                      ) : (
                        formatPercent(reserve.borrow_emission_apr)
                      )}
                    </td>
                    <td class="num">{formatPercent(reserve.c_factor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </>
  )
}

export function AmmPoolDetails({ pool }: { pool: AmmPool }) {
  const { data, enrichment } = pool
  const volume = data.volume_24h
  const token = (asset: string | null) => (asset ? symbolFor(enrichment, asset) : '—')
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">TVL</div>
          <div class="value" data-testid="pool-tvl-usd">
            {data.tvl_usd === null ? (
              <Unknown reason={data.usd_unavailable_reason} />
            ) : (
              formatUsd(data.tvl_usd)
            )}
          </div>
        </div>
        <div class="card">
          <div class="label">Volume, last 24 hours</div>
          <div class="value">
            {volume.volume_usd === null ? (
              <Unknown reason={volume.unavailable_reason} />
            ) : (
              formatUsd(volume.volume_usd)
            )}
          </div>
          <div class="help">
            {formatInteger(volume.swaps)} swaps, fees {formatUsd(volume.fees_usd)}
          </div>
        </div>
        <div class="card">
          <div class="label">LP tokens</div>
          <div class="value">{formatDecimal(data.total_supply)}</div>
          <div class="help">State written at ledger {formatInteger(data.state_ledger)}</div>
        </div>
      </div>
      <h2>Reserves</h2>
      <TableWrap label="The pair's reserves">
        <table data-testid="reserves">
          <caption class="visually-hidden">The pair's reserves</caption>
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col" class="num">
                Reserve
              </th>
              <th scope="col" class="num">
                Price in the other token
              </th>
              <th scope="col" class="num">
                Swapped in (24 h)
              </th>
              <th scope="col" class="num">
                Fees (24 h)
              </th>
            </tr>
          </thead>
          <tbody>
            {[
              {
                asset: data.token_0,
                reserve: data.reserve_0,
                price: data.price_0_in_1,
                other: data.token_1,
                swapped: volume.token_0_in,
                fees: volume.fees_0,
              },
              {
                asset: data.token_1,
                reserve: data.reserve_1,
                price: data.price_1_in_0,
                other: data.token_0,
                swapped: volume.token_1_in,
                fees: volume.fees_1,
              },
            ].map((row, i) => (
              <tr key={row.asset ?? i} data-asset={row.asset ?? ''}>
                <td>
                  <span class="asset-name">{token(row.asset)}</span>{' '}
                  {row.asset && <Address value={row.asset} />}
                </td>
                <td class="num">{formatDecimal(row.reserve)}</td>
                <td class="num">
                  {row.price === null ? '—' : `${formatDecimal(row.price)} ${token(row.other)}`}
                </td>
                <td class="num">{formatDecimal(row.swapped)}</td>
                <td class="num">{formatDecimal(row.fees)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  )
}

export function YieldPoolDetails({ pool }: { pool: YieldPool }) {
  const { data, enrichment } = pool
  const share = data.share_symbol ?? 'shares'
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">Shares issued</div>
          <div class="value" data-testid="pool-total-supply">
            {data.total_supply === null ? (
              <Unknown reason={data.unavailable_reason} />
            ) : (
              formatDecimal(data.total_supply)
            )}
          </div>
          <div class="help">{share}</div>
        </div>
        <div class="card">
          <div class="label">Fees</div>
          <div class="value">{formatBps(data.vault_fee_bps)}</div>
          <div class="help">
            of strategy gains; the protocol takes {formatBps(data.protocol_fee_bps)} of those fees
          </div>
        </div>
        <div class="card">
          <div class="label">Rates written at ledger</div>
          <div class="value">{formatInteger(data.rate_ledger)}</div>
        </div>
      </div>
      <p class="help">
        The API values a DeFindex vault in its assets' own units; its USD value is in the protocol's TVL.
      </p>
      <h2>Assets</h2>
      {data.assets.length === 0 ? (
        <Empty>The vault manages no asset.</Empty>
      ) : (
        <TableWrap label="The vault's assets">
          <table data-testid="reserves">
            <caption class="visually-hidden">The vault's assets</caption>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col" class="num">
                  Idle
                </th>
                <th scope="col" class="num">
                  Invested
                </th>
                <th scope="col" class="num">
                  Total managed
                </th>
                <th scope="col" class="num">
                  Per share
                </th>
                <th scope="col" class="num">
                  APY, 7 days
                </th>
                <th scope="col" class="num">
                  APY, 30 days
                </th>
              </tr>
            </thead>
            <tbody>
              {data.assets.map((asset) => (
                <tr key={asset.asset} data-asset={asset.asset}>
                  <td>
                    <span class="asset-name">{symbolFor(enrichment, asset.asset)}</span>{' '}
                    <Address value={asset.asset} />
                  </td>
                  <td class="num">{formatDecimal(asset.idle)}</td>
                  <td class="num">{formatDecimal(asset.invested)}</td>
                  <td class="num">{formatDecimal(asset.total_managed_funds)}</td>
                  <td class="num">{formatDecimal(asset.price_per_share, 12)}</td>
                  <td class="num">
                    {asset.apy_7d.apy === null ? (
                      <Unknown reason={asset.apy_7d.unavailable_reason} />
                    ) : (
                      formatPercent(asset.apy_7d.apy)
                    )}
                  </td>
                  <td class="num">
                    {asset.apy_30d.apy === null ? (
                      <Unknown reason={asset.apy_30d.unavailable_reason} />
                    ) : (
                      formatPercent(asset.apy_30d.apy)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <h3>Strategies</h3>
      {data.assets.every((asset) => asset.strategies.length === 0) ? (
        <Empty>The vault invests through no strategy: its funds are idle.</Empty>
      ) : (
        <TableWrap label="The vault's strategies">
          <table data-testid="strategies">
            <caption class="visually-hidden">The vault's strategies</caption>
            <thead>
              <tr>
                <th scope="col">Strategy</th>
                <th scope="col">Asset</th>
                <th scope="col">Pool</th>
                <th scope="col" class="num">
                  Balance
                </th>
                <th scope="col" class="num">
                  Invested
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.assets.flatMap((asset) =>
                asset.strategies.map((strategy) => (
                  <tr key={strategy.contract_address}>
                    <td>
                      {strategy.name ?? '—'} <Address value={strategy.contract_address} />
                    </td>
                    <td>{symbolFor(enrichment, asset.asset)}</td>
                    <td>
                      {strategy.pool ? (
                        <Address value={strategy.pool} href={paths.pool('lendingprotocol', strategy.pool)} />
                      ) : (
                        '—'
                      )}
                    </td>
                    <td class="num">{formatDecimal(strategy.balance)}</td>
                    <td class="num">{formatDecimal(strategy.invested)}</td>
                    <td>{strategy.paused === null ? '—' : strategy.paused ? 'Paused' : 'Active'}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  )
}
