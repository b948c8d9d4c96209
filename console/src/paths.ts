/**
 * Every page's address, in one place. The console lives under /console; its URLs carry what a
 * page shows (an address, a ledger, a pool), so a URL can be shared and opens the same view.
 */
export const BASE = '/console'

export const paths = {
  home: `${BASE}/`,
  login: `${BASE}/login`,
  signup: `${BASE}/signup`,
  organization: `${BASE}/organization`,
  keys: `${BASE}/keys`,
  audit: `${BASE}/audit-log`,
  explorer: `${BASE}/explorer`,
  /** `time`: the instant the ledger was chosen by (ISO 8601), kept so the page can say so. */
  account: (address: string, ledger?: number | 'latest', time?: string) =>
    ledger === undefined || ledger === 'latest'
      ? `${BASE}/accounts/${encodeURIComponent(address)}`
      : `${BASE}/accounts/${encodeURIComponent(address)}/at/${ledger}${time ? `?time=${encodeURIComponent(time)}` : ''}`,
  transaction: (hash: string) => `${BASE}/transactions/${encodeURIComponent(hash)}`,
  protocols: `${BASE}/protocols`,
  protocol: (name: string) => `${BASE}/protocols/${encodeURIComponent(name)}`,
  pool: (protocol: string, pool: string) =>
    `${BASE}/protocols/${encodeURIComponent(protocol)}/pools/${encodeURIComponent(pool)}`,
} as const
