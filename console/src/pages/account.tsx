/**
 * An account: every protocol's positions at the latest snapshots or valued at a chosen ledger (the
 * address and the ledger are in the URL), its value over time per protocol, and its activities.
 */
import '../explorer.css'
import { useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { Address } from '../components/address.tsx'
import { ActivityTable } from '../components/explorer-activities.tsx'
import { LedgerPickers } from '../components/explorer-pickers.tsx'
import { PositionSections } from '../components/explorer-positions.tsx'
import { ValueChart } from '../components/explorer-value-chart.tsx'
import { Usd } from '../components/explorer-values.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { addressProblem } from '../explorer-address.ts'
import { type AllPositions, loadActivities, loadPositions } from '../explorer-api.ts'
import { formatInteger } from '../format.ts'
import { paths } from '../paths.ts'
import { useQuery } from '../query.ts'
import { apiKey } from '../session.ts'

export function AccountPage() {
  const { params } = useRoute()
  const address = decodeURIComponent(params.address ?? '')
  const ledgerText = params.ledger
  const ledger = ledgerText === undefined ? null : /^\d+$/.test(ledgerText) ? Number(ledgerText) : Number.NaN
  const problem = addressProblem(address)
  const title = ledger === null ? 'Account' : `Account at ledger ${formatInteger(ledger)}`
  return (
    <>
      <PageTitle title={title}>
        <Address value={address} keep={8} />
      </PageTitle>
      <KeyPicker />
      {problem ? (
        <div class="note error" role="alert">
          <strong>This address cannot be shown</strong>
          <p>{problem}</p>
          <p>
            <a href={paths.explorer}>Look up another address</a>
          </p>
        </div>
      ) : Number.isNaN(ledger) ? (
        <div class="note error" role="alert">
          <strong>This ledger cannot be shown</strong>
          <p>"{ledgerText}" is not a ledger number: a ledger is a whole number, such as 2999.</p>
        </div>
      ) : apiKey.value === null ? (
        <Empty>Choose an API key above to see this account's positions and activities.</Empty>
      ) : (
        <AccountView key={`${address}:${ledger}`} address={address} ledger={ledger} />
      )}
    </>
  )
}

function AccountView({ address, ledger }: { address: string; ledger: number | null }) {
  const positions = useQuery(`explorer:positions:${address}:${ledger ?? 'latest'}`, () =>
    loadPositions(address, ledger),
  )
  const answer = positions.data
  const meta = answer?.meta
  const from = meta?.indexed_from_ledger ?? null
  const to = meta?.last_indexed_ledger ?? null
  return (
    <>
      <LedgerPickers key={String(ledger)} address={address} ledger={ledger} from={from} to={to} />
      <h2>Positions</h2>
      {positions.error && <ErrorNote error={positions.error} title="Could not load the positions" />}
      {answer ? (
        <>
          <Summary answer={answer} ledger={ledger} />
          <PositionSections answer={answer} />
        </>
      ) : (
        !positions.error && <Placeholder lines={10} label="Loading the positions" />
      )}
      <h2>Value over time</h2>
      {from !== null && to !== null ? (
        <ValueChart address={address} from={from} to={to} marked={ledger} />
      ) : (
        !positions.error && <Placeholder lines={8} label="Loading the indexed range" />
      )}
      <h2>Activities</h2>
      <Activities address={address} ledger={ledger} />
    </>
  )
}

function Summary({ answer, ledger }: { answer: AllPositions; ledger: number | null }) {
  const { meta, data } = answer
  const totals = data.totals
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">{ledger === null ? 'Latest snapshot at ledger' : 'Snapshots as of ledger'}</div>
          <div class="value" data-testid="as-of-ledger">
            {formatInteger(meta.as_of_ledger)}
          </div>
        </div>
        <div class="card">
          <div class="label">Valued at ledger</div>
          <div class="value" data-testid="valuation-ledger">
            {meta.valuation_ledger === null ? 'per protocol' : formatInteger(meta.valuation_ledger)}
          </div>
        </div>
        <div class="card">
          <div class="label">Indexed up to ledger</div>
          <div class="value" data-testid="last-indexed">
            {formatInteger(meta.last_indexed_ledger)}
          </div>
        </div>
        <div class="card">
          <div class="label">Net value</div>
          <div class="value" data-testid="total-net-usd">
            <Usd value={totals.net_usd} reason={totals.usd_unavailable_reason} />
          </div>
        </div>
      </div>
      {meta.partial_result && (
        <p class="warning">
          Partial answer: part of it needs ledgers or contract state the index does not hold.
        </p>
      )}
      {totals.usd_unavailable_reason === 'valuation_ledgers_differ' && meta.last_indexed_ledger !== null && (
        <p class="help">
          Each protocol is valued at its own snapshot's ledger, so the totals are not added.{' '}
          <a href={paths.account(data.address, meta.last_indexed_ledger)}>
            Value every protocol at ledger {formatInteger(meta.last_indexed_ledger)}
          </a>
          .
        </p>
      )}
    </>
  )
}

function Activities({ address, ledger }: { address: string; ledger: number | null }) {
  // The cursors of the pages before this one, so "Newer" goes back without asking again.
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const cursor = cursors[cursors.length - 1] ?? null
  const page = useQuery(`explorer:activities:${address}:${ledger ?? 'latest'}:${cursor ?? ''}`, () =>
    loadActivities(address, cursor, ledger),
  )
  const activities = page.data?.data.activities
  const next = page.data?.meta.next_cursor ?? null
  return (
    <section aria-label="Activities">
      {page.error && <ErrorNote error={page.error} title="Could not load the activities" />}
      {activities === undefined ? (
        !page.error && <Placeholder lines={6} label="Loading the activities" />
      ) : activities.length === 0 ? (
        <Empty>
          No activities of this account{ledger === null ? '' : ` up to ledger ${formatInteger(ledger)}`} in
          the indexed ledgers.
        </Empty>
      ) : (
        <ActivityTable
          activities={activities}
          caption="The account's activities, newest first"
          link="transaction"
        />
      )}
      {(cursors.length > 1 || next !== null) && (
        <nav class="pager" aria-label="Activities pages">
          <button
            type="button"
            class="secondary"
            disabled={cursors.length <= 1 || page.loading}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Newer
          </button>
          <span>Page {cursors.length}</span>
          <button
            type="button"
            class="secondary"
            disabled={next === null || page.loading}
            onClick={() => setCursors([...cursors, next])}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  )
}
