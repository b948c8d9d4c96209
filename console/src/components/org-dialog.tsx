/**
 * A modal confirmation: the native <dialog> opened with showModal(), so focus moves into it, the
 * rest of the page is inert, and Escape cancels (the dialog's own `cancel` event).
 */
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

export function ConfirmDialog({
  id,
  title,
  open,
  onCancel,
  children,
}: {
  id: string
  title: string
  open: boolean
  onCancel: () => void
  children: ComponentChildren
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      class="org-dialog"
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      {open && (
        <>
          <h2 id={`${id}-title`}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  )
}
