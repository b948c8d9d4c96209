/**
 * Who is signed in, and the credentials the console sends. The access token lives in memory only;
 * the refresh token is kept in this browser's localStorage so a reload stays signed in, and is
 * revoked by "Log out". A fresh access token is asked for silently a minute before the current one
 * ends, and once more when the API answers 401 (src/api.ts). The API key the explorer uses is the
 * one the person picked (pasted, or one the console created or received at signup), kept in
 * sessionStorage: this tab only, gone when it closes.
 */
import { signal } from '@preact/signals'

const REFRESH_KEY = 'strata.console.refresh-token'
const EMAIL_KEY = 'strata.console.email'
const API_KEY = 'strata.console.api-key'

export interface Session {
  email: string
  accessToken: string
  /** When the access token ends, in epoch milliseconds. */
  accessExpiresAt: number
  refreshToken: string
}

/** The signed-in session, or null. A refresh token found at start-up is turned into one by `resume`. */
export const session = signal<Session | null>(null)

/** Whether a refresh token was found at start-up and is still being exchanged. */
export const resuming = signal<boolean>(readStorage(localStorageOrNull(), REFRESH_KEY) !== null)

/** The API key the explorer, protocols and pools pages send (`x-svc-token`). */
export const apiKey = signal<string | null>(readStorage(sessionStorageOrNull(), API_KEY))

export function storedRefreshToken(): { token: string; email: string } | null {
  const token = readStorage(localStorageOrNull(), REFRESH_KEY)
  return token === null ? null : { token, email: readStorage(localStorageOrNull(), EMAIL_KEY) ?? '' }
}

export function signIn(
  email: string,
  tokens: { access_token: string; refresh_token: string; expires_in: number },
) {
  writeStorage(localStorageOrNull(), REFRESH_KEY, tokens.refresh_token)
  writeStorage(localStorageOrNull(), EMAIL_KEY, email)
  session.value = {
    email,
    accessToken: tokens.access_token,
    accessExpiresAt: Date.now() + tokens.expires_in * 1000,
    refreshToken: tokens.refresh_token,
  }
  resuming.value = false
}

export function signOut() {
  writeStorage(localStorageOrNull(), REFRESH_KEY, null)
  writeStorage(localStorageOrNull(), EMAIL_KEY, null)
  session.value = null
  resuming.value = false
}

export function useApiKey(key: string | null) {
  writeStorage(sessionStorageOrNull(), API_KEY, key)
  apiKey.value = key
}

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

function readStorage(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null
  } catch {
    return null
  }
}

function writeStorage(storage: Storage | null, key: string, value: string | null) {
  try {
    if (value === null) storage?.removeItem(key)
    else storage?.setItem(key, value)
  } catch {
    // Storage refused (private mode, quota): the session lasts as long as the page.
  }
}
