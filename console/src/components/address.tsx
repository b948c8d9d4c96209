import { useState } from 'preact/hooks'
import { shortAddress } from '../format.ts'

/** Copies `text` to the clipboard; says "Copied" for a moment. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      setCopied(false)
    }
  }
  return (
    <button type="button" class="copy" onClick={copy} aria-label={`${copied ? 'Copied' : label}: ${text}`}>
      {copied ? 'Copied' : label}
    </button>
  )
}

/** An address or hash shortened, with its whole value in the title and a copy button; a link when `href` is given. */
export function Address({ value, href, keep = 4 }: { value: string; href?: string; keep?: number }) {
  const short = shortAddress(value, keep)
  return (
    <span class="address">
      {href ? (
        <a href={href} title={value}>
          <code>{short}</code>
        </a>
      ) : (
        <code title={value}>{short}</code>
      )}
      <CopyButton text={value} />
    </span>
  )
}
