import type { Generated } from 'kysely'

/**
 * Table types. Times are epoch milliseconds (`*_at`) or ledger close times in epoch seconds
 * (`close_time`); ledger sequences are integers; amounts are decimal integer strings, never floats.
 */

export interface OrganizationsTable {
  id: string
  slug: string
  name: string
  plan: string
  billing_email: string | null
  created_at: number
  /** How the organization came to be: `admin` (admin endpoint or CLI) or `signup`. */
  created_by: 'admin' | 'signup'
  /** The highest plan the organization may choose itself; the operator raises it. */
  max_plan: string
}

export interface UsersTable {
  id: string
  organization_id: string
  email: string
  password_hash: string
  created_at: number
}

/** One row (`id` 1): raised by trigger on every write to a key or an organization (migration 009). */
export interface AuthGenerationTable {
  id: number
  generation: number | string
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  name: string
  prefix: string
  /** HMAC-SHA-256 (server pepper) of the full key, hex. */
  key_hash: string
  /** JSON array of scope strings. */
  scopes: string
  created_at: number
  last_used_at: number | null
  expires_at: number | null
  revoked_at: number | null
  /** The key that replaced this one when it was rotated; null otherwise. */
  replaced_by: string | null
}

export interface RefreshTokensTable {
  jti: string
  user_id: string
  expires_at: number
  revoked_at: number | null
  created_at: number
}

/** One security event of an organization. */
export interface AuditEventsTable {
  /** Write order, assigned by the database; cursors page on it. Never shown. */
  seq: Generated<number>
  id: string
  organization_id: string
  at: number
  action: string
  /** A user id, `admin`, or null (an unauthenticated attempt). */
  actor: string | null
  target: string | null
  client_ip: string | null
  /** JSON object of strings, or null. */
  details: string | null
}

/**
 * A request made with an `Idempotency-Key` (src/api/idempotency.ts), kept 24 hours from its start:
 * running while `response` is null, then its answer.
 */
export interface IdempotencyKeysTable {
  /** HMAC-SHA-256 (server pepper) of the caller's scope and the Idempotency-Key, hex. */
  lookup: string
  /** HMAC-SHA-256, under a key derived from the Idempotency-Key, of the method, path and body. */
  fingerprint: string
  /** When the request holding the key started (or took over an abandoned claim). */
  started_at: number
  expires_at: number
  /** The answer (status, headers, body), AES-256-GCM under a key derived from the Idempotency-Key. */
  response: string | null
}

export interface ServerSecretsTable {
  name: string
  value: string
}

/** Requests of an organization counted against its quota on one UTC day (`YYYY-MM-DD`). */
export interface OrganizationUsageTable {
  organization_id: string
  day: string
  requests: number
}

export interface LedgersTable {
  sequence: number
  hash: string
  /** Close time, epoch seconds. */
  close_time: number
}

export interface IndexerStateTable {
  /** One row per indexer stream; the main ledger stream is 'ledgers'. */
  name: string
  last_ledger: number
  /** The first ledger this stream ingested (set by its first batch, never moved). */
  first_ledger: number | null
  updated_at: number
}

export interface SnapshotsTable {
  protocol: string
  address: string
  ledger: number
  /** JSON array of the account's positions in this protocol at this ledger (empty when all closed). */
  positions: string
}

export interface ContractStateTable {
  /** The contract (C...) whose entry this is. */
  contract: string
  /** The protocol module's name for the entry, e.g. `ResData/C...` or `Config`. */
  key: string
  /** The ledger at which the entry took this value. */
  ledger: number
  /** JSON of the value as the contract stored it, integers as decimal strings. */
  value: string
}

export interface PricesTable {
  /** The oracle feed (C...) that recorded the price. */
  oracle: string
  /** The feed's name for the asset: a contract StrKey (C...) or a symbol (EUR, GBP). */
  asset: string
  ledger: number
  /** Price in the feed's base asset per unit, an integer with `decimals` decimals. */
  price: string
  /** The feed's own decimals, read from its instance storage. */
  decimals: number
  /** Oracle timestamp of the price, epoch milliseconds. */
  timestamp_ms: number
}

/** A transaction that touched a watched contract (failed ones too). */
export interface TransactionsTable {
  /** Lowercase hex. */
  hash: string
  ledger: number
  /** Its order among the ledger's transactions that touched a watched contract (apply order). */
  tx_order: number
  /** 1 or 0. */
  successful: number
  /** Stroops, decimal string. */
  fee_charged: string
  fee_account: string | null
  /** From the envelope, when the transaction invokes a watched contract. */
  source_account: string | null
  contract: string | null
  function: string | null
}

/**
 * One decoded protocol activity, keyed by its place in the chain. Table `activities` (created as
 * `actions` by migration 008, renamed by 010; its key and index keep 008's names).
 */
export interface ActivitiesTable {
  ledger: number
  tx_order: number
  /** Order of the event among the watched contracts' events of the transaction. */
  event_index: number
  protocol: string
  tx_hash: string
  operation: number
  type: string
  contract: string
  account: string
  /** The asset the activity moved, when it names one. */
  asset: string | null
  /** The amount of `asset` moved, decimal string in the asset's smallest units. */
  amount: string | null
  /** JSON of the module's own fields, integers as decimal strings. */
  details: string
}

/**
 * One row per account an activity concerns: an account's activities are one range scan. Table
 * `account_activities` (created as `account_actions` by migration 008, renamed by 010).
 */
export interface AccountActivitiesTable {
  account: string
  ledger: number
  tx_order: number
  event_index: number
  protocol: string
  type: string
}

export interface NetworksTable {
  /** 'current': the network the indexer ingests; its passphrase binds the store to that network. */
  name: string
  /** JSON NetworkConfig. */
  config: string
  updated_at: number
}

/** A webhook subscription (migration 012, docs/webhooks.md). */
export interface WebhooksTable {
  id: string
  organization_id: string
  url: string
  description: string | null
  /** JSON array of event types. */
  events: string
  /** JSON array of addresses; null: every account. */
  addresses: string | null
  /** JSON array of protocol names; null: every protocol. */
  protocols: string | null
  /** The health factor `health_factor.below` watches, as a decimal string; null without that event. */
  health_factor_threshold: string | null
  /** The signing secret, sealed (src/push/webhook-secrets.ts). */
  secret: string
  /** The secret before the last rotation, sealed; it also signs until `previous_secret_until`. */
  previous_secret: string | null
  previous_secret_until: number | null
  status: 'enabled' | 'disabled'
  disabled_reason: string | null
  created_at: number
  updated_at: number
  lease_owner: string | null
  lease_until: number
  next_attempt_at: number
  /** Every message of the subscription with `seq` at or below it is delivered or failed. */
  processed_seq: number
}

/** One event for one subscription: the outbox row, and its delivery's state. */
export interface WebhookMessagesTable {
  seq: Generated<number>
  webhook_id: string
  type: string
  ledger: number
  address: string
  protocol: string
  ref: string | null
  payload: string | null
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  created_at: number
  last_attempt_at: number | null
  last_status: number | null
  last_error: string | null
  delivered_at: number | null
}

export interface Schema {
  organizations: OrganizationsTable
  users: UsersTable
  api_keys: ApiKeysTable
  auth_generation: AuthGenerationTable
  refresh_tokens: RefreshTokensTable
  audit_events: AuditEventsTable
  server_secrets: ServerSecretsTable
  idempotency_keys: IdempotencyKeysTable
  organization_usage: OrganizationUsageTable
  ledgers: LedgersTable
  indexer_state: IndexerStateTable
  snapshots: SnapshotsTable
  contract_state: ContractStateTable
  prices: PricesTable
  networks: NetworksTable
  transactions: TransactionsTable
  activities: ActivitiesTable
  account_activities: AccountActivitiesTable
  webhooks: WebhooksTable
  webhook_messages: WebhookMessagesTable
}
