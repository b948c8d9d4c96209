/**
 * Choosing the ledger an account is shown at: by number (within the indexed range), or by a date
 * and time (the latest indexed ledger closed at or before it, asked of the API). Either navigates
 * to the account's URL at that ledger, so the view can be shared; a time chosen stays in the URL
 * (`?time=`), so the field still shows it, and the page says which ledger it led to.
 */
import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import type { ApiError } from '../api.ts'
import { ledgerAtTime } from '../explorer-api.ts'
import { formatInteger, formatTime } from '../format.ts'
import { paths } from '../paths.ts'
import { ErrorNote } from './status.tsx'

/** An instant as a `datetime-local` field writes it, in the browser's time zone; '' when not one. */
function localField(iso: string | undefined): string {
  const date = iso === undefined ? null : new Date(iso)
  if (date === null || Number.isNaN(date.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

export function LedgerPickers({
  address,
  ledger,
  from,
  to,
}: {
  address: string
  /** The ledger shown now; null for latest. */
  ledger: number | null
  from: number | null
  to: number | null
}) {
  const { route, query } = useLocation()
  // The time the ledger was chosen by, when the URL names one (only beside a ledger).
  const chosenField = ledger === null ? '' : localField(query.time)
  const chosenTime = chosenField === '' ? null : (query.time as string)
  const [draft, setDraft] = useState(ledger === null ? '' : String(ledger))
  const [when, setWhen] = useState(chosenField)
  const [problem, setProblem] = useState<string | null>(null)
  const [failure, setFailure] = useState<ApiError | null>(null)
  const [busy, setBusy] = useState(false)

  const byLedger = (event: Event) => {
    event.preventDefault()
    setFailure(null)
    const text = draft.trim()
    if (!/^\d+$/.test(text)) {
      setProblem('A ledger is a whole number, such as 2999.')
      return
    }
    const chosen = Number(text)
    if (from !== null && to !== null && (chosen < from || chosen > to)) {
      setProblem(`Choose a ledger from ${formatInteger(from)} to ${formatInteger(to)}: the indexed range.`)
      return
    }
    setProblem(null)
    route(paths.account(address, chosen))
  }

  const byTime = async (event: Event) => {
    event.preventDefault()
    setProblem(null)
    setFailure(null)
    const time = new Date(when)
    if (!when || Number.isNaN(time.getTime())) {
      setProblem('Choose a date and a time.')
      return
    }
    setBusy(true)
    try {
      const answer = await ledgerAtTime(time.toISOString())
      if (answer.data === null) {
        setProblem(
          `Nothing is indexed at or before ${formatTime(time.toISOString())}: the index starts at ledger ${formatInteger(answer.meta.indexed_from_ledger)}.`,
        )
        return
      }
      setDraft(String(answer.data.ledger))
      route(paths.account(address, answer.data.ledger, time.toISOString()))
    } catch (error) {
      setFailure(error as ApiError)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div class="pickers">
      <form class="row" onSubmit={byLedger} aria-describedby="picker-help">
        <div class="field picker-field">
          <label for="ledger-input">Ledger</label>
          <input
            id="ledger-input"
            type="number"
            inputMode="numeric"
            min={from ?? undefined}
            max={to ?? undefined}
            step={1}
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Show at ledger</button>
      </form>
      <form class="row" onSubmit={byTime}>
        <div class="field picker-field">
          <label for="time-input">Date and time (your time zone)</label>
          <input
            id="time-input"
            type="datetime-local"
            step={1}
            value={when}
            onInput={(e) => setWhen((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Finding the ledger…' : 'Show at that time'}
        </button>
      </form>
      {ledger !== null && (
        <a class="latest-link" href={paths.account(address)}>
          Back to the latest
        </a>
      )}
      {chosenTime !== null && ledger !== null && (
        <p class="help" data-testid="chosen-time">
          Ledger {formatInteger(ledger)} is the last indexed ledger closed at or before{' '}
          {formatTime(chosenTime)}.
        </p>
      )}
      <p id="picker-help" class={problem ? 'field-error' : 'help'} role={problem ? 'alert' : undefined}>
        {problem ??
          (from !== null && to !== null
            ? `Indexed from ledger ${formatInteger(from)} to ${formatInteger(to)}.`
            : 'Nothing is indexed yet.')}
      </p>
      {failure && <ErrorNote error={failure} title="Could not find the ledger at that time" />}
    </div>
  )
}
