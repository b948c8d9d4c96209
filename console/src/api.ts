/**
 * The console's two clients of the public API, both the typed client generated from the OpenAPI
 * document (`@strata/client`): `manage` sends the signed-in person's access token to the
 * management endpoints, `data` sends the picked API key to the data endpoints. Same origin only:
 * the console talks to the server that serves it, and to nothing else.
 */
import { createStrataClient } from '@strata/client'
import { apiKey, type Session, session, signIn, signOut, storedRefreshToken } from './session.ts'

/** An answer the API refused, worded as the API worded it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ field?: string; message: string }> = [],
  ) {
    super(message)
  }
}

const origin = window.location.origin

/** Refreshes the access token a minute before it ends; one refresh at a time. */
let refreshing: Promise<Session | null> | null = null

async function refresh(): Promise<Session | null> {
  const stored = session.value?.refreshToken ?? storedRefreshToken()?.token
  const email = session.value?.email ?? storedRefreshToken()?.email ?? ''
  if (!stored) return null
  refreshing ??= (async () => {
    try {
      const { data, response } = await plain.POST('/v1/auth/refresh', { body: { refresh_token: stored } })
      if (data) {
        signIn(email, { ...data, refresh_token: stored })
        return session.value
      }
      // Refused (revoked, ended): signed out. Another failure (network, 5xx) keeps the session.
      if (response.status === 401 || response.status === 400) signOut()
      return null
    } catch {
      return null
    } finally {
      refreshing = null
    }
  })()
  return refreshing
}

/** The access token to send now: the current one, or a fresh one when it ends within a minute. */
async function accessToken(): Promise<string | undefined> {
  const current = session.value
  if (current && current.accessExpiresAt - Date.now() > 60_000) return current.accessToken
  return (await refresh())?.accessToken
}

/** Turns a 401 of a management call into one silent refresh and a second try. */
async function fetchWithRefresh(request: Request): Promise<Response> {
  const retry = request.clone()
  const response = await fetch(request)
  if (response.status !== 401 || !request.headers.has('authorization')) return response
  const fresh = await refresh()
  if (!fresh) return response
  retry.headers.set('authorization', `Bearer ${fresh.accessToken}`)
  return fetch(retry)
}

/** For the calls that take no credential (signup, login, refresh). */
export const plain = createStrataClient({ baseUrl: origin })

/** Management endpoints, with the signed-in person's access token. */
export const manage = createStrataClient({ baseUrl: origin, accessToken, fetch: fetchWithRefresh })

/** Data endpoints, with the picked API key. */
export const data = createStrataClient({ baseUrl: origin, apiKey: () => apiKey.value ?? undefined })

/** Exchanges a stored refresh token for a session at start-up. */
export async function resume(): Promise<void> {
  if (storedRefreshToken() === null) return
  await refresh()
}

/**
 * The answer's data, or an `ApiError` with the API's own words. openapi-fetch answers
 * `{data, error, response}`; every refusal of the API is its error envelope.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  let answer: { data?: T; error?: unknown; response: Response }
  try {
    answer = await call
  } catch (error) {
    throw new ApiError(0, 'network', `The server could not be reached (${(error as Error).message}).`)
  }
  const { data: body, error, response } = answer
  if (response.ok && body !== undefined && body !== null) return body as NonNullable<T>
  if (response.ok && response.status === 204) return undefined as unknown as NonNullable<T>
  const envelope = (error as { error?: { code?: string; message?: string; details?: [] } } | undefined)?.error
  if (envelope?.message) {
    throw new ApiError(response.status, envelope.code ?? 'error', envelope.message, envelope.details ?? [])
  }
  throw new ApiError(
    response.status,
    'error',
    `The server answered ${response.status} ${response.statusText}.`,
  )
}
