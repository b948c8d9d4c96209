/**
 * A transaction: its ledger and time, who sent it, what it called, and the activities it caused in
 * the indexed protocols, each linking back to the account that acted.
 */
import '../explorer.css'
import { useRoute } from 'preact-iso'
import { Address } from '../components/address.tsx'
import { ActivityTable } from '../components/explorer-activities.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { loadTransaction } from '../explorer-api.ts'
import { formatDecimal, formatInteger, formatTime } from '../format.ts'
import { paths } from '../paths.ts'
import { useQuery } from '../query.ts'
import { apiKey } from '../session.ts'

export function TransactionPage() {
  const { params } = useRoute()
  const hash = decodeURIComponent(params.hash ?? '')
  const valid = /^[0-9a-f]{64}$/i.test(hash)
  return (
    <>
      <PageTitle title="Transaction">
        <Address value={hash} keep={8} />
      </PageTitle>
      <KeyPicker />
      {!valid ? (
        <div class="note error" role="alert">
          <strong>This transaction cannot be shown</strong>
          <p>A transaction hash is 64 hexadecimal digits (0–9, a–f).</p>
        </div>
      ) : apiKey.value === null ? (
        <Empty>Choose an API key above to see this transaction.</Empty>
      ) : (
        <TransactionView hash={hash.toLowerCase()} />
      )}
    </>
  )
}

function TransactionView({ hash }: { hash: string }) {
  const query = useQuery(`explorer:transaction:${hash}`, () => loadTransaction(hash))
  if (query.error) return <ErrorNote error={query.error} title="Could not load the transaction" />
  const tx = query.data?.data
  if (!tx) return <Placeholder lines={8} label="Loading the transaction" />
  return (
    <>
      <div class="cards">
        <div class="card">
          <div class="label">Ledger</div>
          <div class="value" data-testid="tx-ledger">
            {formatInteger(tx.ledger)}
          </div>
        </div>
        <div class="card">
          <div class="label">Closed</div>
          <div class="value">
            <time dateTime={tx.closed_at ?? undefined}>{formatTime(tx.closed_at)}</time>
          </div>
        </div>
        <div class="card">
          <div class="label">Result</div>
          <div class="value">{tx.successful ? 'Succeeded' : 'Failed'}</div>
        </div>
      </div>
      <dl class="figures">
        <div>
          <dt>Sent by</dt>
          <dd>
            {tx.source_account ? (
              <Address value={tx.source_account} href={paths.account(tx.source_account)} />
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Called</dt>
          <dd>
            {tx.function ? <code>{tx.function}</code> : '—'}
            {tx.contract_address && (
              <>
                {' on '}
                <Address value={tx.contract_address} />
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Fee</dt>
          <dd>{formatDecimal(tx.fee_charged)} stroops</dd>
        </div>
      </dl>
      <h2>Activities in this transaction</h2>
      {tx.actions.length === 0 ? (
        <Empty>This transaction moved nothing in the indexed protocols.</Empty>
      ) : (
        <ActivityTable activities={tx.actions} caption="The transaction's activities" link="account" />
      )}
      {tx.source_account && (
        <p>
          <a href={paths.account(tx.source_account, tx.ledger)}>
            What the sender held at ledger {formatInteger(tx.ledger)}
          </a>
        </p>
      )}
    </>
  )
}
