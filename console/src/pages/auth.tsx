/**
 * Sign up and log in. Signup creates the organization, its first user and its first API key, and
 * signs in at once: that key (shown once, as the API answers it) becomes the explorer's key.
 */

import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { type ApiError, plain, unwrap } from '../api.ts'
import { CopyButton } from '../components/address.tsx'
import { Field } from '../components/form.tsx'
import { ErrorNote, PageTitle } from '../components/status.tsx'
import { paths } from '../paths.ts'
import { signIn, useApiKey } from '../session.ts'

/** Where to go after signing in: the page that sent the person here, when it is one of the console's. */
function nextPage(query: Record<string, string>): string {
  const next = query.next
  return next?.startsWith(`${paths.home}`) && !next.startsWith('//') ? next : paths.organization
}

function fieldErrors(error: ApiError | null): Record<string, string> {
  const found: Record<string, string> = {}
  for (const detail of error?.details ?? [])
    if (detail.field && !found[detail.field]) found[detail.field] = detail.message
  return found
}

export function LoginPage() {
  const { route, query } = useLocation()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const tokens = await unwrap(plain.POST('/v1/auth/login', { body: { email, password } }))
      signIn(email, tokens)
      route(nextPage(query))
    } catch (failure) {
      setError(failure as ApiError)
    } finally {
      setBusy(false)
    }
  }
  const fields = fieldErrors(error)
  return (
    <section class="narrow">
      <PageTitle title="Log in">Manage your organization's API keys, usage and audit log.</PageTitle>
      {error && <ErrorNote error={error} title="Could not log in" />}
      <form onSubmit={submit} class="stack">
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          error={fields.email}
          onInput={(e: Event) => setEmail((e.target as HTMLInputElement).value)}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          error={fields.password}
          onInput={(e: Event) => setPassword((e.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <p>
        No account yet? <a href={paths.signup}>Sign up</a>.
      </p>
    </section>
  )
}

export function SignupPage() {
  const { route } = useLocation()
  const [form, setForm] = useState({ organization_name: '', organization_slug: '', email: '', password: '' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const [created, setCreated] = useState<{ key: string; slug: string } | null>(null)
  // From the latest state, not this render's: two inputs before a render (autofill, fast typing) both stay.
  const set = (name: keyof typeof form) => (event: Event) => {
    const value = (event.target as HTMLInputElement).value
    setForm((current) => ({ ...current, [name]: value }))
  }
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const answer = await unwrap(
        plain.POST('/v1/auth/signup', {
          body: form,
          // A second press after a lost answer is the same signup, not a second organization.
          headers: { 'idempotency-key': `console-signup-${form.email}-${form.organization_slug}` },
        }),
      )
      signIn(form.email, answer)
      useApiKey(answer.api_key.key)
      setCreated({ key: answer.api_key.key, slug: answer.organization_slug })
    } catch (failure) {
      setError(failure as ApiError)
    } finally {
      setBusy(false)
    }
  }
  if (created) {
    return (
      <section class="narrow">
        <PageTitle title="Your organization is ready">
          <code>{created.slug}</code> has its first API key. It is shown this once: Strata keeps only its
          hash.
        </PageTitle>
        <div class="secret" role="status">
          <code data-testid="new-secret">{created.key}</code>
          <CopyButton text={created.key} label="Copy key" />
        </div>
        <p class="warning">
          Store it now, in a password manager or your deployment's secrets. It cannot be shown again.
        </p>
        <p>The console uses this key for the explorer in this tab.</p>
        <button type="button" onClick={() => route(paths.organization)}>
          Continue to your organization
        </button>
      </section>
    )
  }
  const fields = fieldErrors(error)
  return (
    <section class="narrow">
      <PageTitle title="Sign up">
        An organization, its first user and its first API key, in one step.
      </PageTitle>
      {error && <ErrorNote error={error} title="Could not sign up" />}
      <form onSubmit={submit} class="stack">
        <Field
          id="organization_name"
          label="Organization name"
          required
          maxLength={200}
          value={form.organization_name}
          error={fields.organization_name}
          onInput={set('organization_name')}
        />
        <Field
          id="organization_slug"
          label="Organization slug"
          required
          value={form.organization_slug}
          error={fields.organization_slug}
          help="Lowercase letters, digits and dashes; it names the organization in URLs and the CLI."
          onInput={set('organization_slug')}
        />
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={form.email}
          error={fields.email}
          onInput={set('email')}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          value={form.password}
          error={fields.password}
          help="At least 10 characters."
          onInput={set('password')}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
      <p>
        Already have an account? <a href={paths.login}>Log in</a>.
      </p>
    </section>
  )
}
