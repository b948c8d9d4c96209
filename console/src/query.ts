/**
 * The console's data-fetching layer: one hook that loads a value for a key, keeps the previous
 * value on screen while the next key loads (no flash, no layout shift), ignores answers that come
 * back after the key changed, and keeps a small in-memory cache so going back is instant.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from './api.ts'

export interface Query<T> {
  data: T | undefined
  error: ApiError | undefined
  /** True while an answer for the current key is awaited. */
  loading: boolean
  reload(): void
}

const CACHE_MAX = 100
const cache = new Map<string, unknown>()

function remember(key: string, value: unknown) {
  cache.delete(key)
  cache.set(key, value)
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string)
}

/** Forgets every kept answer whose key starts with `prefix` (after a change the console made). */
export function forget(prefix: string) {
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key)
}

/** Loads `load()` for `key`; a null key loads nothing. */
export function useQuery<T>(key: string | null, load: () => Promise<T>): Query<T> {
  const [state, setState] = useState<{ key: string | null; data?: T; error?: ApiError; loading: boolean }>(
    () => ({
      key,
      data: key !== null ? (cache.get(key) as T | undefined) : undefined,
      loading: key !== null && !cache.has(key),
    }),
  )
  const [round, setRound] = useState(0)
  const current = useRef(key)
  current.current = key
  const loader = useRef(load)
  loader.current = load

  useEffect(() => {
    if (key === null) {
      setState({ key, loading: false })
      return
    }
    const kept = cache.get(key) as T | undefined
    setState((previous) => ({
      key,
      data: kept ?? previous.data,
      error: undefined,
      loading: kept === undefined || round > 0,
    }))
    let live = true
    loader
      .current()
      .then((data) => {
        remember(key, data)
        if (live && current.current === key) setState({ key, data, loading: false })
      })
      .catch((error: unknown) => {
        if (!live || current.current !== key) return
        const failure =
          error instanceof ApiError
            ? error
            : new ApiError(0, 'error', (error as Error).message ?? String(error))
        setState({ key, error: failure, loading: false })
      })
    return () => {
      live = false
    }
  }, [key, round])

  const reload = useCallback(() => setRound((r) => r + 1), [])
  return { data: state.data, error: state.error, loading: state.loading, reload }
}
