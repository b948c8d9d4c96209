/**
 * A key's secret, shown the one time the API answers it: a box with the value and a copy button,
 * a warning that it cannot be shown again, and a way to send data requests with it from this tab.
 */

import { apiKey, useApiKey } from '../session.ts'
import { CopyButton } from './address.tsx'

export function NewSecret({
  title,
  secret,
  name,
  onDone,
}: {
  title: string
  secret: string
  name: string
  onDone: () => void
}) {
  const inUse = apiKey.value === secret
  return (
    <section class="org-new-secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">{title}</h2>
      <p>
        The secret of <strong>{name}</strong>, shown this once: Strata keeps only its hash.
      </p>
      <div class="secret" role="status">
        <code data-testid="new-secret">{secret}</code>
        <CopyButton text={secret} label="Copy key" />
      </div>
      <p class="warning">
        Store it now, in a password manager or your deployment's secrets. It cannot be shown again.
      </p>
      <div class="row">
        <button type="button" class="secondary" disabled={inUse} onClick={() => useApiKey(secret)}>
          {inUse ? 'Used in the explorer' : 'Use in the explorer'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  )
}
