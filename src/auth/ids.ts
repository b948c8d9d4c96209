import { randomBytes } from 'node:crypto'

/** Prefixed random identifiers (`org_…`, `usr_…`, `key_…`, `wh_…`): readable in logs, unguessable. */
export function newId(prefix: 'org' | 'usr' | 'key' | 'rt' | 'wh'): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`
}
