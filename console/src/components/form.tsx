import type { ComponentChildren, InputHTMLAttributes } from 'preact'

/** A labelled input whose error (a field the API refused) is announced and tied to it. */
export function Field({
  id,
  label,
  error,
  help,
  ...input
}: {
  id: string
  label: string
  error?: string | undefined
  help?: ComponentChildren
} & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [error ? `${id}-error` : null, help ? `${id}-help` : null].filter(Boolean).join(' ')
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {help && (
        <p id={`${id}-help`} class="help">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
