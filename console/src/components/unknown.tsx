import { reasonText } from '../reasons.ts'

/** An unknown figure: "—" with the API's reason in words when it gives one (null is never 0). */
export function Unknown({ reason }: { reason: string | null | undefined }) {
  return <span title={reason ?? undefined}>{reason ? `— (${reasonText(reason)})` : '—'}</span>
}
