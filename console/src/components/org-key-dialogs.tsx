/**
 * The two confirmations of the keys page. Rotate: the person chooses how long the old key keeps
 * working (at most the week the API allows). Revoke: the dialog names the key and, when it is the
 * organization's last active key, asks for the explicit confirmation the API requires; a refusal is
 * shown in the API's own words.
 */
import { useEffect, useState } from 'preact/hooks'
import { ApiError, manage, unwrap } from '../api.ts'
import type { ApiKeyRecord } from '../org-api.ts'
import { ConfirmDialog } from './org-dialog.tsx'
import { ErrorNote } from './status.tsx'

export type KeyAction = { kind: 'rotate' | 'revoke'; key: ApiKeyRecord }

/** The overlaps offered, in seconds; the API takes 0 to one week. */
export const OVERLAPS: Array<{ seconds: number; label: string }> = [
  { seconds: 0, label: 'None: the old key stops at once' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 604_800, label: '1 week' },
]

export function KeyDialogs({
  action,
  lastActive,
  onClose,
  onRotated,
  onRevoked,
}: {
  action: KeyAction | null
  lastActive: boolean
  onClose: () => void
  onRotated: (key: ApiKeyRecord, secret: string, overlap: string) => void
  onRevoked: (key: ApiKeyRecord) => void
}) {
  const [overlap, setOverlap] = useState(3_600)
  const [confirmLast, setConfirmLast] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const [needsConfirm, setNeedsConfirm] = useState(false)
  useEffect(() => {
    setError(null)
    setConfirmLast(false)
    setNeedsConfirm(false)
    setOverlap(3_600)
  }, [action])
  const key = action?.key
  const rotate = async () => {
    if (!key) return
    setBusy(true)
    setError(null)
    try {
      const created = await unwrap(
        manage.POST('/v1/org/api-keys/{id}/rotate', {
          params: { path: { id: key.id } },
          body: { old_key_expires_in_seconds: overlap },
        }),
      )
      const chosen = OVERLAPS.find((o) => o.seconds === overlap)
      onRotated(
        key,
        created.key,
        overlap === 0
          ? 'the old key no longer works.'
          : `the old key keeps working for ${chosen?.label ?? `${overlap} s`}.`,
      )
      onClose()
    } catch (failure) {
      setError(failure as ApiError)
    } finally {
      setBusy(false)
    }
  }
  const revoke = async () => {
    if (!key) return
    setBusy(true)
    setError(null)
    try {
      const sure = (lastActive || needsConfirm) && confirmLast
      await unwrap(
        manage.DELETE('/v1/org/api-keys/{id}', {
          params: { path: { id: key.id }, query: sure ? { confirm: 'last_key' } : {} },
        }),
      )
      onRevoked(key)
      onClose()
    } catch (failure) {
      // The API refuses the last active key without the confirmation: ask for it in words.
      if (failure instanceof ApiError && failure.status === 409) setNeedsConfirm(true)
      setError(failure as ApiError)
    } finally {
      setBusy(false)
    }
  }
  const askLast = lastActive || needsConfirm
  return (
    <>
      <ConfirmDialog
        id="rotate-dialog"
        title={key ? `Rotate ${key.name}?` : 'Rotate'}
        open={action?.kind === 'rotate'}
        onCancel={onClose}
      >
        {key && (
          <form
            class="stack"
            onSubmit={(event) => {
              event.preventDefault()
              void rotate()
            }}
          >
            <p>
              A new key replaces <strong>{key.name}</strong> (<code>{key.prefix}…</code>) with the same name,
              scopes and expiry. Its secret is shown once.
            </p>
            {error && <ErrorNote error={error} title="Could not rotate the key" />}
            <div class="field">
              <label for="rotate-overlap">How long the old key keeps working</label>
              <select
                id="rotate-overlap"
                value={String(overlap)}
                onChange={(event) => setOverlap(Number((event.target as HTMLSelectElement).value))}
              >
                {OVERLAPS.map((option) => (
                  <option key={option.seconds} value={String(option.seconds)}>
                    {option.label}
                  </option>
                ))}
              </select>
              <p class="help">
                Time to deploy the new key before the old one is refused (never past its expiry).
              </p>
            </div>
            <div class="row">
              <button type="submit" disabled={busy}>
                {busy ? 'Rotating…' : 'Rotate key'}
              </button>
              <button type="button" class="secondary" onClick={onClose}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        id="revoke-dialog"
        title={key ? `Revoke ${key.name}?` : 'Revoke'}
        open={action?.kind === 'revoke'}
        onCancel={onClose}
      >
        {key && (
          <form
            class="stack"
            onSubmit={(event) => {
              event.preventDefault()
              void revoke()
            }}
          >
            <p>
              <strong>{key.name}</strong> (<code>{key.prefix}…</code>) will be refused on every later request.
              This cannot be undone.
            </p>
            {error && <ErrorNote error={error} title="Could not revoke the key" />}
            {askLast && (
              <div class="org-check warning">
                <input
                  id="revoke-last"
                  type="checkbox"
                  checked={confirmLast}
                  onChange={(event) => setConfirmLast((event.target as HTMLInputElement).checked)}
                />
                <label for="revoke-last">
                  This is the organization's last active key: no data request authenticates until a new key is
                  created. Revoke it anyway.
                </label>
              </div>
            )}
            <div class="row">
              <button type="submit" class="danger" disabled={busy || (askLast && !confirmLast)}>
                {busy ? 'Revoking…' : 'Revoke key'}
              </button>
              <button type="button" class="secondary" onClick={onClose}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </ConfirmDialog>
    </>
  )
}
