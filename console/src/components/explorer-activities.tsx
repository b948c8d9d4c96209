/**
 * Activities as a table: what happened (type, protocol), every leg with its amount and USD, the
 * action's USD value as the API sums it, its ledger and time, and links to the transaction (on an
 * account's page) or to the account (on a transaction's page).
 */

import type { Activity } from '../explorer-api.ts'
import { formatInteger, formatTime, shortAddress } from '../format.ts'
import { paths } from '../paths.ts'
import { Address } from './address.tsx'
import { Amount, AssetName, Usd } from './explorer-values.tsx'
import { TableWrap } from './table-wrap.tsx'

const DIRECTION: Record<string, string> = {
  sent: 'sent',
  received: 'received',
  minted: 'minted',
  burnt: 'burnt',
}

export function ActivityTable({
  activities,
  caption,
  link,
}: {
  activities: Activity[]
  caption: string
  /** What each row links to: its transaction, or the account that acted. */
  link: 'transaction' | 'account'
}) {
  return (
    <TableWrap label={caption}>
      <table class="activities">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Amounts</th>
            <th scope="col" class="num">
              USD
            </th>
            <th scope="col" class="num">
              Ledger
            </th>
            <th scope="col">Time</th>
            <th scope="col">{link === 'transaction' ? 'Transaction' : 'Account'}</th>
          </tr>
        </thead>
        <tbody>
          {activities.map((activity) => (
            <tr
              key={`${activity.tx_hash}:${activity.operation}:${activity.event_index}:${activity.account}`}
              data-testid="activity-row"
            >
              <td>
                <strong>{activity.type.replaceAll('_', ' ')}</strong>
                <br />
                <span class="muted">{activity.protocol}</span>
              </td>
              <td>
                <ul class="legs">
                  {activity.legs.map((leg, i) => (
                    <li key={i}>
                      <span class="muted">{DIRECTION[leg.direction] ?? leg.direction}</span>{' '}
                      <span class="amount">
                        <Amount value={leg.amount} reason={leg.amount === null ? 'no_amount' : null} />
                      </span>{' '}
                      <AssetName asset={leg.asset} symbol={leg.symbol} />
                      {leg.amount_usd !== null && (
                        <span class="muted">
                          {' '}
                          (<Usd value={leg.amount_usd} />)
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              </td>
              <td class="num">
                <Usd value={activity.amount_usd} reason={activity.usd_unavailable_reason} />
              </td>
              <td class="num">{formatInteger(activity.ledger)}</td>
              <td>
                <time dateTime={activity.closed_at ?? undefined} title={activity.closed_at ?? undefined}>
                  {formatTime(activity.closed_at)}
                </time>
              </td>
              <td>
                {link === 'transaction' ? (
                  <a href={paths.transaction(activity.tx_hash)} title={activity.tx_hash}>
                    Transaction <code>{shortAddress(activity.tx_hash, 6)}</code>
                  </a>
                ) : (
                  <Address value={activity.account} href={paths.account(activity.account)} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  )
}
