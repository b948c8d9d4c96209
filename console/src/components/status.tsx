import type { ComponentChildren } from 'preact'
import type { ApiError } from '../api.ts'

/** An error in plain words: the API's own message, and what it refused in which field. */
export function ErrorNote({ error, title = 'The request failed' }: { error: ApiError; title?: string }) {
  return (
    <div class="note error" role="alert">
      <strong>{title}</strong>
      <p>{error.message}</p>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={`${detail.field}:${detail.message}`}>
              {detail.field ? `${detail.field}: ${detail.message}` : detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** A block that keeps its height while its data loads, so nothing below it moves when it arrives. */
export function Placeholder({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div class="placeholder" role="status" aria-live="polite" aria-busy="true">
      <span class="visually-hidden">{label}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} class="placeholder-line" />
      ))}
    </div>
  )
}

/** What an empty answer means, said in words. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>
}

/** A page's title and an optional line under it. */
export function PageTitle({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-title">
      <h1>{title}</h1>
      {children && <p class="lead">{children}</p>}
    </header>
  )
}
