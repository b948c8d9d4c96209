/**
 * An account's positions, one section per protocol exactly as the API answers them: its as-of and
 * valuation ledgers, whether it is partial, its totals (the API's own sums, never added here), and
 * its rows grouped by contract (a vault list, a lending pool with its health factor, a pair, a
 * yield vault).
 */
import type { components } from '@strata/client'
import type { AllPositions, Enrichment, ProtocolName } from '../explorer-api.ts'
import { sectionRows } from '../explorer-api.ts'
import { formatDecimal, formatInteger, formatPercent } from '../format.ts'
import { reasonText } from '../reasons.ts'
import { Address } from './address.tsx'
import { Amount, AssetName, Usd } from './explorer-values.tsx'
import { Empty } from './status.tsx'
import { TableWrap } from './table-wrap.tsx'

type Sections = AllPositions['data']['protocols']
type Row = {
  contract_address: string
  position_type: string
  asset: string | null
  shares: string
  amount: string | null
  amount_usd: string | null
  ledger: number
  usd_unavailable_reason: string | null
}
type Group =
  | components['schemas']['LendingGroup']
  | components['schemas']['AmmGroup']
  | components['schemas']['YieldGroup']

const TITLES: Record<ProtocolName, string> = {
  vaultprotocol: 'Vaults (vaultprotocol)',
  lendingprotocol: 'Lending (lendingprotocol)',
  ammprotocol: 'Liquidity (ammprotocol)',
  yieldprotocol: 'Yield vaults (yieldprotocol)',
}

export function PositionSections({ answer }: { answer: AllPositions }) {
  const sections = answer.data.protocols
  const names = Object.keys(sections) as ProtocolName[]
  return (
    <>
      {names.map((name) => (
        <Section key={name} name={name} section={sections[name]} enrichment={answer.enrichment} />
      ))}
    </>
  )
}

function Section({
  name,
  section,
  enrichment,
}: {
  name: ProtocolName
  section: Sections[ProtocolName]
  enrichment: Enrichment
}) {
  const rows = sectionRows(section)
  const groups = section.kind === 'vault' ? 0 : section.data.groups.length
  const headingId = `section-${name}`
  return (
    <section class="protocol-section" aria-labelledby={headingId} data-protocol={name}>
      <h3 id={headingId}>{TITLES[name]}</h3>
      <p class="section-meta">
        <span>
          As of ledger <strong data-testid="as-of">{formatInteger(section.as_of_ledger)}</strong>
        </span>
        <span>
          valued at ledger <strong data-testid="valuation">{formatInteger(section.valuation_ledger)}</strong>
        </span>
        {section.partial_result && <span class="badge bad">partial: the store lacks part of it</span>}
      </p>
      {rows === 0 && groups === 0 ? (
        <Empty>
          No {name} positions
          {section.as_of_ledger === null ? ' (no snapshot at or before this ledger)' : ''}.
        </Empty>
      ) : (
        <>
          <SectionTotals totals={section.totals} />
          {section.kind === 'vault' ? (
            <VaultTable vaults={section.data.vaults} />
          ) : (
            <GroupedRows
              kind={section.kind}
              rows={section.data.positions as Row[]}
              groups={section.data.groups as Group[]}
              enrichment={enrichment}
            />
          )}
        </>
      )}
    </section>
  )
}

function SectionTotals({ totals }: { totals: components['schemas']['UsdTotals'] }) {
  return (
    <dl class="totals">
      <div>
        <dt>Assets</dt>
        <dd data-testid="assets-usd">
          <Usd value={totals.assets_usd} reason={totals.usd_unavailable_reason} />
        </dd>
      </div>
      <div>
        <dt>Debt</dt>
        <dd data-testid="debt-usd">
          <Usd value={totals.debt_usd} reason={totals.usd_unavailable_reason} />
        </dd>
      </div>
      <div>
        <dt>Net</dt>
        <dd data-testid="net-usd">
          <Usd value={totals.net_usd} reason={totals.usd_unavailable_reason} />
        </dd>
      </div>
    </dl>
  )
}

function VaultTable({ vaults }: { vaults: components['schemas']['Vault'][] }) {
  return (
    <TableWrap label="Vaults">
      <table>
        <caption class="visually-hidden">Vaults</caption>
        <thead>
          <tr>
            <th scope="col">Vault</th>
            <th scope="col">Denomination</th>
            <th scope="col" class="num">
              Collateral
            </th>
            <th scope="col" class="num">
              Collateral USD
            </th>
            <th scope="col" class="num">
              Debt
            </th>
            <th scope="col" class="num">
              Debt USD
            </th>
            <th scope="col" class="num">
              Ratio
            </th>
            <th scope="col" class="num">
              Changed at
            </th>
          </tr>
        </thead>
        <tbody>
          {vaults.map((vault) => (
            <tr key={`${vault.contract_address}:${vault.denomination}`} data-testid="position-row">
              <td>
                <Address value={vault.contract_address} />
              </td>
              <td>{vault.denomination}</td>
              <td class="num">{formatDecimal(vault.collateral)}</td>
              <td class="num">
                <Usd value={vault.collateral_usd} reason={vault.usd_unavailable_reason} />
              </td>
              <td class="num">{formatDecimal(vault.debt)}</td>
              <td class="num">
                <Usd value={vault.debt_usd} reason={vault.usd_unavailable_reason} />
              </td>
              <td class="num">{formatPercent(vault.collateralization_ratio)}</td>
              <td class="num">{formatInteger(vault.ledger)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  )
}

/** Rows grouped by their contract (pool, pair, vault), each group with its own figures first. */
function GroupedRows({
  kind,
  rows,
  groups,
  enrichment,
}: {
  kind: 'lending' | 'amm' | 'yield'
  rows: Row[]
  groups: Group[]
  enrichment: Enrichment
}) {
  return (
    <>
      {groups.map((group) => {
        const name = enrichment.contracts[group.contract_address]?.name ?? 'Contract'
        const own = rows.filter((row) => row.contract_address === group.contract_address)
        return (
          <div class="position-group" key={group.contract_address}>
            <h4>
              {name} <Address value={group.contract_address} />
            </h4>
            <GroupFigures kind={kind} group={group} />
            {own.length === 0 ? (
              <Empty>No balance in this contract: only the figures above.</Empty>
            ) : (
              <TableWrap label={`${name}: positions`}>
                <table>
                  <caption class="visually-hidden">{name}: positions</caption>
                  <thead>
                    <tr>
                      <th scope="col">Type</th>
                      <th scope="col">Asset</th>
                      <th scope="col" class="num">
                        Amount
                      </th>
                      <th scope="col" class="num">
                        USD
                      </th>
                      <th scope="col" class="num">
                        Changed at
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {own.map((row) => (
                      <tr key={`${row.position_type}:${row.asset}`} data-testid="position-row">
                        <td>{row.position_type.replaceAll('_', ' ')}</td>
                        <td>
                          <AssetName
                            asset={row.asset}
                            symbol={row.asset ? enrichment.assets[row.asset]?.symbol : null}
                          />
                        </td>
                        <td class="num">
                          <Amount value={row.amount} reason={row.amount === null ? 'rate_missing' : null} />
                        </td>
                        <td class="num">
                          <Usd value={row.amount_usd} reason={row.usd_unavailable_reason} />
                        </td>
                        <td class="num">{formatInteger(row.ledger)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </div>
        )
      })}
    </>
  )
}

function GroupFigures({ kind, group }: { kind: 'lending' | 'amm' | 'yield'; group: Group }) {
  if (kind === 'lending') {
    const pool = group as components['schemas']['LendingGroup']
    const why = reasonText(pool.usd_unavailable_reason)
    return (
      <dl class="figures">
        <div>
          <dt>Health factor</dt>
          <dd data-testid="health-factor">
            {pool.health_factor === null ? `— (${why ?? 'no debt'})` : formatDecimal(pool.health_factor, 4)}
          </dd>
        </div>
        <div>
          <dt>Borrow limit used</dt>
          <dd>{formatPercent(pool.borrow_limit)}</dd>
        </div>
        <div>
          <dt>Collateral</dt>
          <dd>
            <Usd value={pool.collateral_usd} reason={pool.usd_unavailable_reason} />
          </dd>
        </div>
        <div>
          <dt>Supplied</dt>
          <dd>
            <Usd value={pool.supplied_usd} reason={pool.usd_unavailable_reason} />
          </dd>
        </div>
        <div>
          <dt>Borrowed</dt>
          <dd>
            <Usd value={pool.borrowed_usd} reason={pool.usd_unavailable_reason} />
          </dd>
        </div>
        <div>
          <dt>Claimable BLND</dt>
          <dd>{formatDecimal(pool.claimable_blnd)}</dd>
        </div>
      </dl>
    )
  }
  const share = group as components['schemas']['AmmGroup'] | components['schemas']['YieldGroup']
  return (
    <dl class="figures">
      <div>
        <dt>Shares</dt>
        <dd>{formatDecimal(share.shares)}</dd>
      </div>
      <div>
        <dt>Share of {kind === 'amm' ? 'pool' : 'vault'}</dt>
        <dd>{formatPercent(share.share_of_pool)}</dd>
      </div>
      <div>
        <dt>Value</dt>
        <dd>
          <Usd value={share.value_usd} reason={share.usd_unavailable_reason} />
        </dd>
      </div>
    </dl>
  )
}
