import { useState } from 'preact/hooks'
import { shortAddress } from '../format.ts'
import { paths } from '../paths.ts'
import { apiKey, useApiKey } from '../session.ts'

/**
 * Which API key the data pages send. The console can't read a key back from the API (only its hash
 * is stored), so the person pastes one, or picks the one the console just created or received at
 * signup ("Use in the explorer" on the keys page). It is kept for this tab only.
 */
export function KeyPicker() {
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const current = apiKey.value
  const submit = (event: Event) => {
    event.preventDefault()
    const key = draft.trim()
    if (!/^strata_[0-9A-Za-z]{49}$/.test(key)) {
      setProblem(
        'An API key is "strata_" followed by 49 letters and digits, as shown once when it was created.',
      )
      return
    }
    setProblem(null)
    setDraft('')
    useApiKey(key)
  }
  if (current) {
    return (
      <div class="key-picker">
        <span>
          Data requests use the key <code>{shortAddress(current, 10)}</code>.
        </span>{' '}
        <button type="button" class="link" onClick={() => useApiKey(null)}>
          Use another key
        </button>
      </div>
    )
  }
  return (
    <form class="key-picker" onSubmit={submit}>
      <label for="api-key">API key for data requests</label>
      <div class="row">
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="strata_…"
          value={draft}
          onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
          aria-describedby="api-key-help"
          aria-invalid={problem !== null}
        />
        <button type="submit">Use key</button>
      </div>
      <p id="api-key-help" class="help">
        {problem ?? (
          <>
            Paste a key, or create one on the <a href={paths.keys}>API keys</a> page and choose "Use in the
            explorer". It is kept in this tab only.
          </>
        )}
      </p>
    </form>
  )
}
