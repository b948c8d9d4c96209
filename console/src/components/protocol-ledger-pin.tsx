/**
 * The ledger a protocol or pool page shows, kept in its URL (`?ledger=N`) so the view can be shared:
 * a form to pick one within the indexed range, and a way back to the latest ledger.
 */
import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { formatInteger } from '../format.ts'

export function LedgerPin({
  ledger,
  indexedFrom,
  indexedTo,
}: {
  /** The pinned ledger, or null for the latest. */
  ledger: number | null
  indexedFrom: number | null
  indexedTo: number | null
}) {
  const { path, route } = useLocation()
  const [draft, setDraft] = useState(ledger === null ? '' : String(ledger))
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (event: Event) => {
    event.preventDefault()
    const text = draft.trim()
    if (!/^\d{1,15}$/.test(text)) {
      setProblem('A ledger is a whole number, such as 2999.')
      return
    }
    const wanted = Number(text)
    if (indexedFrom !== null && indexedTo !== null && (wanted < indexedFrom || wanted > indexedTo)) {
      setProblem(
        `The index holds ledgers ${formatInteger(indexedFrom)} to ${formatInteger(indexedTo)}: pick one in that range.`,
      )
      return
    }
    setProblem(null)
    route(`${path}?ledger=${wanted}`)
  }
  const range =
    indexedFrom !== null && indexedTo !== null
      ? `Indexed: ledgers ${formatInteger(indexedFrom)} to ${formatInteger(indexedTo)}.`
      : 'The indexed range is being read.'
  return (
    <form class="ledger-pin" onSubmit={submit}>
      <label for="ledger-pin">Ledger</label>
      <div class="row">
        <input
          id="ledger-pin"
          inputMode="numeric"
          autoComplete="off"
          placeholder="latest"
          value={draft}
          onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
          aria-describedby="ledger-pin-help"
          aria-invalid={problem !== null}
        />
        <button type="submit">Show</button>
        {ledger !== null && (
          <a class="button secondary" href={path} onClick={() => setDraft('')}>
            Latest ledger
          </a>
        )}
      </div>
      <p id="ledger-pin-help" class={problem ? 'field-error' : 'help'}>
        {problem ??
          (ledger === null
            ? `Showing the latest ledger. ${range}`
            : `Showing ledger ${formatInteger(ledger)}. ${range}`)}
      </p>
    </form>
  )
}
