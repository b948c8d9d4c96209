/**
 * The organization's API keys: the list, a new key (its secret shown once), rotation with an
 * overlap the person chooses (the new secret shown once the same way), and revocation after a
 * confirmation that names the key, which says so when it is the last active one.
 */
import '../org.css'
import { useState } from 'preact/hooks'
import { type ApiError, manage, unwrap } from '../api.ts'
import { RequireSession } from '../app.tsx'
import { Field } from '../components/form.tsx'
import { type KeyAction, KeyDialogs } from '../components/org-key-dialogs.tsx'
import { NewSecret } from '../components/org-secret.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { formatTime } from '../format.ts'
import { type ApiKeyRecord, activeKeyCount, keyState, loadKeys } from '../org-api.ts'
import { forget, useQuery } from '../query.ts'

export function KeysPage() {
  return (
    <RequireSession>
      <Keys />
    </RequireSession>
  )
}

interface Shown {
  title: string
  name: string
  secret: string
}

function Keys() {
  const keys = useQuery('keys', loadKeys)
  const [shown, setShown] = useState<Shown | null>(null)
  const [action, setAction] = useState<KeyAction | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const changed = (message: string) => {
    forget('keys')
    keys.reload()
    setNotice(message)
  }
  const activeCount = activeKeyCount(keys.data ?? [], Date.now())
  return (
    <>
      <PageTitle title="API keys">
        Keys send data requests (the <code>x-svc-token</code> header). Every key of the organization shares
        its quota.
      </PageTitle>
      {shown && (
        <NewSecret
          title={shown.title}
          name={shown.name}
          secret={shown.secret}
          onDone={() => setShown(null)}
        />
      )}
      {notice && (
        <p class="note" role="status">
          {notice}
        </p>
      )}
      <CreateKey
        onCreated={(name, secret) => {
          setShown({ title: 'Your new key', name, secret })
          changed(`The key ${name} was created.`)
        }}
      />
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {keys.error && <ErrorNote error={keys.error} title="Could not load the keys" />}
        {!keys.data && !keys.error && <Placeholder lines={4} label="Loading the keys" />}
        {keys.data && keys.data.length === 0 && (
          <Empty>This organization has no API key yet: create one above to send data requests.</Empty>
        )}
        {keys.data && keys.data.length > 0 && (
          <KeyTable keys={keys.data} onAction={(next) => setAction(next)} />
        )}
      </section>
      <KeyDialogs
        action={action}
        lastActive={activeCount <= 1}
        onClose={() => setAction(null)}
        onRotated={(key, secret, overlap) => {
          setShown({ title: 'The rotated key', name: key.name, secret })
          changed(`The key ${key.name} was rotated; ${overlap}`)
        }}
        onRevoked={(key) => {
          setShown(null)
          changed(`The key ${key.name} (${key.prefix}…) was revoked.`)
        }}
      />
    </>
  )
}

function KeyTable({ keys, onAction }: { keys: ApiKeyRecord[]; onAction: (action: KeyAction) => void }) {
  const now = Date.now()
  return (
    <div class="table-wrap">
      <table class="org-table" data-testid="keys-table">
        <caption class="visually-hidden">The organization's API keys, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const state = keyState(key, now)
            return (
              <tr key={key.id} data-key-id={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}</code>
                </td>
                <td>{key.scopes.length > 0 ? key.scopes.join(', ') : 'none'}</td>
                <td>
                  <time dateTime={key.created_at} title={key.created_at}>
                    {formatTime(key.created_at)}
                  </time>
                </td>
                <td>{key.last_used_at ? formatTime(key.last_used_at) : 'Never'}</td>
                <td>{key.expires_at ? formatTime(key.expires_at) : 'Never'}</td>
                <td>
                  <span class={`badge ${state.active ? 'ok' : 'bad'}`}>{state.label}</span>
                </td>
                <td class="org-actions">
                  {state.active && (
                    <>
                      <button
                        type="button"
                        class="link"
                        onClick={() => onAction({ kind: 'rotate', key })}
                        aria-label={`Rotate ${key.name} (${key.prefix})`}
                      >
                        Rotate
                      </button>
                      <button
                        type="button"
                        class="link"
                        onClick={() => onAction({ kind: 'revoke', key })}
                        aria-label={`Revoke ${key.name} (${key.prefix})`}
                      >
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** The end of a UTC day `YYYY-MM-DD` picked in a date input, as RFC 3339. */
function endOfDay(day: string): string {
  return `${day}T23:59:59Z`
}

function CreateKey({ onCreated }: { onCreated: (name: string, secret: string) => void }) {
  const [name, setName] = useState('')
  const [expires, setExpires] = useState('')
  const [readData, setReadData] = useState(true)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const created = await unwrap(
        manage.POST('/v1/org/api-keys/new', {
          body: {
            name: name.trim(),
            scopes: readData ? ['data:read'] : [],
            ...(expires ? { expires_at: endOfDay(expires) } : {}),
          },
        }),
      )
      onCreated(name.trim(), created.key)
      setName('')
      setExpires('')
    } catch (failure) {
      setError(failure as ApiError)
    } finally {
      setBusy(false)
    }
  }
  const field = (which: string) => error?.details.find((detail) => detail.field === which)?.message
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      {error && <ErrorNote error={error} title="Could not create the key" />}
      <form class="org-create" onSubmit={submit}>
        <Field
          id="key-name"
          label="Name"
          required
          maxLength={100}
          value={name}
          error={field('name')}
          help="What the key is for, such as the service that sends it."
          onInput={(event: Event) => setName((event.target as HTMLInputElement).value)}
        />
        <Field
          id="key-expires"
          label="Expires on (optional)"
          type="date"
          value={expires}
          error={field('expires_at')}
          help="The key stops working at the end of this day (UTC). Empty: it never expires."
          onInput={(event: Event) => setExpires((event.target as HTMLInputElement).value)}
        />
        <div class="org-check">
          <input
            id="key-scope-read"
            type="checkbox"
            checked={readData}
            onChange={(event) => setReadData((event.target as HTMLInputElement).checked)}
          />
          <label for="key-scope-read">
            Read data (<code>data:read</code>): without it the key authenticates but may call nothing
          </label>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
    </section>
  )
}
