/**
 * The console's shell: the header with its navigation, and the router. Each page is one file of
 * pages/, loaded when first visited (the organization pages do not carry the charts' code).
 */
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso'
import { manage } from './api.ts'
import { LoginPage, SignupPage } from './pages/auth.tsx'
import { NotFound } from './pages/not-found.tsx'
import { BASE, paths } from './paths.ts'
import { resuming, session, signOut } from './session.ts'

const OrganizationPage = lazy(() => import('./pages/organization.tsx').then((m) => m.OrganizationPage))
const KeysPage = lazy(() => import('./pages/keys.tsx').then((m) => m.KeysPage))
const AuditLogPage = lazy(() => import('./pages/audit-log.tsx').then((m) => m.AuditLogPage))
const ExplorerPage = lazy(() => import('./pages/explorer.tsx').then((m) => m.ExplorerPage))
const AccountPage = lazy(() => import('./pages/account.tsx').then((m) => m.AccountPage))
const TransactionPage = lazy(() => import('./pages/transaction.tsx').then((m) => m.TransactionPage))
const ProtocolsPage = lazy(() => import('./pages/protocols.tsx').then((m) => m.ProtocolsPage))
const ProtocolPage = lazy(() => import('./pages/protocol.tsx').then((m) => m.ProtocolPage))
const PoolPage = lazy(() => import('./pages/pool.tsx').then((m) => m.PoolPage))

/** The navigation's entries; the current page is marked for screen readers and styles. */
const NAV: Array<{ href: string; label: string; signedIn?: boolean }> = [
  { href: paths.organization, label: 'Organization', signedIn: true },
  { href: paths.keys, label: 'API keys', signedIn: true },
  { href: paths.audit, label: 'Audit log', signedIn: true },
  { href: paths.explorer, label: 'Explorer' },
  { href: paths.protocols, label: 'Protocols' },
]

function Header() {
  const { path } = useLocation()
  const signedIn = session.value !== null
  const logOut = async () => {
    const refreshToken = session.value?.refreshToken
    if (refreshToken)
      await manage.POST('/v1/auth/logout', { body: { refresh_token: refreshToken } }).catch(() => {})
    signOut()
  }
  return (
    <header class="site-header">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <a class="brand" href={paths.home}>
        Strata
      </a>
      <nav aria-label="Console">
        <ul>
          {NAV.filter((item) => !item.signedIn || signedIn).map((item) => {
            const current = path === item.href || path.startsWith(`${item.href}/`)
            return (
              <li key={item.href}>
                <a href={item.href} aria-current={current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            )
          })}
        </ul>
      </nav>
      <div class="account">
        {signedIn ? (
          <>
            <span class="who">{session.value?.email}</span>
            <button type="button" class="link" onClick={logOut}>
              Log out
            </button>
          </>
        ) : (
          <a href={paths.login}>Log in</a>
        )}
      </div>
    </header>
  )
}

/** Pages that need a signed-in person send the others to the login page, and back after it. */
export function RequireSession({ children }: { children: ComponentChildren }) {
  const { route, url } = useLocation()
  const signedIn = session.value !== null
  useEffect(() => {
    // The signals' values now, not the render's: a render that began before a refresh finished can
    // carry `signedIn` false into an effect that runs after the session arrived.
    if (session.value === null && !resuming.value)
      route(`${paths.login}?next=${encodeURIComponent(url)}`, true)
  }, [signedIn, resuming.value, url])
  return signedIn ? <>{children}</> : null
}

function Home() {
  const { route } = useLocation()
  useEffect(() => {
    if (!resuming.value) route(session.value ? paths.organization : paths.explorer, true)
  }, [resuming.value])
  return null
}

/** Moves focus to the page's heading after a navigation, so keyboard and screen reader users land on it. */
function FocusOnNavigate() {
  const { path } = useLocation()
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const target = document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main')
    target?.setAttribute('tabindex', '-1')
    target?.focus({ preventScroll: false })
  }, [path])
  return null
}

export function App() {
  return (
    <LocationProvider scope={BASE}>
      <Header />
      <FocusOnNavigate />
      <main id="main">
        <ErrorBoundary>
          <Router>
            <Route path={paths.home} component={Home} />
            <Route path={BASE} component={Home} />
            <Route path={paths.login} component={LoginPage} />
            <Route path={paths.signup} component={SignupPage} />
            <Route path={paths.organization} component={OrganizationPage} />
            <Route path={paths.keys} component={KeysPage} />
            <Route path={paths.audit} component={AuditLogPage} />
            <Route path={paths.explorer} component={ExplorerPage} />
            <Route path={`${BASE}/accounts/:address`} component={AccountPage} />
            <Route path={`${BASE}/accounts/:address/at/:ledger`} component={AccountPage} />
            <Route path={`${BASE}/transactions/:hash`} component={TransactionPage} />
            <Route path={paths.protocols} component={ProtocolsPage} />
            <Route path={`${BASE}/protocols/:protocol`} component={ProtocolPage} />
            <Route path={`${BASE}/protocols/:protocol/pools/:pool`} component={PoolPage} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
    </LocationProvider>
  )
}
