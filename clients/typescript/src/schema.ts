/**
 * Generated from Strata's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run client:generate` after changing a route; CI runs
 * `npm run client:check`, which fails when this file differs from what the document generates.
 */

export interface paths {
  '/v1/health': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get service health
     * @description Unauthenticated; answers within a few seconds whatever the database does. 503 when the database cannot be read; 200 with `degraded` and the `problems` when answers are served but something is wrong.
     */
    get: operations['getHealth']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/health/live': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Check liveness
     * @description Unauthenticated; reads nothing. 200 whenever the process serves HTTP: a liveness probe restarts the process only when this fails. A database outage or a stale index does not fail it (restarting would not help); see `/v1/health/ready`.
     */
    get: operations['getLiveness']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/health/ready': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Check readiness
     * @description Unauthenticated; one read of the indexer checkpoint, answered within a few seconds whatever the database does. 503 with the `reasons` when this replica should not receive traffic: the database cannot be read, nothing is indexed yet, or the last indexed ledger closed longer ago than `STRATA_READY_MAX_LAG_S`. 200 otherwise.
     */
    get: operations['getReadiness']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/auth/signup': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Sign up organization
     * @description Creates an organization, its first user and its first API key (`api_key`, shown once), and logs that user in. Throttled per client address, every attempt counted before anything is looked up. An email that has a user is 409 saying so (login does not tell, signup must): the signup throttle bounds how many emails an address can test. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['signUp']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/auth/login': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Log in
     * @description Exchanges an email and password for an access token and a refresh token.
     */
    post: operations['logIn']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/auth/refresh': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Refresh an access token
     * @description Exchanges a valid refresh token for a new access token without logging in again.
     */
    post: operations['refreshAccessToken']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/auth/logout': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Log out
     * @description Revokes the given refresh token of the calling user: it refreshes nothing from then on. Revoking it twice is not an error. Access tokens are not revoked: one already issued stays valid until its `exp` (`expires_in` of login and refresh, 900 s by default), so a client discards it when it logs out.
     */
    post: operations['logOut']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/api-keys': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * List API keys
     * @description Every key of the caller's organization, newest first. Never the secret: prefix and metadata only.
     */
    get: operations['listApiKeys']
    put?: never
    /**
     * Create an organization and an API key
     * @description Creates the organization (or reuses the one with this slug, unchanged) and a new key. The `key` value appears only in this response; only its HMAC is stored. A slug taken by self-service signup is 409 unless `reuse_signup_organization` is true. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['createOrganizationApiKey']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/api-keys/new': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Create an API key for your organization
     * @description Creates a key of the caller's organization, named and scoped by the caller. The `key` value appears only in this response; only its HMAC is stored. An organization may hold at most 5 active (neither revoked nor expired) keys on the free plan, 25 on pro and 100 on enterprise: one more is 409, naming the limit and the plan. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['createApiKey']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/api-keys/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    post?: never
    /**
     * Revoke an API key
     * @description The key is refused on every later request. Revoking a revoked key answers 204 again. Revoking the organization's last active key is 409 unless `confirm=last_key` says it is meant: without a key no data request authenticates until a new one is created.
     */
    delete: operations['revokeApiKey']
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/api-keys/{id}/rotate': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Rotate an API key
     * @description Creates a new key with the same name, scopes and expiry (shown once) and lets the old key live `old_key_expires_in_seconds` more (default 0: refused at once), never past its own expiry. A revoked, expired or already rotated key is 409. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['rotateApiKey']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/webhooks': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * List webhook subscriptions
     * @description The caller's organization's subscriptions, newest first. Never the secret.
     */
    get: operations['listWebhooks']
    put?: never
    /**
     * Create a webhook subscription
     * @description Subscribes an https endpoint to the events of the accounts and protocols it names. The signing secret (`secret`) appears only in this response and in a rotation's; it is stored sealed. An organization may hold at most 2 subscriptions on the free plan, 20 on pro and 100 on enterprise: one more is 409, naming the limit and the plan. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['createWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/webhooks/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get a webhook subscription
     * @description One of the organization's subscriptions. Never the secret.
     */
    get: operations['getWebhook']
    put?: never
    post?: never
    /**
     * Delete a webhook subscription
     * @description The subscription and its undelivered and delivered messages are deleted; nothing more is sent.
     */
    delete: operations['deleteWebhook']
    options?: never
    head?: never
    /**
     * Update a webhook subscription
     * @description Changes any of the fields given, checked as at creation. `status` `disabled` stops deliveries; `enabled` resumes them at once, clearing `disabled_reason`. Removing `health_factor.below` from `events` clears the threshold.
     */
    patch: operations['updateWebhook']
    trace?: never
  }
  '/v1/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Rotate a webhook subscription's signing secret
     * @description Makes a new signing secret (shown in this response only). For 24 hours (until `previous_secret_expires_at`) each delivery is signed with both the new and the previous secret, so the receiver can switch without refusing a delivery. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['rotateWebhookSecret']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/webhooks/{id}/deliveries': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * List a webhook subscription's deliveries
     * @description Its messages, newest first, with the state of their delivery: `pending` (not yet delivered; retried on its schedule), `delivered` or `failed` (retries exhausted). `status` keeps those of one state.
     */
    get: operations['listWebhookDeliveries']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get the caller's organization
     * @description The caller's organization: its name and slug, its plan and the highest plan the operator allows it, the quota that plan gives its API keys, and its billing email.
     */
    get: operations['getOrganization']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/usage': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get the organization's usage
     * @description The organization's quota and how much of it its API keys have used: the requests counted in the current rate-limit window (every key of the organization shares it), and the requests of each of the last 30 UTC days. A request counts when the quota counts it: every data request made with one of its keys, including one refused with 429 because the quota was spent. Reading this answer counts nothing. The day counts include this instance's requests at once and other instances' within `LAST_USED_FLUSH_MS` (about a second).
     */
    get: operations['getOrganizationUsage']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/org/billing': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    /**
     * Update billing
     * @description Changes the plan (the organization's quota changes at once) and/or the billing email. An organization may choose `free` and any plan up to the one the operator allows it (`strata set-plan`); a higher plan is 403 `forbidden`. Plan changes are recorded in the audit log.
     */
    patch: operations['updateBilling']
    trace?: never
  }
  '/v1/org/audit-log': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * List the organization's security events
     * @description Newest first, filtered by `action`, `since` and `until` when given (ask every page with the same filter): organization created and plan changed; user created, login, failed login and logout; API key created, rotated and revoked; webhook subscription created, updated, enabled, disabled, its secret rotated, and deleted. Each event is written in the same transaction as the change it records.
     */
    get: operations['listAuditLog']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/vaultprotocol': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Vault positions
     * @description The latest snapshot at or before `as_of_ledger` (latest state when omitted). Amounts are at the vintage of the snapshot served and are not carried to the pin; `meta.as_of_ledger` is the ledger of that snapshot, null when the pin predates the first one.
     */
    get: operations['getVaultPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/vaultprotocol/at/{ledger}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Vault positions valued at a ledger
     * @description The same vaults as the snapshot surface, valued at the ledger: FxDAO stores debt plainly (no rate, no accrual), so amounts are those of the latest snapshot at or before the ledger and `rate_ledger` is null; USD uses prices at or before the ledger. For a position far below the ledger the USD values of the two surfaces differ by design. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null, as with no pin).
     */
    get: operations['getVaultPositionsAt']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/vaultprotocol/history': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Vault positions: history
     * @description Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.
     */
    get: operations['getVaultPositionsHistory']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/lendingprotocol': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Lending positions (Blend v2 pools)
     * @description The latest snapshot at or before `as_of_ledger` (latest state when omitted): one row per (pool, reserve, supply | collateral | borrow) from the pool's `Positions` entry, and one group per pool with Blend's health factor, borrow limit and claimable BLND. Each row converts its b- or d-tokens with the reserve's rate as the pool last wrote it at or before that row's own `ledger` (not accrued forward), USD with prices at `meta.as_of_ledger`: sweeping pins over a dormant account returns identical data.
     */
    get: operations['getLendingPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/lendingprotocol/at/{ledger}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Lending positions valued at a ledger
     * @description The same balances as the snapshot surface, converted with each reserve's latest `ResData` at or before the ledger (its ledger is `rate_ledger`), priced at the ledger, with claimable BLND brought up to the ledger's close time. Rates are exactly as the pool last wrote them, not projected to the ledger's time; for a balance far below the ledger the two surfaces answer different amounts by design. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null, as with no pin).
     */
    get: operations['getLendingPositionsAt']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/lendingprotocol/history': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Lending positions (Blend v2 pools): history
     * @description Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.
     */
    get: operations['getLendingPositionsHistory']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/ammprotocol': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * AMM liquidity positions (Soroswap pairs)
     * @description The latest snapshot at or before `as_of_ledger` (latest state when omitted): per pair the account holds LP tokens of, two rows (one per token) and one group with its share of the pool. Each amount is floor(LP balance × reserve_i / total_supply) with the pair's reserves and supply as last written at or before that balance's own `ledger`, USD with prices at `meta.as_of_ledger`: a dormant LP reads the same at every pin. The 1,000 LP units locked to the pair are nobody's position.
     */
    get: operations['getAmmPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/ammprotocol/at/{ledger}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * AMM liquidity positions valued at a ledger
     * @description The same LP balances as the snapshot surface, valued with the pair's reserves and total supply as last written at or before the ledger (`rate_ledger`) and prices at the ledger. A swap moves every LP's answer here without writing them a snapshot. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null, as with no pin).
     */
    get: operations['getAmmPositionsAt']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/ammprotocol/history': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * AMM liquidity positions (Soroswap pairs): history
     * @description Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.
     */
    get: operations['getAmmPositionsHistory']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/yieldprotocol': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Yield positions (DeFindex vaults)
     * @description The latest snapshot at or before `as_of_ledger` (latest state when omitted): one row per (vault, asset) with the account's df-tokens from the vault's `Balance` entry, and one group per vault. Each row is valued with the vault's price per share computed from its state as it stood at that row's own `ledger` (idle funds + each strategy's balance from its shares, its `Reserves` and the Blend pool's stored b_rate, less locked fees), USD with prices at `meta.as_of_ledger`: sweeping pins over a dormant holder returns identical data.
     */
    get: operations['getYieldPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/yieldprotocol/at/{ledger}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Yield positions valued at a ledger
     * @description The same df-tokens as the snapshot surface, valued with the vault's state at the ledger: its price per share as `fetch_total_managed_funds` computes it with the Blend reserve's b_rate as the pool last stored it at or before the ledger (not projected to the ledger's time); `rate_ledger` is the latest ledger at which an entry used was written. A dormant holder's value grows with the reserve's stored b_rate. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null, as with no pin).
     */
    get: operations['getYieldPositionsAt']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/yieldprotocol/history': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Yield positions (DeFindex vaults): history
     * @description Every snapshot of the account in this protocol with `from_ledger <= ledger <= to_ledger` (both inclusive, both optional), newest first, a page of `limit` at a time. Each item is the snapshot surface at that ledger (`data` and `enrichment` exactly as `?as_of_ledger=<ledger>` answers them), with the ledger's close time. `meta.next_cursor` continues with older snapshots; it is null on the last page. A cursor stays valid while the indexer keeps ingesting: new snapshots are newer than any page already served.
     */
    get: operations['getYieldPositionsHistory']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Positions in every protocol
     * @description What the account held: every protocol's snapshot surface at `as_of_ledger` (latest when omitted), one section per protocol in that protocol's own shape with its own `as_of_ledger`, `valuation_ledger` (its snapshot's own ledger) and `partial_result`, plus USD totals per section and overall. Values at different ledgers are never added: unless every section that holds something was valued at one ledger, the overall totals are null with `usd_unavailable_reason` `valuation_ledgers_differ` and a hint naming `/v1/users/{address}/positions/at/{ledger}`, which values every protocol at one ledger. A total is also null when any part of it is unpriced, with the reason. `meta.partial_result` is true when any section's is.
     */
    get: operations['getAllPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/positions/at/{ledger}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Positions in every protocol, valued at a ledger
     * @description What the account's positions are worth at `{ledger}`: every protocol's `/at/{ledger}` surface (the latest snapshot at or before the ledger, its shares converted with the rates and valued with the prices at or before the ledger), one section per protocol in that protocol's own shape, plus USD totals per section and overall. Every section is valued at the one ledger (`meta.valuation_ledger`), so the overall totals are the sums of the sections'. `{ledger}` may be `latest`: the last indexed ledger (what the positions are worth now; `meta.requested_ledger` is then null). A ledger above the indexed head is answered at the head, partial.
     */
    get: operations['getAllPositionsAt']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * List protocols
     * @description Every protocol Strata answers for, in a fixed order and paged like every list, with its kind, the network's contracts it reads (contract address, name, version, status, position types, whether their whole history is indexed) and the indexed ledger range. A protocol the network has no contract of is listed with none.
     */
    get: operations['listProtocols']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/ledgers/at-time': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Find the ledger at a time
     * @description The latest indexed ledger closed at or before `time`: the ledger to pin (`as_of_ledger`, `/at/{ledger}`) for an answer as it stood then. `data` is null when `time` is before the first indexed ledger's close time (what closed then is unknown, not nothing). After the checkpoint's close time the answer is the checkpoint, with `partial_result: true`: later ledgers are not indexed yet. Only ledgers at or below the checkpoint are considered.
     */
    get: operations['getLedgerAtTime']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/transactions/{hash}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get transaction
     * @description A transaction that touched a watched contract: its ledger, close time, success, fee and fee account, and the protocol actions decoded from it (none for a failed transaction: nothing it did took effect). 404 for a transaction that touched no watched contract, or one the store has not ingested.
     */
    get: operations['getTransaction']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/activities': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get activities
     * @description The account's decoded protocol actions with `from_ledger <= ledger <= to_ledger` (inclusive, optional), of one `protocol` and one `type` when given, newest first (by ledger, transaction order, event order), a page of `limit` at a time. Each names what it moved (`legs`: assets and protocol tokens, in their own units) and its USD value at its own ledger. `meta.next_cursor` continues with older actions (null on the last page); a cursor stays valid while the indexer keeps ingesting, since new actions are newer than any page served.
     */
    get: operations['listActivities']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/users/{address}/activities/series': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Get activity series
     * @description The account's actions with `from_ledger <= ledger <= to_ledger` (of one `protocol` when given) counted per UTC hour or day of their ledgers' close times, oldest bucket first, with the USD volume of the priced ones (each at its own ledger's prices). Buckets without an action are left out.
     */
    get: operations['getActivitySeries']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/vaultprotocol/tvl': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * vaultprotocol TVL
     * @description From FxDAO's own totals, `VaultsInfo(denomination)` in the vaults contract's instance storage as last written at or before the ledger: `locked` is the XLM collateral of every vault (Σ total_col), `borrowed` each denomination's debt in its stablecoin (total_debt, whose `locked` is null: the contract mints it, it holds none). Without `interval`: the TVL at `as_of_ledger` (the head when omitted; an answer in the state shape). With `interval=hour|day`: a series over `from_ledger`..`to_ledger` (inclusive; the indexed range when omitted), one point per UTC bucket of ledger close times, each valued at the bucket's last ledger (at most 1000 buckets). USD uses the prices at or before each point's ledger, each asset through the source the network description names for it (as in every answer).
     */
    get: operations['getVaultTvl']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/lendingprotocol/tvl': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * lendingprotocol TVL
     * @description Per asset over every Blend pool: `locked` = supplied − borrowed (the underlying the pools hold, DefiLlama's convention for lending) and `borrowed`, from each reserve's `ResData` as last written at or before the ledger (b_supply × b_rate rounded down, d_supply × d_rate rounded up, 12-decimal rates). Without `interval`: the TVL at `as_of_ledger` (the head when omitted; an answer in the state shape). With `interval=hour|day`: a series over `from_ledger`..`to_ledger` (inclusive; the indexed range when omitted), one point per UTC bucket of ledger close times, each valued at the bucket's last ledger (at most 1000 buckets). USD uses the prices at or before each point's ledger, each asset through the source the network description names for it (as in every answer).
     */
    get: operations['getLendingTvl']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/ammprotocol/tvl': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * ammprotocol TVL
     * @description Per token over every Soroswap pair: `locked` = Σ the pair's reserve of that token (`Reserve0`/`Reserve1` in its instance storage as last written at or before the ledger); `borrowed` is null (a pair lends nothing). Without `interval`: the TVL at `as_of_ledger` (the head when omitted; an answer in the state shape). With `interval=hour|day`: a series over `from_ledger`..`to_ledger` (inclusive; the indexed range when omitted), one point per UTC bucket of ledger close times, each valued at the bucket's last ledger (at most 1000 buckets). USD uses the prices at or before each point's ledger, each asset through the source the network description names for it (as in every answer).
     */
    get: operations['getAmmTvl']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/yieldprotocol/tvl': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * yieldprotocol TVL
     * @description Per asset over every DeFindex vault: `locked` = Σ the vault's total managed funds of that asset (idle balance + each strategy's balance less its locked fee, as `fetch_total_managed_funds` computes them, with the Blend reserve's b_rate as last stored at or before the ledger), from state as last written at or before the ledger; `borrowed` is null (a vault lends nothing itself). What a strategy supplies to a Blend pool the lending protocol also watches is in that protocol's TVL too. Without `interval`: the TVL at `as_of_ledger` (the head when omitted; an answer in the state shape). With `interval=hour|day`: a series over `from_ledger`..`to_ledger` (inclusive; the indexed range when omitted), one point per UTC bucket of ledger close times, each valued at the bucket's last ledger (at most 1000 buckets). USD uses the prices at or before each point's ledger, each asset through the source the network description names for it (as in every answer).
     */
    get: operations['getYieldTvl']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/lendingprotocol/pools/{pool}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * A Blend pool at a ledger
     * @description The pool's `PoolConfig` and name, and each reserve: asset, factors, interest curve, b/d rates and supplies, underlying supplied and borrowed, utilization, borrow and supply APR from the curve and their APYs as Blend's UI compounds them, BLND emission APR per side, and USD totals, each entry as the pool last wrote it at or before `as_of_ledger` (the head when omitted); `computed_ledger` is the ledger the figures are computed at. `meta.as_of_ledger` is the latest ledger at which one of those entries was written. 404 for a contract the network description does not list as a Blend pool.
     */
    get: operations['getLendingPool']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/lendingprotocol/reserves': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Every Blend reserve at a ledger
     * @description The reserves of every pool the network description lists, in the shape of the pool endpoint, at `as_of_ledger` (the head when omitted).
     */
    get: operations['getLendingReserves']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/lendingprotocol/emissions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Blend emissions at a ledger
     * @description Per pool and reserve token: eps, `expires_at`, index and `index_updated_at` as the pool's `EmisData` last stated them at or before `as_of_ledger` (not projected), with the reserve, whether it is the b- or d-token, and its share of the pool's emissions.
     */
    get: operations['getLendingEmissions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/ammprotocol/pools/{pool}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * A Soroswap pair at a ledger
     * @description The pair's tokens, reserves and LP total supply as its instance entry last stated them at or before `as_of_ledger` (the head when omitted), each token's price in the other, the USD TVL, and the 24-hour volume and fees from the pair's stored swaps (`volume_24h`, with the ledger range it covers). `meta.as_of_ledger` is the ledger at which that entry was written. 404 for a contract the network description does not list as a Soroswap pair.
     */
    get: operations['getAmmPool']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/ammprotocol/reserves': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Every Soroswap pair at a ledger
     * @description Every pair the network description lists, in the shape of the pool endpoint, at `as_of_ledger` (the head when omitted).
     */
    get: operations['getAmmReserves']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/yieldprotocol/pools/{pool}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * A DeFindex vault at a ledger
     * @description The vault's df-token supply, fees, and per asset its idle funds, each strategy's shares, balance, locked fee and invested funds, the total managed funds, the price per share and its APY over 7 and 30 days of close time (from the price per share at the ledger closed that long before), each entry as last written at or before `as_of_ledger` (the head when omitted). An entry written before the store's first ledger and never seen since is unknown: its figures are null with `unavailable_reason` and the answer is partial. `meta.as_of_ledger` is the latest ledger at which one of those entries was written. 404 for a contract the network description does not list as a DeFindex vault.
     */
    get: operations['getYieldPool']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/protocols/yieldprotocol/reserves': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Every DeFindex vault at a ledger
     * @description The vaults the network description lists, in the shape of the vault endpoint, at `as_of_ledger` (the head when omitted).
     */
    get: operations['getYieldReserves']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/stream/positions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * Stream of position changes (Server-Sent Events)
     * @description Server-Sent Events: one `position.changed` event per new snapshot of the given accounts in the given protocols, in ledger order (then protocol, then address), each event's `data` the JSON of `PositionChangedEvent`. Only the last event of a ledger carries `id: <ledger>`, so `Last-Event-ID` (sent by EventSource on reconnect) resumes after the last ledger received whole, from the stored snapshots: nothing is missed, and a ledger cut mid-way is sent again whole (deduplicate by address, protocol and ledger). Without `Last-Event-ID` nor `from_ledger`, the stream starts at the checkpoint (only new changes). A `: heartbeat` comment keeps a quiet stream open. Open streams per organization are limited by plan (free 2, pro 20, enterprise 100): one more is `429`. See "Stream of position changes" in docs/api.md.
     */
    get: operations['getStreamPositions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Send one delivery again
     * @description Sends the message now, with its first `webhook-id` and the same body, whether it is `pending`, `delivered` or `failed`, and answers the delivery after the attempt (`attempts`, `last_status`, `last_error`; `status` becomes `delivered` on a 2xx). It does not wait for the subscription’s retry schedule and works on a disabled subscription too, so a receiver can be tested before the subscription is enabled again. A pending message delivered this way releases the messages queued behind it. The request lasts as long as the receiver takes, at most the delivery timeout. See docs/webhooks.md.
     */
    post: operations['redeliverWebhookDelivery']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export interface webhooks {
  'position-changed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Positions changed
     * @description A watched account's positions in a protocol changed at a ledger: the new snapshot exactly as the protocol's `/history` answers it, with the ledger of the previous one. Signed as Standard Webhooks says; retried with backoff until a 2xx; in ledger order per subscription. See docs/webhooks.md.
     */
    post: operations['positionChangedWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'activity-created': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * An activity of a watched account
     * @description A watched account acted in a protocol (a deposit, a borrow, a swap, …): the activity exactly as `GET /v1/users/{address}/activities` answers it. Sent before the `position.changed` events of its ledger. Signed as Standard Webhooks says; retried with backoff until a 2xx; in ledger order per subscription. See docs/webhooks.md.
     */
    post: operations['activityCreatedWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'health-factor-below': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * A health factor crossed the threshold
     * @description A Blend pool group of a watched account crossed the subscription's `health_factor_threshold`: `direction` `below` when it fell under it, `above` when it is back at or over it (or the debt is gone). The health factor is the one `/positions/lendingprotocol/at/{ledger}` answers at that ledger, so prices and rates move it as well as positions; a ledger where it cannot be computed is passed over. Signed as Standard Webhooks says; retried with backoff until a 2xx; in ledger order per subscription. See docs/webhooks.md.
     */
    post: operations['healthFactorBelowWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export interface components {
  schemas: {
    Activity: {
      /** @example yieldprotocol */
      protocol: string
      /**
       * @description The action's name in its protocol: `supply`, `borrow`, `swap`, `deposit`, ...
       * @example deposit
       */
      type: string
      /**
       * @description The contract that emitted it (or, FxDAO, that was called)
       * @example CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH
       */
      contract_address: string
      /**
       * @description The account whose action it is (the legs are from its side)
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      account: string
      /** @example 3565 */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of its ledger (RFC 3339, UTC); null when unknown
       * @example 2026-01-01T03:33:45.000Z
       */
      closed_at: string | null
      /** @example fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed */
      tx_hash: string
      /**
       * @description Operation index in the transaction
       * @example 0
       */
      operation: number
      /**
       * @description Order of its event among the watched contracts' events of the transaction
       * @example 1
       */
      event_index: number
      /** @description Every asset and protocol token the action moved, each in its own units and in USD */
      legs: components['schemas']['ActivityLeg'][]
      /**
       * @description The action's USD value at its own ledger, 7 decimals: Σ amount_usd of the asset legs the account sent, or, when it sent none, of those it received
       * @example 1815.6940967
       */
      amount_usd: string | null
      /**
       * @description Only when amount_usd is null: the reason of the first unpriced counted leg, `protocol_token` when it moved only protocol tokens, `no_amount` when it names no amount
       * @example null
       */
      usd_unavailable_reason: string | null
      details: components['schemas']['ActivityDetails']
    }
    ActivityCreatedEvent: {
      /**
       * @description The kind of event
       * @example activity.created
       * @constant
       */
      type: 'activity.created'
      /**
       * @description The watched account whose activity it is (G... or C...)
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      address: string
      /**
       * @description The protocol of the activity
       * @example lendingprotocol
       */
      protocol: string
      /**
       * @description The ledger of the activity
       * @example 3055
       */
      ledger: number
      /** @description The activity exactly as `GET /v1/users/{address}/activities` answers it */
      item: components['schemas']['Activity']
    }
    /** @description The protocol's other fields of the action; amounts in their token's units */
    ActivityDetails: {
      [key: string]: unknown
    }
    ActivityLeg: {
      /** @description `asset`: a token that moved; `shares`: the protocol's own claim token (LP tokens, df-tokens, b-tokens); `debt`: Blend d-tokens */
      role: 'asset' | 'shares' | 'debt'
      /** @description From `account`'s side: an asset or token it sent or received, a protocol token minted to it or burnt from it */
      direction: 'sent' | 'received' | 'minted' | 'burnt'
      /**
       * @description The token's contract (C…): the asset, the pair or vault for their shares, the reserve's asset for b-/d-tokens; null when the action does not name it
       * @example CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO
       */
      asset: string | null
      /**
       * @description The asset's symbol in the network description; null when it does not list it
       * @example USDC
       */
      symbol: string | null
      /**
       * @description In the token's smallest units, as the chain states it
       * @example 18156940967
       */
      amount_raw: string
      /**
       * @description amount_raw in the token's units, with exactly its decimals; null when they are unknown
       * @example 1815.6940967
       */
      amount: string | null
      /**
       * @description amount × the USD price at or before the action's ledger, 7 decimals, rounded half-even; null with a reason
       * @example 1815.6940967
       */
      amount_usd: string | null
      /**
       * @description Only when amount_usd is null: price_missing, price_stale, asset_unknown, protocol_token (shares and d-tokens are not valued)
       * @example null
       */
      usd_unavailable_reason: string | null
    }
    AllPositionsAnswer: {
      data: components['schemas']['AllPositionsAnswerData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['AllPositionsAnswerMeta']
    }
    AllPositionsAnswerData: {
      /** @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD */
      address: string
      protocols: components['schemas']['AllPositionsAnswerDataProtocols']
      totals: components['schemas']['AllTotals']
    }
    /** @description Every protocol, keyed by its name: `data` exactly as GET /v1/users/{address}/positions/{protocol} (or its /at/{ledger}) answers it at the same pin */
    AllPositionsAnswerDataProtocols: {
      vaultprotocol: components['schemas']['VaultSection']
      lendingprotocol: components['schemas']['LendingSection']
      ammprotocol: components['schemas']['AmmSection']
      yieldprotocol: components['schemas']['YieldSection']
    }
    AllPositionsAnswerMeta: {
      /**
       * @description The pin, echoed unchanged; null when omitted
       * @example 2999
       */
      requested_ledger: number | null
      /**
       * @description The newest section's as_of_ledger; null when no section has a snapshot
       * @example 2532
       */
      as_of_ledger: number | null
      /**
       * @description The valuation ledger every section that values something shares; null when none does, or when they differ (each section then states its own)
       * @example null
       */
      valuation_ledger: number | null
      /**
       * @description 1: read directly from the contracts' own storage for the address or contract asked about
       * @example 1
       */
      attribution_confidence: number
      /**
       * @description Now minus the close time of last_indexed_ledger
       * @example 65
       */
      data_staleness_seconds: number | null
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: its knowledge starts there (null before the first batch)
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description The largest section's oracle_staleness_seconds: the ledger the request is about minus the oldest price used; 0 when none
       * @example 3995
       */
      oracle_staleness_seconds: number
      /**
       * @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen
       * @example false
       */
      partial_result: boolean
      /** @example 1 */
      response_time_ms: number
      /** @description The ledger source and the oracle contracts used */
      sources: string[]
    }
    AllTotals: {
      /**
       * @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held
       * @example null
       */
      assets_usd: string | null
      /**
       * @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held
       * @example null
       */
      debt_usd: string | null
      /**
       * @description assets_usd − debt_usd; null when either is null
       * @example null
       */
      net_usd: string | null
      /**
       * @description Why a total is null although positions exist: valuation_ledgers_differ when the sections were valued at different ledgers (values at different ledgers are never added), else the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise
       * @example valuation_ledgers_differ
       */
      usd_unavailable_reason: string | null
      /**
       * @description With valuation_ledgers_differ: the path that values every protocol at one ledger (GET /v1/users/{address}/positions/at/{ledger}); null otherwise
       * @example the sections were valued at different ledgers (each at its snapshot's own); GET /v1/users/GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD/positions/at/{ledger} values every protocol at one ledger ({ledger}: a ledger number, or latest)
       */
      usd_unavailable_hint: string | null
    }
    AmmGroup: {
      /**
       * @description The Soroswap pair (C…)
       * @example CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR
       */
      contract_address: string
      /**
       * @description LP tokens held, 7 decimals
       * @example 415.4987333
       */
      shares: string
      /**
       * @description The pair's LP total supply at the valuation (1,000 units locked to the pair included)
       * @example 567280.3374365
       */
      total_supply: string | null
      /**
       * @description shares / total_supply, 18 decimals rounded down
       * @example 0.000732439864172993
       */
      share_of_pool: string | null
      /**
       * @description Σ amount_usd of the two rows; null when one is unavailable
       * @example 439.4036901
       */
      value_usd: string | null
      /**
       * @description Ledger at which the pair's instance entry used was written
       * @example 2532
       */
      rate_ledger: number | null
      /**
       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
    }
    AmmPairData: {
      /**
       * @description The Soroswap pair (C…)
       * @example CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC
       */
      contract_address: string
      /**
       * @description Token 0 (C…), the lower address
       * @example CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO
       */
      token_0: string | null
      /**
       * @description Token 1 (C…)
       * @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS
       */
      token_1: string | null
      /**
       * @description Reserve0 as the pair's instance entry states it, in token 0's decimals
       * @example 1186385.2916120
       */
      reserve_0: string | null
      /**
       * @description Reserve1, in token 1's decimals
       * @example 4608815.6676139
       */
      reserve_1: string | null
      /**
       * @description LP total supply (`TotalSupply`), 7 decimals; 0 when the pair's instance entry has no `TotalSupply` yet (before the first mint: the LP token reads it as 0); null when the entry was never seen
       * @example 2335915.0253757
       */
      total_supply: string | null
      /**
       * @description Token 0 priced in token 1 by the reserves (reserve_1 / reserve_0 in display units), 18 decimals rounded down; null when a reserve is 0 or unknown
       * @example 3.884754556718817421
       */
      price_0_in_1: string | null
      /**
       * @description Token 1 priced in token 0, likewise
       * @example 0.257416520245909847
       */
      price_1_in_0: string | null
      /**
       * @description reserve_0 × price_0 + reserve_1 × price_1 in USD, 7 decimals; null when a price is unavailable
       * @example 2294541.8628685
       */
      tvl_usd: string | null
      /**
       * @description Ledger at which the pair's instance entry used was written; null when never seen
       * @example 2997
       */
      state_ledger: number | null
      /**
       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
      volume_24h: components['schemas']['AmmVolume']
    }
    AmmPosition: {
      /**
       * @description `ammprotocol`
       * @example ammprotocol
       */
      protocol: string
      /**
       * @description The Soroswap pair (C…), which is also its LP token
       * @example CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR
       */
      contract_address: string
      /**
       * @description `liquidity`: one row per token of the pair, token 0 first
       * @example liquidity
       * @enum {string}
       */
      position_type: 'liquidity'
      /**
       * @description The pair's token (C…); null when unknown
       * @example CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U
       */
      asset: string | null
      /**
       * @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals
       * @example 415.4987333
       */
      shares: string
      /**
       * @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown
       * @example 217.5507039
       */
      amount: string | null
      /**
       * @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even)
       * @example 233.6278350
       */
      amount_usd: string | null
      /**
       * @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down
       * @example 0.523589331435179387
       */
      rate: string | null
      /**
       * @description Ledger at which the pair's instance entry used (reserves, total supply) was written
       * @example 2532
       */
      rate_ledger: number | null
      /**
       * @description Ledger at which the LP balance itself last changed
       * @example 2532
       */
      ledger: number
      /**
       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
    }
    AmmPositionsData: {
      /** @example GA4YEODOKL7FUEGG6XDBSUAOTIP2L6C72CT3VWBDOZVNG5LC2I5X5DLS */
      address: string
      /** @description Two rows per pair the account holds LP tokens of */
      positions: components['schemas']['AmmPosition'][]
      /** @description One per pair, in the order of the rows */
      groups: components['schemas']['AmmGroup'][]
    }
    AmmReservesData: {
      /** @description Every pair the network description lists, in its order */
      pairs: components['schemas']['AmmPairData'][]
    }
    AmmSection: {
      /**
       * @example amm
       * @enum {string}
       */
      kind: 'amm'
      /**
       * @description Ledger of this protocol's snapshot served; null when none at or before the pin
       * @example 2532
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing
       * @example 2532
       */
      valuation_ledger: number | null
      /**
       * @description This section needs what the store does not hold
       * @example false
       */
      partial_result: boolean
      /**
       * @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none
       * @example 2495
       */
      oracle_staleness_seconds: number
      data: components['schemas']['AmmPositionsData']
      totals: components['schemas']['UsdTotals']
    }
    /** @description The pair's trading over the 24 hours of close time ending at the ledger, from its stored swaps */
    AmmVolume: {
      /**
       * @description First ledger of the window: the first one closed after the pin's close time minus 24 hours (the store's first ledger when it holds the pair's whole history); null when the stored ledgers do not cover the window
       * @example 1000
       */
      from_ledger: number | null
      /**
       * @description Last ledger of the window: the ledger answered for
       * @example 2999
       */
      to_ledger: number
      /**
       * @description The pair's swaps in [from_ledger, to_ledger]
       * @example 348
       */
      swaps: number | null
      /**
       * @description Σ amount_0_in of the swaps (token 0 paid in), in token 0's decimals; null with unavailable_reason history_missing
       * @example 225485.7731346
       */
      token_0_in: string | null
      /**
       * @description Σ amount_0_out (token 0 paid out), in token 0's decimals; null with unavailable_reason history_missing
       * @example 329350.2303482
       */
      token_0_out: string | null
      /**
       * @description Σ amount_1_in, in token 1's decimals; null with unavailable_reason history_missing
       * @example 1127598.7092011
       */
      token_1_in: string | null
      /**
       * @description Σ amount_1_out, in token 1's decimals; null with unavailable_reason history_missing
       * @example 748962.4116186
       */
      token_1_out: string | null
      /**
       * @description Σ ceil(amount_0_in × 3 / 1000): the 0.3 % fee the pair keeps of every input, in token 0's decimals; null with unavailable_reason history_missing
       * @example 676.4573222
       */
      fees_0: string | null
      /**
       * @description Σ ceil(amount_1_in × 3 / 1000), in token 1's decimals; null with unavailable_reason history_missing
       * @example 3382.7961373
       */
      fees_1: string | null
      /**
       * @description token_0_in × price_0 + token_1_in × price_1 at the ledger answered for (each swap counted once, by what it paid in), 7 decimals
       * @example 496608.7707676
       */
      volume_usd: string | null
      /**
       * @description fees_0 × price_0 + fees_1 × price_1, 7 decimals
       * @example 1489.8263174
       */
      fees_usd: string | null
      /**
       * @description history_missing: the store cannot tell every swap of the window (its ledgers start inside it and the pair is older), every figure null; price_missing / price_stale: the USD figures are null; null when all are set
       * @example null
       * @enum {string|null}
       */
      unavailable_reason: 'history_missing' | 'price_missing' | 'price_stale' | null
    }
    ApiKeyRecord: {
      /** @example key_tzXeXPzwaE-y1ru6 */
      id: string
      /** @example dashboard */
      name: string
      /** @example strata_WGeOB */
      prefix: string
      scopes: string[]
      /** @example false */
      revoked: boolean
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      created_at: string
      last_used_at: string | null
      expires_at: string | null
    }
    Asset: {
      /** @example 7 */
      decimals: number
      /**
       * @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used
       * @example CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG
       */
      price_source: string | null
      /**
       * @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing
       * @example 0.30204365416892
       */
      price_usd: string | null
      /** @example XLM */
      symbol: string
      tags: string[]
    }
    /** @description Facts of the event, the fields its action has; null when it has none */
    AuditDetails: {
      /**
       * @description organization.created: the organization slug
       * @example example-org
       */
      slug?: string
      /**
       * @description api_key.created, api_key.rotated: the key name
       * @example dashboard
       */
      name?: string
      /**
       * @description api_key.created, api_key.rotated: the prefix of the (new) key
       * @example strata_OhNoK
       */
      key_prefix?: string
      /** @description api_key.created, api_key.rotated: the scopes granted */
      scopes?: string[]
      /**
       * @description api_key.rotated: the key that replaces the rotated one
       * @example key_Ok007BZ6MvLpg8-4
       */
      new_key_id?: string
      /**
       * Format: date-time
       * @description api_key.rotated: when the rotated key stops working (RFC 3339)
       * @example 2026-01-01T05:11:00.000Z
       */
      old_key_expires_at?: string
      /**
       * @description organization.plan_changed: the plan before
       * @example free
       */
      from?: string
      /**
       * @description organization.plan_changed: the plan after
       * @example pro
       */
      to?: string
      /**
       * @description organization.plan_changed: the highest plan the operator allows, after
       * @example pro
       */
      max_plan?: string
      /** @description webhook.updated: the names of the fields the change set */
      fields?: string[]
      /**
       * @description webhook.disabled by Strata itself (actor null): why, naming the delivery whose retries were spent and its last error
       * @example delivery msg_42 failed 8 times; last: connection refused (ECONNREFUSED)
       */
      reason?: string
      /**
       * @description webhook.disabled by Strata itself: the delivery whose retries were spent
       * @example msg_42
       */
      delivery_id?: string
    }
    AuditEvent: {
      /** @example evt_grWiMbXkRnt7vXQF */
      id: string
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      at: string
      action:
        | 'organization.created'
        | 'organization.plan_changed'
        | 'user.created'
        | 'user.login'
        | 'user.login_failed'
        | 'user.logout'
        | 'api_key.created'
        | 'api_key.rotated'
        | 'api_key.revoked'
        | 'webhook.created'
        | 'webhook.updated'
        | 'webhook.enabled'
        | 'webhook.disabled'
        | 'webhook.secret_rotated'
        | 'webhook.deleted'
      /** @description The user who acted, `admin` for the operator, or null for an unauthenticated attempt */
      actor: string | null
      /** @description What was acted on: a key, user or organization id */
      target: string | null
      /** @description The client address (see TRUST_PROXY); null for the CLI */
      client_ip: string | null
      details: components['schemas']['AuditDetails'] | null
    }
    Contract: {
      /** @example FxDAO Vaults (devnet) */
      name: string
      position_types: string[]
      /** @example vaultprotocol */
      protocol: string
      /** @example active */
      status: string
      /** @example 0.6.0 */
      version: string
    }
    CreateApiKeyRequest: {
      /** @example dashboard */
      name: string
      /** @description `data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing. */
      scopes?: 'data:read'[]
      expires_at?: string | null
    }
    CreateOrganizationApiKeyRequest: {
      /** @example Acme Analytics */
      organization_name: string
      /**
       * Format: slug
       * @description Lower-case letters, digits and inner hyphens (not at either end), 2 to 64 characters
       * @example acme-analytics
       */
      organization_slug: string
      /** @example production */
      key_name: string
      /** @description `data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing. */
      scopes?: 'data:read'[]
      expires_at?: string | null
      /**
       * @description Issue the key to the organization someone created by signup with this slug. Without it such a slug is 409: the operator confirms that this organization is the one meant.
       * @example false
       */
      reuse_signup_organization?: boolean
    }
    CreateWebhookRequest: {
      /**
       * @description An absolute https URL on the public internet (no user name or password, no fragment): where the events are POSTed
       * @example https://hooks.example.com/strata
       */
      url: string
      /** @description The events to deliver: one or more of `position.changed`, `activity.created`, `health_factor.below` */
      events: ('position.changed' | 'activity.created' | 'health_factor.below')[]
      /** @description The accounts (G...) and contracts (C...) whose events are delivered, each once; null or omitted: every account. At most 100 on the free plan, 1,000 on pro and 10,000 on enterprise. */
      addresses?: string[] | null
      /** @description The protocols whose events are delivered; null or omitted: every protocol */
      protocols?: ('vaultprotocol' | 'lendingprotocol' | 'ammprotocol' | 'yieldprotocol')[] | null
      /** @description `health_factor.below` is sent when a lending position's health factor falls below this value. Required with that event, and only with it. */
      health_factor_threshold?: string | null
      /** @description A note of the organization: what the endpoint is (at most 200 characters) */
      description?: string | null
    }
    EmissionsAnswerLending: {
      data: components['schemas']['LendingEmissionsData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    Enrichment: {
      assets: components['schemas']['EnrichmentAssets']
      contracts: components['schemas']['EnrichmentContracts']
    }
    /** @description Every asset the answer refers to, by id */
    EnrichmentAssets: {
      [key: string]: components['schemas']['Asset']
    }
    /** @description Every contract the answer refers to */
    EnrichmentContracts: {
      [key: string]: components['schemas']['Contract']
    }
    ErrorBody: {
      /**
       * @description Machine-readable code, lower snake case
       * @example invalid_request
       */
      code: string
      /** @example unknown_parameter is not a known field */
      message: string
      /** @description One entry per invalid field */
      details?: components['schemas']['ErrorDetail'][]
    }
    ErrorDetail: {
      /** @example unknown_parameter */
      field: string
      /** @example unknown_parameter is not a known field */
      message: string
    }
    /** @description Every error answer */
    ErrorEnvelope: {
      error: components['schemas']['ErrorBody']
      meta: components['schemas']['ErrorMeta']
    }
    ErrorMeta: {
      /** @example 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10 */
      request_id: string
      /** @example 1 */
      response_time_ms: number
    }
    GetActivitySeriesResponse: {
      data: components['schemas']['GetActivitySeriesResponseData']
      meta: components['schemas']['GetActivitySeriesResponseMeta']
    }
    GetActivitySeriesResponseData: {
      /** @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD */
      address: string
      /** @example day */
      interval: string
      buckets: components['schemas']['GetActivitySeriesResponseDataBucket'][]
    }
    GetActivitySeriesResponseDataBucket: {
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T00:00:00.000Z
       */
      starts_at: string
      /**
       * @description Ledger of the bucket's oldest action
       * @example 3055
       */
      from_ledger: number
      /**
       * @description Ledger of the bucket's newest action
       * @example 3565
       */
      to_ledger: number
      /** @example 11 */
      count: number
      /**
       * @description Σ amount_usd of the priced actions, 7 decimals; null when none was priced
       * @example 13396.3942303
       */
      volume_usd: string | null
      /**
       * @description Actions of the bucket without a USD value
       * @example 2
       */
      unpriced_count: number
    }
    GetActivitySeriesResponseMeta: {
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: actions before it are unknown
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description true when the range reaches below indexed_from_ledger or above the indexed head
       * @example false
       */
      partial_result: boolean
      sources: string[]
      /** @example 1 */
      response_time_ms: number
      /**
       * @description As given (inclusive)
       * @example 1
       */
      from_ledger: number | null
      /**
       * @description As given (inclusive)
       * @example 3999
       */
      to_ledger: number | null
    }
    GetLivenessResponse: {
      /**
       * @description Always `live`: the process answers HTTP
       * @example live
       * @enum {string}
       */
      status: 'live'
      /**
       * @description The running version of Strata
       * @example 0.1.0
       */
      version: string
    }
    GetReadinessResponse: {
      /** @description `ready` (HTTP 200): send it traffic. `not_ready` (HTTP 503): `reasons` says why not */
      status: 'ready' | 'not_ready'
      /** @description The checkpoint: the newest ledger answers can be about; null when nothing is indexed or the database cannot be read */
      last_indexed_ledger: number | null
      /** @description How long ago the checkpoint ledger closed; null when unknown */
      data_staleness_seconds: number | null
      /** @description Staleness above this makes the replica not ready (`STRATA_READY_MAX_LAG_S`); null when not checked */
      max_lag_seconds: number | null
      /** @description Why the replica is not ready; empty when it is */
      reasons: components['schemas']['GetReadinessResponseReason'][]
    }
    GetReadinessResponseReason: {
      /** @description Stable code of what keeps the replica out of rotation */
      code: 'database_unreachable' | 'nothing_indexed' | 'indexer_behind'
      /**
       * @description What is wrong and why, with the cause the system reported
       * @example the database cannot be read: statement has been finalized
       */
      message: string
    }
    GetTransactionResponse: {
      data: components['schemas']['GetTransactionResponseData']
      meta: components['schemas']['GetTransactionResponseMeta']
    }
    GetTransactionResponseData: {
      /** @example fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed */
      hash: string
      /** @example 3565 */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of its ledger (RFC 3339, UTC); null when unknown
       * @example 2026-01-01T03:33:45.000Z
       */
      closed_at: string | null
      /** @example true */
      successful: boolean
      /**
       * @description Fee charged, in stroops
       * @example 100000
       */
      fee_charged: string
      /**
       * @description The account that paid the fee (the transaction's source unless fee-bumped); null when the ledger's fee processing does not name it
       * @example null
       */
      fee_account: string | null
      /**
       * @description The transaction's source account (the inner transaction's for a fee bump), from its envelope; null when it invokes no watched contract (it only touched one's data or events)
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      source_account: string | null
      /**
       * @description The watched contract it invoked, from its envelope
       * @example CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH
       */
      contract_address: string | null
      /**
       * @description The contract function it invoked, from its envelope
       * @example deposit
       */
      function: string | null
      /** @description In event order */
      actions: components['schemas']['Activity'][]
    }
    GetTransactionResponseMeta: {
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: actions before it are unknown
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description true when the range reaches below indexed_from_ledger or above the indexed head
       * @example false
       */
      partial_result: boolean
      sources: string[]
      /** @example 1 */
      response_time_ms: number
    }
    Health: {
      /** @description `unavailable` (HTTP 503): the database cannot be read. `degraded` (HTTP 200): answers are served but `problems` names what is wrong. `ok`: nothing is */
      status: 'ok' | 'degraded' | 'unavailable'
      /** @example 0.1.0 */
      version: string
      database: 'ok' | 'unreachable'
      rate_limiter: 'memory' | 'redis'
      indexer: components['schemas']['HealthIndexer']
      /** @description Everything wrong now; empty when `status` is `ok` */
      problems: components['schemas']['HealthProblem'][]
    }
    HealthFactorCrossingEvent: {
      /**
       * @description The kind of event
       * @example health_factor.below
       * @constant
       */
      type: 'health_factor.below'
      /**
       * @description The watched account whose pool group crossed the threshold (G... or C...)
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      address: string
      /**
       * @description The protocol of the pool group
       * @example lendingprotocol
       * @constant
       */
      protocol: 'lendingprotocol'
      /**
       * @description The ledger at which the health factor crossed
       * @example 3055
       */
      ledger: number
      /**
       * @description The ledger's close time (null when the store lacks it)
       * @example 2025-01-01T04:14:35.000Z
       */
      closed_at: string | null
      /**
       * @description The pool's contract (C...): the group's `contract_address` in the lending answer
       * @example CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP
       */
      pool: string
      /**
       * @description `below`: the health factor went under the threshold; `above`: it is back at or over it, or the debt is gone
       * @example below
       */
      direction: 'below' | 'above'
      /**
       * @description The subscription's threshold
       * @example 1.1000000
       */
      threshold: string
      /** @description The health factor at `ledger` (null: no debt) */
      health_factor: string | null
      /** @description The health factor judged before (null: no debt) */
      previous_health_factor: string | null
    }
    HealthIndexer: {
      /** @description The first ledger the store ingested: the indexed range is first..last */
      first_indexed_ledger: number | null
      last_indexed_ledger: number | null
      data_staleness_seconds: number | null
      /** @description This process's indexer: `running`, `standby` (another process holds the indexer lock), `retrying` (its last pass failed; it resumes from the checkpoint), `stopped` (it will not resume); null when this process runs none */
      state: 'running' | 'standby' | 'retrying' | 'stopped' | null
      /** @description Staleness above this is the problem `indexer_behind` (`STRATA_MAX_INDEXER_LAG_S`); null when not checked */
      max_lag_seconds: number | null
    }
    HealthProblem: {
      /** @description The part of the service that is unwell */
      component: 'database' | 'store_writes' | 'indexer' | 'rate_limiter' | 'commit_watch'
      /**
       * @description Stable code of the problem (docs/operations.md lists each, with what to do)
       * @example database_unreachable
       */
      code: string
      /**
       * @description What is wrong and why, with the cause the system reported
       * @example the database cannot be read: statement has been finalized
       */
      message: string
      /**
       * Format: date-time
       * @description When this problem was first seen
       * @example 2026-01-01T04:11:00.000Z
       */
      started_at: string
    }
    HistoryAnswerAmm: {
      data: components['schemas']['HistoryAnswerAmmData']
      enrichment: components['schemas']['HistoryEnrichment']
      meta: components['schemas']['HistoryMeta']
    }
    HistoryAnswerAmmData: {
      /** @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD */
      address: string
      /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
      snapshots: components['schemas']['HistoryAnswerAmmDataSnapshot'][]
    }
    HistoryAnswerAmmDataSnapshot: {
      /**
       * @description Ledger of this snapshot: the account changed at it
       * @example 2532
       */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
       * @example 2026-01-01T02:07:40.000Z
       */
      closed_at: string | null
      /**
       * @description The ledger whose prices value this item: its own ledger; null when it values nothing
       * @example 2532
       */
      valuation_ledger: number | null
      data: components['schemas']['AmmPositionsData']
      enrichment: components['schemas']['Enrichment']
      /**
       * @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none
       * @example 160
       */
      oracle_staleness_seconds: number
      /**
       * @description This snapshot needs protocol state the store never saw
       * @example false
       */
      partial_result: boolean
    }
    HistoryAnswerLending: {
      data: components['schemas']['HistoryAnswerLendingData']
      enrichment: components['schemas']['HistoryEnrichment']
      meta: components['schemas']['HistoryMeta']
    }
    HistoryAnswerLendingData: {
      /** @example GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK */
      address: string
      /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
      snapshots: components['schemas']['HistoryAnswerLendingDataSnapshot'][]
    }
    HistoryAnswerLendingDataSnapshot: {
      /**
       * @description Ledger of this snapshot: the account changed at it
       * @example 2951
       */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
       * @example 2026-01-01T02:42:35.000Z
       */
      closed_at: string | null
      /**
       * @description The ledger whose prices value this item: its own ledger; null when it values nothing
       * @example 2951
       */
      valuation_ledger: number | null
      data: components['schemas']['LendingPositionsData']
      enrichment: components['schemas']['Enrichment']
      /**
       * @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none
       * @example 155
       */
      oracle_staleness_seconds: number
      /**
       * @description This snapshot needs protocol state the store never saw
       * @example false
       */
      partial_result: boolean
    }
    HistoryAnswerVault: {
      data: components['schemas']['HistoryAnswerVaultData']
      enrichment: components['schemas']['HistoryEnrichment']
      meta: components['schemas']['HistoryMeta']
    }
    HistoryAnswerVaultData: {
      /** @example GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB */
      address: string
      /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
      snapshots: components['schemas']['HistoryAnswerVaultDataSnapshot'][]
    }
    HistoryAnswerVaultDataSnapshot: {
      /**
       * @description Ledger of this snapshot: the account changed at it
       * @example 1605
       */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
       * @example 2026-01-01T00:50:25.000Z
       */
      closed_at: string | null
      /**
       * @description The ledger whose prices value this item: its own ledger; null when it values nothing
       * @example 1605
       */
      valuation_ledger: number | null
      data: components['schemas']['VaultPositionsData']
      enrichment: components['schemas']['Enrichment']
      /**
       * @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none
       * @example 25
       */
      oracle_staleness_seconds: number
      /**
       * @description This snapshot needs protocol state the store never saw
       * @example false
       */
      partial_result: boolean
    }
    HistoryAnswerYield: {
      data: components['schemas']['HistoryAnswerYieldData']
      enrichment: components['schemas']['HistoryEnrichment']
      meta: components['schemas']['HistoryMeta']
    }
    HistoryAnswerYieldData: {
      /** @example GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ */
      address: string
      /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
      snapshots: components['schemas']['HistoryAnswerYieldDataSnapshot'][]
    }
    HistoryAnswerYieldDataSnapshot: {
      /**
       * @description Ledger of this snapshot: the account changed at it
       * @example 3791
       */
      ledger: number
      /**
       * Format: date-time
       * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
       * @example 2026-01-01T03:52:35.000Z
       */
      closed_at: string | null
      /**
       * @description The ledger whose prices value this item: its own ledger; null when it values nothing
       * @example 3791
       */
      valuation_ledger: number | null
      data: components['schemas']['YieldPositionsData']
      enrichment: components['schemas']['Enrichment']
      /**
       * @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none
       * @example 155
       */
      oracle_staleness_seconds: number
      /**
       * @description This snapshot needs protocol state the store never saw
       * @example false
       */
      partial_result: boolean
    }
    HistoryEnrichment: {
      contracts: components['schemas']['HistoryEnrichmentContracts']
    }
    /** @description Every contract the page refers to */
    HistoryEnrichmentContracts: {
      [key: string]: components['schemas']['Contract']
    }
    HistoryMeta: {
      /**
       * @description `to_ledger` as given; null when omitted
       * @example 3999
       */
      requested_ledger: number | null
      /**
       * @description Ledger of the newest snapshot on this page; null when the page is empty
       * @example 1605
       */
      as_of_ledger: number | null
      /**
       * @description `from_ledger` as given (inclusive); null when omitted
       * @example 1
       */
      from_ledger: number | null
      /**
       * @description `to_ledger` as given (inclusive); null when omitted
       * @example 3999
       */
      to_ledger: number | null
      /**
       * @description Page size used (1–500, default 100)
       * @example 1
       */
      limit: number
      /**
       * @description Pass as `cursor` for the next (older) page; null at the end
       * @example aDE6MTYwNQ
       */
      next_cursor: string | null
      /**
       * @description 1: read directly from the contracts' own storage for the address or contract asked about
       * @example 1
       */
      attribution_confidence: number
      /**
       * @description Now minus the close time of last_indexed_ledger
       * @example 65
       */
      data_staleness_seconds: number | null
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: its knowledge starts there (null before the first batch)
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description The largest oracle_staleness_seconds of the page's snapshots; 0 when none
       * @example 25
       */
      oracle_staleness_seconds: number
      /**
       * @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen
       * @example false
       */
      partial_result: boolean
      /** @example 1 */
      response_time_ms: number
      /** @description The ledger source and the oracle contracts used */
      sources: string[]
    }
    KeyCreationResult: {
      /** @example org_iV5vX9-_4DFQEj1y */
      organization_id: string
      /** @example example-org */
      organization_slug: string
      /**
       * @description true when the key joined an organization that existed before this request
       * @example false
       */
      organization_reused: boolean
      /** @example key_43mwpGBFAvSQGLs3 */
      api_key_id: string
      /** @example strata_XrGKJ */
      key_prefix: string
      scopes: string[]
      /**
       * @description The secret, shown in this response only
       * @example strata_XrGKJmgnwZYlA4a3WMMfYAZ7KKnJOMnT8CEYlmHb7S219FXqU
       */
      key: string
      expires_at: string | null
    }
    LedgerAtTime: {
      /**
       * @description The latest indexed ledger closed at or before `time`
       * @example 2440
       */
      ledger: number
      /**
       * Format: date-time
       * @description Its close time, RFC 3339 in UTC
       * @example 2026-01-01T02:00:00.000Z
       */
      closed_at: string
    }
    LedgerAtTimeAnswer: {
      data: components['schemas']['LedgerAtTime'] | null
      meta: components['schemas']['LedgerAtTimeAnswerMeta']
    }
    LedgerAtTimeAnswerMeta: {
      /**
       * Format: date-time
       * @description `time` as understood, in UTC
       * @example 2026-01-01T02:00:02.000Z
       */
      requested_at: string
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description true when the answer may be another ledger than the network's: `time` is after the checkpoint's close time (later ledgers are not indexed yet), before the first indexed ledger's, or nothing is indexed
       * @example false
       */
      partial_result: boolean
      /** @example 1 */
      response_time_ms: number
    }
    LendingEmission: {
      /**
       * @description reserve index × 2 for the d-token, × 2 + 1 for the b-token
       * @example 0
       */
      reserve_token_id: number
      /**
       * @description The reserve's asset (C…); null when unknown
       * @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS
       */
      asset: string | null
      /**
       * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
       * @example d_token
       * @enum {string}
       */
      token_type: 'b_token' | 'd_token'
      /**
       * @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals
       * @example 0.0000000
       */
      accrued: string
      /**
       * @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data
       * @example 0.0000117
       */
      claimable: string | null
      /**
       * @description Ledger at which the token's `EmisData` used was written
       * @example 2949
       */
      emission_ledger: number | null
    }
    LendingEmissionsData: {
      /** @description Pool by pool, by reserve token id */
      emissions: components['schemas']['LendingPoolEmission'][]
    }
    LendingGroup: {
      /**
       * @description The Blend pool (C…)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      contract_address: string
      /**
       * @description Σ amount_usd of the collateral rows
       * @example 1797.9838074
       */
      collateral_usd: string | null
      /**
       * @description Σ amount_usd of the supply rows (not collateral)
       * @example 6556.7992184
       */
      supplied_usd: string | null
      /**
       * @description Σ amount_usd of the borrow rows
       * @example 926.0977893
       */
      borrowed_usd: string | null
      /**
       * @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down)
       * @example 1348.4878555
       */
      effective_collateral_usd: string | null
      /**
       * @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up)
       * @example 1023.5271626
       */
      effective_liabilities_usd: string | null
      /**
       * @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral
       * @example 0.7590184
       */
      borrow_limit: string | null
      /**
       * @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt
       * @example 1.3174910
       */
      health_factor: string | null
      /**
       * @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown
       * @example 0.0002992
       */
      claimable_blnd: string | null
      /** @description Each reserve token the account holds or is owed BLND for, by id */
      emissions: components['schemas']['LendingEmission'][]
      /**
       * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | 'config_missing' | null
    }
    LendingPoolData: {
      /**
       * @description The Blend pool (C…)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      contract_address: string
      /**
       * @description The pool's `Name`, or the network description's name for it
       * @example Blend Devnet Fixed (v2)
       */
      name: string
      /** @description The pool's `PoolConfig` as last written; null when the store never saw it */
      config: {
        /**
         * @description The oracle the pool prices with
         * @example CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG
         */
        oracle: string
        /**
         * @description Backstop take rate: its share of the interest, 7 decimals
         * @example 0.2000000
         */
        bstop_rate: string
        /**
         * @description 0 admin active, 1 active, 2 admin on-ice, 3 on-ice, 4 admin frozen, 5 frozen, 6 setup
         * @example 0
         */
        status: number
        /**
         * @description `admin_active`, `active`, `admin_on_ice`, `on_ice`, `admin_frozen`, `frozen` or `setup`
         * @example admin_active
         */
        status_name: string | null
        /**
         * @description Most reserves an account may hold collateral or debt in
         * @example 4
         */
        max_positions: number
        /**
         * @description Least collateral a borrower must hold, in the oracle's base units (an integer)
         * @example 100000000000000
         */
        min_collateral: string
        /**
         * @description Ledger at which this `Config` was written
         * @example 1000
         */
        ledger: number
      } | null
      /** @description By reserve index */
      reserves: components['schemas']['LendingReserve'][]
      /**
       * @description Σ supplied_usd of the reserves; null when one is unknown or there are none
       * @example 12536442.6315685
       */
      supplied_usd: string | null
      /**
       * @description Σ borrowed_usd of the reserves; null when one is unknown or there are none
       * @example 347645.4025223
       */
      borrowed_usd: string | null
    }
    LendingPoolEmission: {
      /**
       * @description The Blend pool (C…)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      contract_address: string
      /**
       * @description reserve index × 2 for the d-token, × 2 + 1 for the b-token
       * @example 0
       */
      reserve_token_id: number
      /**
       * @description The reserve's asset contract (C…)
       * @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS
       */
      asset: string
      /**
       * @description `b_token`: suppliers (supply and collateral) earn it; `d_token`: borrowers
       * @example d_token
       * @enum {string}
       */
      token_type: 'b_token' | 'd_token'
      /**
       * @description The token's share of the pool's emissions (`PoolEmis`), 7 decimals; null when it has none now
       * @example 0.2000000
       */
      share: string | null
      /**
       * @description BLND emitted per second to all holders of the token, 14 decimals
       * @example 0.00194940063756
       */
      eps: string
      /**
       * Format: date-time
       * @description When emissions at this eps end (`expiration`), RFC 3339
       * @example 2026-01-08T02:00:00.000Z
       */
      expires_at: string | null
      /**
       * @description BLND accrued per whole token since emissions began, 14 decimals, as last written
       * @example 0.00006903681744
       */
      index: string
      /**
       * Format: date-time
       * @description When the index was last brought up to date (`last_time`), RFC 3339
       * @example 2026-01-01T02:43:50.000Z
       */
      index_updated_at: string | null
      /**
       * @description Ledger at which this `EmisData` was written
       * @example 2966
       */
      ledger: number
    }
    LendingPosition: {
      /**
       * @description `lendingprotocol`
       * @example lendingprotocol
       */
      protocol: string
      /**
       * @description The Blend pool (C…)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      contract_address: string
      /**
       * @description `supply` (lent, not collateral), `collateral`, or `borrow`
       * @example collateral
       * @enum {string}
       */
      position_type: 'supply' | 'collateral' | 'borrow'
      /**
       * @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list
       * @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS
       */
      asset: string | null
      /**
       * @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals
       * @example 7588.0383505
       */
      shares: string
      /**
       * @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown
       * @example 7588.0477082
       */
      amount: string | null
      /**
       * @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable
       * @example 1797.9838074
       */
      amount_usd: string | null
      /**
       * @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected)
       * @example 1.000001233219
       */
      rate: string | null
      /**
       * @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown
       * @example 2951
       */
      rate_ledger: number | null
      /**
       * @description Ledger at which this balance itself last changed
       * @example 2951
       */
      ledger: number
      /**
       * @description Why amount_usd is null; null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
    }
    LendingPositionsData: {
      /** @example GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK */
      address: string
      /** @description One row per (pool, reserve, supply | collateral | borrow) */
      positions: components['schemas']['LendingPosition'][]
      /** @description One per pool the account holds something in */
      groups: components['schemas']['LendingGroup'][]
    }
    LendingReserve: {
      /**
       * @description The Blend pool (C…)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      contract_address: string
      /**
       * @description The reserve's asset contract (C…)
       * @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS
       */
      asset: string
      /**
       * @description The reserve's index in the pool's `ResList` (its key in `Positions`)
       * @example 0
       */
      index: number | null
      /**
       * @description The asset's decimals (b- and d-tokens have the same)
       * @example 7
       */
      decimals: number | null
      /**
       * @description A disabled reserve takes no supply or borrow
       * @example true
       */
      enabled: boolean | null
      /**
       * @description Collateral factor, 7 decimals
       * @example 0.7500000
       */
      c_factor: string | null
      /**
       * @description Liability factor, 7 decimals
       * @example 0.7500000
       */
      l_factor: string | null
      /**
       * @description The interest curve's target utilization (`util`), 7 decimals
       * @example 0.5000000
       */
      target_utilization: string | null
      /**
       * @description Utilization above which borrowing is refused, 7 decimals
       * @example 0.7000000
       */
      max_utilization: string | null
      /**
       * @description Interest curve: base rate, 7 decimals
       * @example 0.0100000
       */
      r_base: string | null
      /**
       * @description Interest curve: slope up to the target, 7 decimals
       * @example 0.0500000
       */
      r_one: string | null
      /**
       * @description Interest curve: slope from the target to 95%, 7 decimals
       * @example 0.5000000
       */
      r_two: string | null
      /**
       * @description Interest curve: slope above 95%, 7 decimals
       * @example 5.0000000
       */
      r_three: string | null
      /**
       * @description How fast ir_mod follows utilization, 7 decimals
       * @example 0.0000020
       */
      reactivity: string | null
      /**
       * @description Most underlying the reserve takes, in the asset's decimals
       * @example 2000000000.0000000
       */
      supply_cap: string | null
      /**
       * @description b-token → underlying, 12 decimals, as last written
       * @example 1.000001258605
       */
      b_rate: string | null
      /**
       * @description d-token → underlying, 12 decimals, as last written
       * @example 1.000008026063
       */
      d_rate: string | null
      /**
       * @description Every b-token (supply and collateral), in the asset's decimals
       * @example 3624493.9795112
       */
      b_supply: string | null
      /**
       * @description Every d-token, in the asset's decimals
       * @example 590943.4237919
       */
      d_supply: string | null
      /**
       * @description Underlying owed to the backstop, in the asset's decimals
       * @example 0.6083252
       */
      backstop_credit: string | null
      /**
       * @description floor(b_supply × b_rate / 10^12): underlying supplied
       * @example 3624498.5413174
       */
      supplied: string | null
      /**
       * @description ceil(d_supply × d_rate / 10^12): underlying borrowed
       * @example 590948.1667411
       */
      borrowed: string | null
      /**
       * @description As the pool computes it: 0 with nothing borrowed, 1 when borrowed ≥ supplied, else ceil(borrowed / supplied), 7 decimals
       * @example 0.1630428
       */
      utilization: string | null
      /**
       * @description The interest curve at this utilization and ir_mod (every step rounded up, as the contract and the SDK's setRates do); r_base with nothing borrowed. A simple annual rate, 7 decimals
       * @example 0.0261252
       */
      borrow_apr: string | null
      /**
       * @description borrow_apr × floor(utilization × (1 − backstop take rate)), rounded down; 0 with nothing borrowed, 7 decimals
       * @example 0.0034076
       */
      supply_apr: string | null
      /**
       * @description (1 + borrow_apr / 365)^365 − 1: compounded daily, as Blend's UI estimates it, computed exactly and rounded up, 7 decimals
       * @example 0.0264685
       */
      borrow_apy: string | null
      /**
       * @description (1 + supply_apr / 52)^52 − 1: compounded weekly, as Blend's UI estimates it, computed exactly and rounded down, 7 decimals
       * @example 0.0034133
       */
      supply_apy: string | null
      /**
       * @description Why a rate is null: `rate_missing` (the reserve's `ResData` was never seen: every rate is null), `config_missing` (its `ResConfig`: the APRs and APYs), `pool_config_missing` (the pool's `Config`, whose backstop take rate the supply rates need); null when every rate is set
       * @example null
       * @enum {string|null}
       */
      rates_unavailable_reason: 'rate_missing' | 'config_missing' | 'pool_config_missing' | null
      /**
       * @description BLND emitted to suppliers a year, in USD per USD supplied: eps × 31,536,000 × BLND price ÷ (supplied × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise
       * @example null
       */
      supply_emission_apr: string | null
      /**
       * @description Why `supply_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
       * @example price_missing
       * @enum {string|null}
       */
      supply_emission_apr_unavailable_reason:
        | 'emissions_missing'
        | 'rate_missing'
        | 'config_missing'
        | 'close_time_missing'
        | 'no_holders'
        | 'emission_token_missing'
        | 'price_missing'
        | 'price_stale'
        | null
      /**
       * @description BLND emitted to borrowers a year, in USD per USD borrowed: eps × 31,536,000 × BLND price ÷ (borrowed × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise
       * @example null
       */
      borrow_emission_apr: string | null
      /**
       * @description Why `borrow_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
       * @example price_missing
       * @enum {string|null}
       */
      borrow_emission_apr_unavailable_reason:
        | 'emissions_missing'
        | 'rate_missing'
        | 'config_missing'
        | 'close_time_missing'
        | 'no_holders'
        | 'emission_token_missing'
        | 'price_missing'
        | 'price_stale'
        | null
      /**
       * @description The ledger the utilization, APRs, APYs and emission APRs are computed at: the pin, or the checkpoint when the pin is above it or omitted. Their inputs are the entries in force there (`rate_ledger`, `config_ledger`, the pool config's `ledger`, the emissions endpoint's `ledger`) and the prices at or before it
       * @example 2999
       */
      computed_ledger: number
      /**
       * @description The rate modifier, 7 decimals
       * @example 0.9931881
       */
      ir_mod: string | null
      /**
       * Format: date-time
       * @description When the pool last accrued the reserve (`ResData.last_time`), RFC 3339; null when the `ResData` was never seen
       * @example 2026-01-01T02:45:45.000Z
       */
      last_accrued_at: string | null
      /**
       * @description Ledger at which this `ResData` (rates, supplies, ir_mod) was written
       * @example 2989
       */
      rate_ledger: number | null
      /**
       * @description Ledger at which this `ResConfig` was written
       * @example 1000
       */
      config_ledger: number | null
      /**
       * @description supplied × the asset's USD price at the ledger, 7 decimals
       * @example 871484.5994589
       */
      supplied_usd: string | null
      /**
       * @description borrowed × the asset's USD price at the ledger, 7 decimals
       * @example 142089.2353860
       */
      borrowed_usd: string | null
      /**
       * @description Why the USD fields are null; null when they are set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
    }
    LendingReservesData: {
      /** @description Every pool's reserves, pool by pool in the network description's order */
      reserves: components['schemas']['LendingReserve'][]
    }
    LendingSection: {
      /**
       * @example lending
       * @enum {string}
       */
      kind: 'lending'
      /**
       * @description Ledger of this protocol's snapshot served; null when none at or before the pin
       * @example 2216
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing
       * @example 2216
       */
      valuation_ledger: number | null
      /**
       * @description This section needs what the store does not hold
       * @example false
       */
      partial_result: boolean
      /**
       * @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none
       * @example 3995
       */
      oracle_staleness_seconds: number
      data: components['schemas']['LendingPositionsData']
      totals: components['schemas']['UsdTotals']
    }
    ListActivitiesResponse: {
      data: components['schemas']['ListActivitiesResponseData']
      meta: components['schemas']['ListActivitiesResponseMeta']
    }
    ListActivitiesResponseData: {
      /** @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD */
      address: string
      activities: components['schemas']['Activity'][]
    }
    ListActivitiesResponseMeta: {
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: actions before it are unknown
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description true when the range reaches below indexed_from_ledger or above the indexed head
       * @example false
       */
      partial_result: boolean
      sources: string[]
      /** @example 1 */
      response_time_ms: number
      /**
       * @description As given (inclusive)
       * @example 1
       */
      from_ledger: number | null
      /**
       * @description As given (inclusive)
       * @example 3999
       */
      to_ledger: number | null
      /** @example 2 */
      limit: number
      /**
       * @description Pass as `cursor` for the next (older) page; null at the end
       * @example YTE6MzUyMDoyOjE
       */
      next_cursor: string | null
    }
    ListAuditLogResponse: {
      data: components['schemas']['AuditEvent'][]
      meta: components['schemas']['PageMeta']
    }
    ListProtocolsResponse: {
      data: components['schemas']['ListProtocolsResponseDataItem'][]
      meta: components['schemas']['ListProtocolsResponseMeta']
    }
    ListProtocolsResponseDataItem: {
      /**
       * @description The path segment of its endpoints
       * @example vaultprotocol
       */
      name: string
      /**
       * @description `vault`, `lending`, `amm` or `yield`
       * @example vault
       */
      kind: string
      contracts: components['schemas']['ListProtocolsResponseDataItemContract'][]
      /**
       * @description The first ledger the store ingested (null before the first batch)
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description The indexer checkpoint: the last ledger ingested
       * @example 3999
       */
      indexed_to_ledger: number | null
    }
    ListProtocolsResponseDataItemContract: {
      /**
       * @description The contract (C…)
       * @example CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E
       */
      contract_address: string
      /**
       * @description What the contract is: `fxdao-vaults`, `blend-pool-v2`, `soroswap-pair`, ...
       * @example fxdao-vaults
       */
      kind: string
      /** @example FxDAO Vaults (devnet) */
      name: string
      /** @example 0.6.0 */
      version: string
      /**
       * @description `active`, `paused` or `deprecated`
       * @example active
       */
      status: string
      position_types: string[]
      /**
       * @description First ledger at which the contract existed, when known
       * @example 1000
       */
      start_ledger: number | null
      /**
       * @description Whether the store holds the contract's whole history up to the indexed head (false: answers about it are partial_result)
       * @example true
       */
      history_complete: boolean
    }
    ListProtocolsResponseMeta: {
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description The page size used
       * @example 2
       */
      limit: number
      /** @description Pass as `cursor` for the next (older) page; null on the last page */
      next_cursor: string | null
      /** @example 1 */
      response_time_ms: number
    }
    ListWebhookDeliveriesResponse: {
      data: components['schemas']['WebhookDelivery'][]
      meta: components['schemas']['PageMeta']
    }
    ListWebhooksResponse: {
      data: components['schemas']['Webhook'][]
      meta: components['schemas']['PageMeta']
    }
    LogInRequest: {
      /** @example ops@example.com */
      email: string
      /** @example correct horse battery staple */
      password: string
    }
    LogInResponse: {
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJfMF9QVV8zOE5CNW1Hc1Y5In0.0pIJSVcvWqsMLypeNzIAeyXyBP4X4VgbFUUvicW9MbA */
      access_token: string
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiOUNERlVBNXFpOTVIQlpqMVY5RWZoVmxyIn0.9IpdftMUCKZ_vpHziGOQbUGZD1Zltjq-AUWOR1yBLCw */
      refresh_token: string
      /**
       * @description Access token lifetime in seconds
       * @example 900
       */
      expires_in: number
    }
    Organization: {
      /** @example org_8DHl8-TJGwcn2XQt */
      id: string
      /** @example Example Org */
      name: string
      /** @example example-org */
      slug: string
      plan: 'free' | 'pro' | 'enterprise'
      /** @description The highest plan the operator allows this organization (`strata set-plan`); it may choose any plan up to it */
      max_plan: 'free' | 'pro' | 'enterprise'
      rate_limit: components['schemas']['OrganizationRateLimit']
      billing_email: string | null
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      created_at: string
    }
    OrganizationRateLimit: {
      /**
       * @description Requests per window, shared by every key of the organization
       * @example 600
       */
      limit: number
      /** @example 60 */
      window_seconds: number
    }
    OrganizationUsage: {
      plan: 'free' | 'pro' | 'enterprise'
      rate_limit: components['schemas']['OrganizationUsageRateLimit']
      today: components['schemas']['UsageDay']
      /** @description The last 30 UTC days, oldest first, today last; a day without requests is 0 */
      days: components['schemas']['UsageDay'][]
    }
    OrganizationUsageRateLimit: {
      /**
       * @description Requests per window, shared by every key of the organization (when `local`, this instance's share of it)
       * @example 600
       */
      limit: number
      /** @example 60 */
      window_seconds: number
      /**
       * @description Requests counted in the current window, refused ones included (so it may exceed `limit`)
       * @example 3
       */
      used: number
      /**
       * @description limit − used, at least 0
       * @example 597
       */
      remaining: number
      /**
       * Format: date-time
       * @description When the current window ends (windows are aligned to the epoch)
       * @example 2026-01-01T04:12:00.000Z
       */
      resets_at: string
      /**
       * @description true when Redis is configured but did not answer: `used` is this instance's count alone and `limit` its share of the quota (what `Strata-RateLimit-Scope: local` says on a data answer)
       * @example false
       */
      local: boolean
    }
    PageMeta: {
      /**
       * @description The page size used
       * @example 1
       */
      limit: number
      /** @description Pass as `cursor` for the next (older) page; null on the last page */
      next_cursor: string | null
    }
    PoolAnswerAmm: {
      data: components['schemas']['AmmPairData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    PoolAnswerLending: {
      data: components['schemas']['LendingPoolData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    PoolAnswerYield: {
      data: components['schemas']['YieldVault']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    PositionChangedEvent: {
      /**
       * @description The kind of event
       * @example position.changed
       * @enum {string}
       */
      type: 'position.changed'
      /**
       * @description The account whose positions changed (G... or C...)
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      address: string
      /**
       * @description The protocol they changed in
       * @example vaultprotocol
       */
      protocol: string
      /**
       * @description The ledger they changed at: the new snapshot's
       * @example 3055
       */
      ledger: number
      /**
       * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
       * @example 2026-01-01T02:51:15.000Z
       */
      closed_at: string | null
      /**
       * @description The ledger of this account's previous snapshot in this protocol; null when this is its first
       * @example 3001
       */
      previous_ledger: number | null
      /** @description The new snapshot exactly as the protocol's `/history` answers it (one item of `data.snapshots`) */
      item:
        | components['schemas']['HistoryAnswerVaultDataSnapshot']
        | components['schemas']['HistoryAnswerLendingDataSnapshot']
        | components['schemas']['HistoryAnswerAmmDataSnapshot']
        | components['schemas']['HistoryAnswerYieldDataSnapshot']
    }
    PositionsAnswerAmm: {
      data: components['schemas']['AmmPositionsData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['PositionsMeta']
    }
    PositionsAnswerLending: {
      data: components['schemas']['LendingPositionsData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['PositionsMeta']
    }
    PositionsAnswerVault: {
      data: components['schemas']['VaultPositionsData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['PositionsMeta']
    }
    PositionsAnswerYield: {
      data: components['schemas']['YieldPositionsData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['PositionsMeta']
    }
    PositionsMeta: {
      /**
       * @description The pin, echoed unchanged; null when omitted
       * @example 2999
       */
      requested_ledger: number | null
      /**
       * @description Ledger of the snapshot served; null when the pin predates the first one
       * @example 1605
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued
       * @example 1605
       */
      valuation_ledger: number | null
      /**
       * @description 1: read directly from the contracts' own storage for the address or contract asked about
       * @example 1
       */
      attribution_confidence: number
      /**
       * @description Now minus the close time of last_indexed_ledger
       * @example 65
       */
      data_staleness_seconds: number | null
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: its knowledge starts there (null before the first batch)
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed
       * @example 6995
       */
      oracle_staleness_seconds: number
      /**
       * @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen
       * @example false
       */
      partial_result: boolean
      /** @example 1 */
      response_time_ms: number
      /** @description The ledger source and the oracle contracts used */
      sources: string[]
    }
    RefreshAccessTokenRequest: {
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiOUNERlVBNXFpOTVIQlpqMVY5RWZoVmxyIn0.9IpdftMUCKZ_vpHziGOQbUGZD1Zltjq-AUWOR1yBLCw */
      refresh_token: string
    }
    RefreshAccessTokenResponse: {
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJzSndqOUxQVmNEd1VtaXNyIn0.2pvZVFnYZ6c3mcvl-igGzHFnRVjZroyTpxaDnRjOQzw */
      access_token: string
      /**
       * @description Access token lifetime in seconds
       * @example 900
       */
      expires_in: number
    }
    ReservesAnswerAmm: {
      data: components['schemas']['AmmReservesData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    ReservesAnswerLending: {
      data: components['schemas']['LendingReservesData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    ReservesAnswerYield: {
      data: components['schemas']['YieldReservesData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    RotateApiKeyRequest: {
      /**
       * @description How long the old key stays valid, in seconds (at most one week)
       * @default 0
       * @example 3600
       */
      old_key_expires_in_seconds: number
    }
    SignUpRequest: {
      /** @example Example Org */
      organization_name: string
      /**
       * Format: slug
       * @description Lower-case letters, digits and inner hyphens (not at either end), 2 to 64 characters
       * @example example-org
       */
      organization_slug: string
      /**
       * Format: email
       * @example ops@example.com
       */
      email: string
      /** @example correct horse battery staple */
      password: string
    }
    SignUpResponse: {
      /** @example org_iV5vX9-_4DFQEj1y */
      organization_id: string
      /** @example example-org */
      organization_slug: string
      /** @example usr_V05_Yqv4U0rOrHq8 */
      user_id: string
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJFdDBpY1IyOFlEaklRY2NSIn0.i6ShJSTqgWbiLx8hD7PtHFhQuCHb4s68zCif-aifhfU */
      access_token: string
      /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiell3bkxQczd1UU5ZSEY0SnhGcEJNdUZTIn0.2YZ43FyHULXkVp5CHWBIn5ZsNpvpknPBUoV-1kpyD-0 */
      refresh_token: string
      /**
       * @description Access token lifetime in seconds
       * @example 900
       */
      expires_in: number
      api_key: components['schemas']['KeyCreationResult']
    }
    StateMeta: {
      /**
       * @description The pin, echoed unchanged; null when omitted
       * @example 2999
       */
      requested_ledger: number | null
      /**
       * @description The latest ledger at which a state entry the answer used was written; null when none was
       * @example 2998
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed
       * @example 2999
       */
      valuation_ledger: number | null
      /**
       * @description 1: read directly from the contracts' own storage for the address or contract asked about
       * @example 1
       */
      attribution_confidence: number
      /**
       * @description Now minus the close time of last_indexed_ledger
       * @example 65
       */
      data_staleness_seconds: number | null
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested: its knowledge starts there (null before the first batch)
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed
       * @example 95
       */
      oracle_staleness_seconds: number
      /**
       * @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen
       * @example false
       */
      partial_result: boolean
      /** @example 1 */
      response_time_ms: number
      /** @description The ledger source and the oracle contracts used */
      sources: string[]
    }
    TvlAnswer: {
      data: components['schemas']['TvlAnswerData']
      enrichment: components['schemas']['Enrichment']
      meta: components['schemas']['StateMeta']
    }
    TvlAnswerData: {
      /** @example vaultprotocol */
      protocol: string
      /**
       * @description The ledger the amounts are at
       * @example 2999
       */
      ledger: number
      /**
       * @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known
       * @example 1988399.5134639
       */
      tvl_usd: string | null
      /**
       * @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known
       * @example 676499.5828362
       */
      borrowed_usd: string | null
      /**
       * @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent)
       * @example null
       */
      usd_unavailable_reason: string | null
      assets: components['schemas']['TvlAnswerDataAsset'][]
    }
    TvlAnswerDataAsset: {
      /** @example CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS */
      asset: string
      /**
       * @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design
       * @example 8269740.0970488
       */
      locked: string | null
      /**
       * @description locked × the USD price at the ledger, 7 decimals
       * @example 1988399.5134639
       */
      locked_usd: string | null
      /**
       * @description What users owe in it; null when the protocol lends none of it
       * @example null
       */
      borrowed: string | null
      /**
       * @description borrowed × the USD price at the ledger, 7 decimals
       * @example null
       */
      borrowed_usd: string | null
      /**
       * @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued
       * @example null
       */
      usd_unavailable_reason: string | null
    }
    TvlSeriesAnswer: {
      data: components['schemas']['TvlSeriesAnswerData']
      meta: components['schemas']['TvlSeriesAnswerMeta']
    }
    TvlSeriesAnswerData: {
      /** @example vaultprotocol */
      protocol: string
      /** @example day */
      interval: string
      /** @description Oldest first; each bucket valued at its last ledger */
      points: components['schemas']['TvlSeriesAnswerDataPoint'][]
    }
    TvlSeriesAnswerDataPoint: {
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T00:00:00.000Z
       */
      starts_at: string
      /**
       * Format: date-time
       * @description Close time of the bucket's last ledger, RFC 3339; null when unknown
       * @example 2026-01-01T04:09:55.000Z
       */
      closed_at: string | null
      /**
       * @description The newest state entry used at that ledger
       * @example 3997
       */
      as_of_ledger: number | null
      /** @example false */
      partial_result: boolean
      /**
       * @description The ledger the amounts are at
       * @example 3999
       */
      ledger: number
      /**
       * @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known
       * @example 3215145.9399154
       */
      tvl_usd: string | null
      /**
       * @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known
       * @example 995833.4021424
       */
      borrowed_usd: string | null
      /**
       * @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent)
       * @example null
       */
      usd_unavailable_reason: string | null
      assets: components['schemas']['TvlAnswerDataAsset'][]
    }
    TvlSeriesAnswerMeta: {
      /**
       * @description First ledger of the range (inclusive)
       * @example 1
       */
      from_ledger: number | null
      /**
       * @description Last ledger of the range (inclusive)
       * @example 3999
       */
      to_ledger: number | null
      /**
       * @description The indexer checkpoint
       * @example 3999
       */
      last_indexed_ledger: number | null
      /**
       * @description The first ledger the store ingested
       * @example 1000
       */
      indexed_from_ledger: number | null
      /**
       * @description true when any point is partial or the range passes the head
       * @example false
       */
      partial_result: boolean
      sources: string[]
      /** @example 1 */
      response_time_ms: number
    }
    UpdateBillingRequest: {
      plan?: 'free' | 'pro' | 'enterprise'
      billing_email?: string | null
    }
    UpdateBillingResponse: {
      plan: 'free' | 'pro' | 'enterprise'
      /** @description The highest plan the operator allows this organization (`strata set-plan`); it may choose any plan up to it */
      max_plan: 'free' | 'pro' | 'enterprise'
      billing_email: string | null
      rate_limit: components['schemas']['OrganizationRateLimit']
    }
    UpdateWebhookRequest: {
      /**
       * @description An absolute https URL on the public internet (no user name or password, no fragment): where the events are POSTed
       * @example https://hooks.example.com/strata
       */
      url?: string
      /** @description The events to deliver: one or more of `position.changed`, `activity.created`, `health_factor.below` */
      events?: ('position.changed' | 'activity.created' | 'health_factor.below')[]
      /** @description The accounts (G...) and contracts (C...) whose events are delivered, each once; null or omitted: every account. At most 100 on the free plan, 1,000 on pro and 10,000 on enterprise. */
      addresses?: string[] | null
      /** @description The protocols whose events are delivered; null or omitted: every protocol */
      protocols?: ('vaultprotocol' | 'lendingprotocol' | 'ammprotocol' | 'yieldprotocol')[] | null
      /** @description `health_factor.below` is sent when a lending position's health factor falls below this value. Required with that event, and only with it. */
      health_factor_threshold?: string | null
      /** @description A note of the organization: what the endpoint is (at most 200 characters) */
      description?: string | null
      status?: 'enabled' | 'disabled'
    }
    UsageDay: {
      /**
       * Format: date
       * @description A UTC day, YYYY-MM-DD
       * @example 2026-01-01
       */
      date: string
      /**
       * @description Requests of the organization's API keys counted against its quota that day
       * @example 3
       */
      requests: number
    }
    UsdTotals: {
      /**
       * @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held
       * @example 6337.4644096
       */
      assets_usd: string | null
      /**
       * @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held
       * @example 2922.8818084
       */
      debt_usd: string | null
      /**
       * @description assets_usd − debt_usd; null when either is null
       * @example 3414.5826012
       */
      net_usd: string | null
      /**
       * @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise
       * @example null
       */
      usd_unavailable_reason: string | null
    }
    Vault: {
      /**
       * @description Collateral in the collateral asset's units, with exactly its decimals
       * @example 12437.9594999
       */
      collateral: string
      /**
       * @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable
       * @example 3756.8067378
       */
      collateral_usd: string | null
      /**
       * @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable
       * @example 1.8974
       */
      collateralization_ratio: string | null
      /** @example CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E */
      contract_address: string
      /**
       * @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals
       * @example 1980.0000000
       */
      debt: string
      /**
       * @description debt × the denomination price (USD is exactly 1), 7 decimals
       * @example 1980.0000000
       */
      debt_usd: string | null
      /** @example USD */
      denomination: string
      /**
       * @description Ledger at which this position itself last changed
       * @example 1605
       */
      ledger: number
      /**
       * @description collateral_usd − debt_usd of the rounded values
       * @example 1776.8067378
       */
      net_usd: string | null
      /**
       * @description Why the USD fields are null: price_missing or price_stale; null when they are set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | null
      /**
       * @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list
       * @example 6281797727
       */
      vault_index: string
      /**
       * @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue
       * @example null
       */
      rate_ledger?: null
    }
    VaultPositionsData: {
      /** @example GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB */
      address: string
      vaults: components['schemas']['Vault'][]
    }
    VaultSection: {
      /**
       * @example vault
       * @enum {string}
       */
      kind: 'vault'
      /**
       * @description Ledger of this protocol's snapshot served; null when none at or before the pin
       * @example 2505
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing
       * @example 2505
       */
      valuation_ledger: number | null
      /**
       * @description This section needs what the store does not hold
       * @example false
       */
      partial_result: boolean
      /**
       * @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none
       * @example 2495
       */
      oracle_staleness_seconds: number
      data: components['schemas']['VaultPositionsData']
      totals: components['schemas']['UsdTotals']
    }
    Webhook: {
      /** @example wh_3LtEMzJFUZETUk2s */
      id: string
      /** @example https://hooks.example.com/activity */
      url: string
      events: string[]
      /** @description The accounts watched; null: every account */
      addresses: string[] | null
      /** @description The protocols watched; null: every protocol */
      protocols: string[] | null
      health_factor_threshold: string | null
      description: string | null
      status: 'enabled' | 'disabled'
      /** @description Why the subscription is disabled; null while enabled */
      disabled_reason: string | null
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      created_at: string
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      updated_at: string
    }
    WebhookCreated: {
      /** @example wh_tdofZ3P_EaoJo3Qa */
      id: string
      /** @example https://hooks.example.com/strata */
      url: string
      events: string[]
      /** @description The accounts watched; null: every account */
      addresses: string[] | null
      /** @description The protocols watched; null: every protocol */
      protocols: string[] | null
      health_factor_threshold: string | null
      description: string | null
      status: 'enabled' | 'disabled'
      /** @description Why the subscription is disabled; null while enabled */
      disabled_reason: string | null
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      created_at: string
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      updated_at: string
      /**
       * @description The signing secret (Standard Webhooks, `whsec_…`): shown in this response only; verify each delivery with it
       * @example whsec_YXWF7Z3P9Ao2pysk4fz0e4yaoqVZoPnGbo5oFhFSzK0=
       */
      secret: string
    }
    WebhookDelivery: {
      /**
       * @description The message id, sent as the `webhook-id` header: the same on every retry
       * @example msg_3
       */
      id: string
      /**
       * @description The event type
       * @example position.changed
       */
      type: string
      /** @example 3565 */
      ledger: number
      /**
       * @description The account (G...) or contract (C...) the event is about
       * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
       */
      account: string
      /** @example yieldprotocol */
      protocol: string
      status: 'pending' | 'delivered' | 'failed'
      /**
       * @description Delivery attempts made so far
       * @example 1
       */
      attempts: number
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:10:55.000Z
       */
      created_at: string
      last_attempt_at: string | null
      /** @description The HTTP status of the last attempt's answer; null when none came */
      last_status: number | null
      last_error: string | null
      delivered_at: string | null
    }
    WebhookSecretRotated: {
      /** @example wh_CL4jFlkN8SN-Ovo8 */
      id: string
      /** @example https://hooks.example.com/strata */
      url: string
      events: string[]
      /** @description The accounts watched; null: every account */
      addresses: string[] | null
      /** @description The protocols watched; null: every protocol */
      protocols: string[] | null
      health_factor_threshold: string | null
      description: string | null
      status: 'enabled' | 'disabled'
      /** @description Why the subscription is disabled; null while enabled */
      disabled_reason: string | null
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:10:00.000Z
       */
      created_at: string
      /**
       * Format: date-time
       * @description RFC 3339 timestamp (UTC)
       * @example 2026-01-01T04:11:00.000Z
       */
      updated_at: string
      /**
       * @description The signing secret (Standard Webhooks, `whsec_…`): shown in this response only; verify each delivery with it
       * @example whsec_i7wYEV9489omBsmYSIhskU+X+v2Ci9zU50so3YissP0=
       */
      secret: string
      /**
       * Format: date-time
       * @description Until then deliveries are also signed with the secret before this rotation (RFC 3339)
       * @example 2026-01-02T04:11:00.000Z
       */
      previous_secret_expires_at: string
    }
    YieldAsset: {
      /**
       * @description The asset contract (C…)
       * @example CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO
       */
      asset: string
      /**
       * @description The vault's own balance of the asset, in its decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`)
       * @example 0.0000000
       */
      idle: string | null
      /**
       * @description Σ invested of the strategies
       * @example 169503.1628715
       */
      invested: string | null
      /**
       * @description idle + invested
       * @example 169503.1628715
       */
      total_managed_funds: string | null
      /**
       * @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down); null without supply
       * @example 0.999999965213
       */
      price_per_share: string | null
      apy_7d: components['schemas']['YieldAssetApy7d']
      apy_30d: components['schemas']['YieldAssetApy30d']
      strategies: components['schemas']['YieldStrategy'][]
    }
    /** @description The vault's APY for the asset over the 30 days of close time ending at to_ledger */
    YieldAssetApy30d: {
      /**
       * @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise
       * @example null
       */
      apy: string | null
      /**
       * @description The latest ledger closed at least 30 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far
       * @example null
       */
      from_ledger: number | null
      /**
       * @description The ledger answered for (the pin, or the head)
       * @example 2999
       */
      to_ledger: number
      /**
       * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
       * @example history_missing
       * @enum {string|null}
       */
      unavailable_reason: 'history_missing' | 'rate_missing' | null
    }
    /** @description The vault's APY for the asset over the 7 days of close time ending at to_ledger */
    YieldAssetApy7d: {
      /**
       * @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise
       * @example null
       */
      apy: string | null
      /**
       * @description The latest ledger closed at least 7 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far
       * @example null
       */
      from_ledger: number | null
      /**
       * @description The ledger answered for (the pin, or the head)
       * @example 2999
       */
      to_ledger: number
      /**
       * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
       * @example history_missing
       * @enum {string|null}
       */
      unavailable_reason: 'history_missing' | 'rate_missing' | null
    }
    YieldGroup: {
      /**
       * @description The DeFindex vault (C…)
       * @example CAQAS6XNDRI2AVIW4L4ZINXGRM23QZYVG6IDFDZEF45EHXADWNK25RHU
       */
      contract_address: string
      /**
       * @description df-tokens held, 7 decimals
       * @example 1856.5626111
       */
      shares: string
      /**
       * @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included)
       * @example 925330.0073330
       */
      total_supply: string | null
      /**
       * @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown
       * @example 0.002006378909564396
       */
      share_of_pool: string | null
      /**
       * @description Σ amount_usd of the vault’s rows; null when one is unavailable
       * @example 1990.4241907
       */
      value_usd: string | null
      /**
       * @description The latest ledger at which an entry the valuation used was written
       * @example 3791
       */
      rate_ledger: number | null
      /**
       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
    }
    YieldPosition: {
      /**
       * @description `yieldprotocol`
       * @example yieldprotocol
       */
      protocol: string
      /**
       * @description The DeFindex vault (C…)
       * @example CAQAS6XNDRI2AVIW4L4ZINXGRM23QZYVG6IDFDZEF45EHXADWNK25RHU
       */
      contract_address: string
      /**
       * @description `vault_share`: df-tokens of the vault, one row per vault asset
       * @example vault_share
       * @enum {string}
       */
      position_type: 'vault_share'
      /**
       * @description One of the vault’s assets (C…); a multi-asset vault has one row per asset
       * @example CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U
       */
      asset: string
      /**
       * @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals
       * @example 1856.5626111
       */
      shares: string
      /**
       * @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown
       * @example 1856.5629012
       */
      amount: string | null
      /**
       * @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable
       * @example 1990.4241907
       */
      amount_usd: string | null
      /**
       * @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down)
       * @example 1.000000156257
       */
      price_per_share: string | null
      /**
       * @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals
       * @example 925330.1519228
       */
      total_managed_funds: string | null
      /**
       * @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen
       * @example 925330.0073330
       */
      total_supply: string | null
      /**
       * @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen
       * @example 3791
       */
      rate_ledger: number | null
      /**
       * @description Ledger at which this balance itself last changed
       * @example 3791
       */
      ledger: number
      /**
       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
       * @example null
       * @enum {string|null}
       */
      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
    }
    YieldPositionsData: {
      /** @example GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ */
      address: string
      /** @description One row per (vault, asset) the account holds df-tokens of */
      positions: components['schemas']['YieldPosition'][]
      /** @description One per vault, in the order of the rows */
      groups: components['schemas']['YieldGroup'][]
    }
    YieldReservesData: {
      /** @description Every vault the network description lists */
      vaults: components['schemas']['YieldVault'][]
    }
    YieldSection: {
      /**
       * @example yield
       * @enum {string}
       */
      kind: 'yield'
      /**
       * @description Ledger of this protocol's snapshot served; null when none at or before the pin
       * @example null
       */
      as_of_ledger: number | null
      /**
       * @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing
       * @example null
       */
      valuation_ledger: number | null
      /**
       * @description This section needs what the store does not hold
       * @example false
       */
      partial_result: boolean
      /**
       * @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none
       * @example 0
       */
      oracle_staleness_seconds: number
      data: components['schemas']['YieldPositionsData']
      totals: components['schemas']['UsdTotals']
    }
    YieldStrategy: {
      /**
       * @description The strategy contract (C…)
       * @example CBAXEPU4MJSXI7LJOX23KPGI2ONSBE56MBQAKOQH466TP6FAFIMPY2NN
       */
      contract_address: string
      /**
       * @description The strategy's name in the vault's `AssetStrategySet`
       * @example USDC Blend Fixed
       */
      name: string | null
      /**
       * @description Paused in the vault
       * @example false
       */
      paused: boolean | null
      /**
       * @description The Blend pool it lends into (its `Config`)
       * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
       */
      pool: string | null
      /**
       * @description The vault's strategy shares (`VaultPos`), in the asset's decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`)
       * @example 169503.1625775
       */
      shares: string | null
      /**
       * @description The Blend reserve's b_rate used, 12 decimals, as the pool last stored it (not projected); null when not needed or unknown
       * @example 1.000000001759
       */
      b_rate: string | null
      /**
       * @description Ledger at which that `ResData` was written
       * @example 2979
       */
      b_rate_ledger: number | null
      /**
       * @description floor(floor(shares × total_b_tokens / total_shares) × b_rate / 10^12): the strategy's `balance(vault)`, in the asset's decimals
       * @example 169503.1628756
       */
      balance: string | null
      /**
       * @description The vault's `Report.locked_fee` after reporting this balance and locking its gains, as a deposit would
       * @example 0.0000041
       */
      locked_fee: string | null
      /**
       * @description balance − locked_fee
       * @example 169503.1628715
       */
      invested: string | null
    }
    YieldVault: {
      /**
       * @description The DeFindex vault (C…)
       * @example CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH
       */
      contract_address: string
      /**
       * @description The vault’s name, as the network description, `GET /v1/protocols` and `enrichment` give it
       * @example DeFindex Devnet USDC
       */
      name: string
      /**
       * @description The df-token symbol (`METADATA`)
       * @example dvUSDC
       */
      share_symbol: string | null
      /**
       * @description Every df-token, 7 decimals (the 1,000 locked to the vault included); 0 before the first mint; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`)
       * @example 169503.1687679
       */
      total_supply: string | null
      /**
       * @description `VaultFee`: basis points of strategy gains locked as fees
       * @example 1000
       */
      vault_fee_bps: number | null
      /**
       * @description `DeFindexProtocolFeeRate`: the protocol's basis points of those fees
       * @example 2000
       */
      protocol_fee_bps: number | null
      /** @description The vault's assets, in its `AssetStrategySet` order */
      assets: components['schemas']['YieldAsset'][]
      /**
       * @description The latest ledger at which an entry used was written
       * @example 2979
       */
      rate_ledger: number | null
      /**
       * @description rate_missing when a figure above is null because an entry it needs (the vault’s instance, a strategy’s `VaultPos`, the vault’s balance of an asset, a `Report`) was written before the store’s first ledger and never seen since (the answer is then `partial_result`); null otherwise
       * @example null
       * @enum {string|null}
       */
      unavailable_reason: 'rate_missing' | null
    }
  }
  responses: never
  parameters: never
  requestBodies: never
  headers: never
  pathItems: never
}
export type $defs = Record<string, never>
export interface operations {
  getHealth: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The service answers: `status` is `ok`, or `degraded` with the `problems` found */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "status": "ok",
           *       "version": "0.1.0",
           *       "database": "ok",
           *       "rate_limiter": "memory",
           *       "indexer": {
           *         "first_indexed_ledger": 1000,
           *         "last_indexed_ledger": 3999,
           *         "data_staleness_seconds": 65,
           *         "state": null,
           *         "max_lag_seconds": 300
           *       },
           *       "problems": []
           *     }
           */
          'application/json': components['schemas']['Health']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description The database cannot be read: `status` is `unavailable`, with the `problems` found */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "status": "unavailable",
           *       "version": "0.1.0",
           *       "database": "unreachable",
           *       "rate_limiter": "memory",
           *       "indexer": {
           *         "first_indexed_ledger": null,
           *         "last_indexed_ledger": null,
           *         "data_staleness_seconds": null,
           *         "state": null,
           *         "max_lag_seconds": 300
           *       },
           *       "problems": [
           *         {
           *           "component": "database",
           *           "code": "database_unreachable",
           *           "message": "the database cannot be read: statement has been finalized",
           *           "started_at": "2026-01-01T04:11:00.000Z"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['Health']
        }
      }
    }
  }
  getLiveness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: check liveness */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "status": "live",
           *       "version": "0.1.0"
           *     }
           */
          'application/json': components['schemas']['GetLivenessResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getReadiness: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: check readiness */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "status": "ready",
           *       "last_indexed_ledger": 3999,
           *       "data_staleness_seconds": 65,
           *       "max_lag_seconds": 900,
           *       "reasons": []
           *     }
           */
          'application/json': components['schemas']['GetReadinessResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description HTTP 503: check readiness */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "status": "not_ready",
           *       "last_indexed_ledger": null,
           *       "data_staleness_seconds": null,
           *       "max_lag_seconds": 900,
           *       "reasons": [
           *         {
           *           "code": "database_unreachable",
           *           "message": "the database cannot be read: statement has been finalized"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['GetReadinessResponse']
        }
      }
    }
  }
  signUp: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-1
         */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "organization_name": "Example Org",
         *       "organization_slug": "example-org",
         *       "email": "ops@example.com",
         *       "password": "correct horse battery staple"
         *     }
         */
        'application/json': components['schemas']['SignUpRequest']
      }
    }
    responses: {
      /** @description Created: sign up organization */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "organization_id": "org_iV5vX9-_4DFQEj1y",
           *       "organization_slug": "example-org",
           *       "user_id": "usr_V05_Yqv4U0rOrHq8",
           *       "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJFdDBpY1IyOFlEaklRY2NSIn0.i6ShJSTqgWbiLx8hD7PtHFhQuCHb4s68zCif-aifhfU",
           *       "refresh_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiell3bkxQczd1UU5ZSEY0SnhGcEJNdUZTIn0.2YZ43FyHULXkVp5CHWBIn5ZsNpvpknPBUoV-1kpyD-0",
           *       "expires_in": 900,
           *       "api_key": {
           *         "organization_id": "org_iV5vX9-_4DFQEj1y",
           *         "organization_slug": "example-org",
           *         "organization_reused": false,
           *         "api_key_id": "key_43mwpGBFAvSQGLs3",
           *         "key_prefix": "strata_XrGKJ",
           *         "scopes": [
           *           "data:read"
           *         ],
           *         "key": "strata_XrGKJmgnwZYlA4a3WMMfYAZ7KKnJOMnT8CEYlmHb7S219FXqU",
           *         "expires_at": null
           *       }
           *     }
           */
          'application/json': components['schemas']['SignUpResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "this Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request",
           *         "details": [
           *           {
           *             "field": "idempotency-key",
           *             "message": "Idempotency-Key was used for another request"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  logIn: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ops@example.com",
         *       "password": "correct horse battery staple"
         *     }
         */
        'application/json': components['schemas']['LogInRequest']
      }
    }
    responses: {
      /** @description OK: log in */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJfMF9QVV8zOE5CNW1Hc1Y5In0.0pIJSVcvWqsMLypeNzIAeyXyBP4X4VgbFUUvicW9MbA",
           *       "refresh_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiOUNERlVBNXFpOTVIQlpqMVY5RWZoVmxyIn0.9IpdftMUCKZ_vpHziGOQbUGZD1Zltjq-AUWOR1yBLCw",
           *       "expires_in": 900
           *     }
           */
          'application/json': components['schemas']['LogInResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  refreshAccessToken: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "refresh_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiOUNERlVBNXFpOTVIQlpqMVY5RWZoVmxyIn0.9IpdftMUCKZ_vpHziGOQbUGZD1Zltjq-AUWOR1yBLCw"
         *     }
         */
        'application/json': components['schemas']['RefreshAccessTokenRequest']
      }
    }
    responses: {
      /** @description OK: refresh an access token */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6ImFjY2VzcyIsInN1YiI6InVzcl9WMDVfWXF2NFUwck9ySHE4IiwiaXNzIjoic3RyYXRhIiwiYXVkIjoic3RyYXRhLWFwaSIsImlhdCI6MTc2NzI0MDY2MCwiZXhwIjoxNzY3MjQxNTYwLCJqdGkiOiJzSndqOUxQVmNEd1VtaXNyIn0.2pvZVFnYZ6c3mcvl-igGzHFnRVjZroyTpxaDnRjOQzw",
           *       "expires_in": 900
           *     }
           */
          'application/json': components['schemas']['RefreshAccessTokenResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  logOut: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "refresh_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJvcmdfaVY1dlg5LV80REZRRWoxeSIsInR5cCI6InJlZnJlc2giLCJzdWIiOiJ1c3JfVjA1X1lxdjRVMHJPckhxOCIsImlzcyI6InN0cmF0YSIsImF1ZCI6InN0cmF0YS1hcGkiLCJpYXQiOjE3NjcyNDA2NjAsImV4cCI6MTc2OTgzMjY2MCwianRpIjoiOUNERlVBNXFpOTVIQlpqMVY5RWZoVmxyIn0.9IpdftMUCKZ_vpHziGOQbUGZD1Zltjq-AUWOR1yBLCw"
         *     }
         */
        'application/json': components['schemas']['RefreshAccessTokenRequest']
      }
    }
    responses: {
      /** @description Done, no content: log out */
      204: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listApiKeys: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: list API keys */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example [
           *       {
           *         "id": "key_tzXeXPzwaE-y1ru6",
           *         "name": "dashboard",
           *         "prefix": "strata_WGeOB",
           *         "scopes": [
           *           "data:read"
           *         ],
           *         "revoked": false,
           *         "created_at": "2026-01-01T04:11:00.000Z",
           *         "last_used_at": null,
           *         "expires_at": null
           *       },
           *       {
           *         "id": "key_tYGogiEA2mvKH6iR",
           *         "name": "default",
           *         "prefix": "strata_hHXY6",
           *         "scopes": [
           *           "data:read"
           *         ],
           *         "revoked": false,
           *         "created_at": "2026-01-01T04:11:00.000Z",
           *         "last_used_at": "2026-01-01T04:11:00.000Z",
           *         "expires_at": null
           *       }
           *     ]
           */
          'application/json': components['schemas']['ApiKeyRecord'][]
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  createOrganizationApiKey: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-4
         */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "organization_name": "Acme Analytics",
         *       "organization_slug": "acme-analytics",
         *       "key_name": "production",
         *       "scopes": [
         *         "data:read"
         *       ],
         *       "reuse_signup_organization": false
         *     }
         */
        'application/json': components['schemas']['CreateOrganizationApiKeyRequest']
      }
    }
    responses: {
      /** @description Created: create an organization and an API key */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "organization_id": "org_cbL5f7Y_Qv8FVVpd",
           *       "organization_slug": "acme-analytics",
           *       "organization_reused": false,
           *       "api_key_id": "key_wSEji4-x2nJ2F19j",
           *       "key_prefix": "strata_9tBeg",
           *       "scopes": [
           *         "data:read"
           *       ],
           *       "key": "strata_9tBegjgPGFShtZoBKMS6wyoJvP9TEXwmep1TD2yOZ9f4YgM3U",
           *       "expires_at": null
           *     }
           */
          'application/json': components['schemas']['KeyCreationResult']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes the admin token in the x-svc-admin-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "this Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request",
           *         "details": [
           *           {
           *             "field": "idempotency-key",
           *             "message": "Idempotency-Key was used for another request"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  createApiKey: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-2
         */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "dashboard",
         *       "scopes": [
         *         "data:read"
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateApiKeyRequest']
      }
    }
    responses: {
      /** @description Created: create an API key for your organization */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "organization_id": "org_iV5vX9-_4DFQEj1y",
           *       "organization_slug": "example-org",
           *       "organization_reused": true,
           *       "api_key_id": "key_90L7OX0bnKSxPRre",
           *       "key_prefix": "strata_b6sVh",
           *       "scopes": [
           *         "data:read"
           *       ],
           *       "key": "strata_b6sVhXj7y2ljJqELVPbybCJ6Oov40CFlKKijjVDSDmU1nsi26",
           *       "expires_at": null
           *     }
           */
          'application/json': components['schemas']['KeyCreationResult']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "this Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request",
           *         "details": [
           *           {
           *             "field": "idempotency-key",
           *             "message": "Idempotency-Key was used for another request"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  revokeApiKey: {
    parameters: {
      query?: {
        /**
         * @description `last_key`: revoke the key even if it is the organization's last active one. Without it that revocation is 409.
         * @example last_key
         */
        confirm?: 'last_key'
      }
      header?: never
      path: {
        /**
         * @description The key id, as GET /v1/org/api-keys lists it
         * @example key_90L7OX0bnKSxPRre
         */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Done, no content: revoke an API key */
      204: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "API key key_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  rotateApiKey: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-3
         */
        'idempotency-key'?: string
      }
      path: {
        /**
         * @description The key id, as GET /v1/org/api-keys lists it
         * @example key_90L7OX0bnKSxPRre
         */
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "old_key_expires_in_seconds": 3600
         *     }
         */
        'application/json': components['schemas']['RotateApiKeyRequest']
      }
    }
    responses: {
      /** @description Created: rotate an API key */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "organization_id": "org_iV5vX9-_4DFQEj1y",
           *       "organization_slug": "example-org",
           *       "organization_reused": true,
           *       "api_key_id": "key_pT6UWZD5owkDKWHP",
           *       "key_prefix": "strata_HQbwP",
           *       "scopes": [
           *         "data:read"
           *       ],
           *       "key": "strata_HQbwPA0YtlGoRBaFEkRfjcVwOyzQbWkFQ58xZnATogZ1m0cvD",
           *       "expires_at": null
           *     }
           */
          'application/json': components['schemas']['KeyCreationResult']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "API key key_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "this Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request",
           *         "details": [
           *           {
           *             "field": "idempotency-key",
           *             "message": "Idempotency-Key was used for another request"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listWebhooks: {
    parameters: {
      query?: {
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 1
         */
        limit?: number
        /**
         * @description The next_cursor of an earlier page, unchanged
         * @example dzE6MTc2NzI0MDY2MDAwMDp3aF8zTHRFTXpKRlVaRVRVazJz
         */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: list webhook subscriptions */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ListWebhooksResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  createWebhook: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-5
         */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://hooks.example.com/strata",
         *       "events": [
         *         "position.changed",
         *         "health_factor.below"
         *       ],
         *       "addresses": [
         *         "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD"
         *       ],
         *       "protocols": [
         *         "lendingprotocol"
         *       ],
         *       "health_factor_threshold": "1.1",
         *       "description": "Risk desk"
         *     }
         */
        'application/json': components['schemas']['CreateWebhookRequest']
      }
    }
    responses: {
      /** @description Created: create a webhook subscription */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "wh_tdofZ3P_EaoJo3Qa",
           *       "url": "https://hooks.example.com/strata",
           *       "events": [
           *         "position.changed",
           *         "health_factor.below"
           *       ],
           *       "addresses": [
           *         "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD"
           *       ],
           *       "protocols": [
           *         "lendingprotocol"
           *       ],
           *       "health_factor_threshold": "1.1",
           *       "description": "Risk desk",
           *       "status": "enabled",
           *       "disabled_reason": null,
           *       "created_at": "2026-01-01T04:11:00.000Z",
           *       "updated_at": "2026-01-01T04:11:00.000Z",
           *       "secret": "whsec_YXWF7Z3P9Ao2pysk4fz0e4yaoqVZoPnGbo5oFhFSzK0="
           *     }
           */
          'application/json': components['schemas']['WebhookCreated']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "the free plan allows 2 webhook subscriptions and this organization has 2; delete one or change plan first"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key."
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_CL4jFlkN8SN-Ovo8
         */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: get a webhook subscription */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "wh_CL4jFlkN8SN-Ovo8",
           *       "url": "https://hooks.example.com/strata",
           *       "events": [
           *         "position.changed",
           *         "health_factor.below"
           *       ],
           *       "addresses": [
           *         "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD"
           *       ],
           *       "protocols": [
           *         "lendingprotocol"
           *       ],
           *       "health_factor_threshold": "1.1",
           *       "description": "Risk desk",
           *       "status": "enabled",
           *       "disabled_reason": null,
           *       "created_at": "2026-01-01T04:10:00.000Z",
           *       "updated_at": "2026-01-01T04:10:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Webhook']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "webhook wh_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  deleteWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_UokrdcVrZfWoKedF
         */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Done, no content: delete a webhook subscription */
      204: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "webhook wh_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  updateWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_CL4jFlkN8SN-Ovo8
         */
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "health_factor_threshold": "1.05",
         *       "description": "Risk desk, tighter"
         *     }
         */
        'application/json': components['schemas']['UpdateWebhookRequest']
      }
    }
    responses: {
      /** @description OK: update a webhook subscription */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Webhook']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "webhook wh_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  rotateWebhookSecret: {
    parameters: {
      query?: never
      header?: {
        /**
         * @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once
         * @example example-8
         */
        'idempotency-key'?: string
      }
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_CL4jFlkN8SN-Ovo8
         */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: rotate a webhook subscription's signing secret */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "wh_CL4jFlkN8SN-Ovo8",
           *       "url": "https://hooks.example.com/strata",
           *       "events": [
           *         "position.changed",
           *         "health_factor.below"
           *       ],
           *       "addresses": [
           *         "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD"
           *       ],
           *       "protocols": [
           *         "lendingprotocol"
           *       ],
           *       "health_factor_threshold": "1.05",
           *       "description": "Risk desk, tighter",
           *       "status": "enabled",
           *       "disabled_reason": null,
           *       "created_at": "2026-01-01T04:10:00.000Z",
           *       "updated_at": "2026-01-01T04:11:00.000Z",
           *       "secret": "whsec_i7wYEV9489omBsmYSIhskU+X+v2Ci9zU50so3YissP0=",
           *       "previous_secret_expires_at": "2026-01-02T04:11:00.000Z"
           *     }
           */
          'application/json': components['schemas']['WebhookSecretRotated']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "webhook wh_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "conflict",
           *         "message": "a request with this Idempotency-Key is still running; retry after it has answered to get its answer"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "idempotency_key_reused",
           *         "message": "The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key."
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /**
         * @description Only the messages in this state: pending, delivered or failed
         * @example failed
         */
        status?: 'pending' | 'delivered' | 'failed'
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 2
         */
        limit?: number
        /**
         * @description The next_cursor of an earlier page, unchanged
         * @example ZDE6Mg
         */
        cursor?: string
      }
      header?: never
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_GcLzP-7cuFQDyHgm
         */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: list a webhook subscription's deliveries */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ListWebhookDeliveriesResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "webhook wh_unknown not found"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getOrganization: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: get the caller's organization */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "org_8DHl8-TJGwcn2XQt",
           *       "name": "Example Org",
           *       "slug": "example-org",
           *       "plan": "free",
           *       "max_plan": "free",
           *       "rate_limit": {
           *         "limit": 600,
           *         "window_seconds": 60
           *       },
           *       "billing_email": "ops@example.com",
           *       "created_at": "2026-01-01T04:11:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Organization']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getOrganizationUsage: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: get the organization's usage */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "plan": "free",
           *       "rate_limit": {
           *         "limit": 600,
           *         "window_seconds": 60,
           *         "used": 3,
           *         "remaining": 597,
           *         "resets_at": "2026-01-01T04:12:00.000Z",
           *         "local": false
           *       },
           *       "today": {
           *         "date": "2026-01-01",
           *         "requests": 3
           *       },
           *       "days": [
           *         {
           *           "date": "2025-12-03",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-04",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-05",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-06",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-07",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-08",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-09",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-10",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-11",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-12",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-13",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-14",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-15",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-16",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-17",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-18",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-19",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-20",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-21",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-22",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-23",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-24",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-25",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-26",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-27",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-28",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-29",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-30",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2025-12-31",
           *           "requests": 0
           *         },
           *         {
           *           "date": "2026-01-01",
           *           "requests": 3
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['OrganizationUsage']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  updateBilling: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "billing_email": "billing@example.com"
         *     }
         */
        'application/json': components['schemas']['UpdateBillingRequest']
      }
    }
    responses: {
      /** @description OK: update billing */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "plan": "free",
           *       "max_plan": "free",
           *       "billing_email": "billing@example.com",
           *       "rate_limit": {
           *         "limit": 600,
           *         "window_seconds": 60
           *       }
           *     }
           */
          'application/json': components['schemas']['UpdateBillingResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `forbidden`: The caller may not make this change (a paid plan is granted by the operator). */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "forbidden",
           *         "message": "the pro plan is granted by the operator; this organization may choose: free",
           *         "details": [
           *           {
           *             "field": "plan",
           *             "message": "plan must be one of free for this organization"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unsupported_media_type",
           *         "message": "the request body must be sent as content-type: application/json"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listAuditLog: {
    parameters: {
      query?: {
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 2
         */
        limit?: number
        /**
         * @description The next_cursor of an earlier page, unchanged
         * @example YTE6MTA
         */
        cursor?: string
        /**
         * @description Only the events of this action
         * @example organization.created
         */
        action?:
          | 'organization.created'
          | 'organization.plan_changed'
          | 'user.created'
          | 'user.login'
          | 'user.login_failed'
          | 'user.logout'
          | 'api_key.created'
          | 'api_key.rotated'
          | 'api_key.revoked'
          | 'webhook.created'
          | 'webhook.updated'
          | 'webhook.enabled'
          | 'webhook.disabled'
          | 'webhook.secret_rotated'
          | 'webhook.deleted'
        /**
         * @description Only the events at or after this time (RFC 3339)
         * @example 2026-01-01T00:00:00Z
         */
        since?: string
        /**
         * @description Only the events before this time (RFC 3339)
         * @example 2026-02-01T00:00:00Z
         */
        until?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: list the organization's security events */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ListAuditLogResponse']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getVaultPositions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: vault positions */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB",
           *         "vaults": [
           *           {
           *             "collateral": "12437.9594999",
           *             "collateral_usd": "3756.8067378",
           *             "collateralization_ratio": "1.8974",
           *             "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *             "debt": "1980.0000000",
           *             "debt_usd": "1980.0000000",
           *             "denomination": "USD",
           *             "ledger": 1605,
           *             "net_usd": "1776.8067378",
           *             "usd_unavailable_reason": null,
           *             "vault_index": "6281797727"
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.30204365416892",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V": {
           *             "decimals": 7,
           *             "price_source": "peg:USD",
           *             "price_usd": "1",
           *             "symbol": "USDx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E": {
           *             "name": "FxDAO Vaults (devnet)",
           *             "position_types": [
           *               "collateral",
           *               "debt"
           *             ],
           *             "protocol": "vaultprotocol",
           *             "status": "active",
           *             "version": "0.6.0"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 1605,
           *         "valuation_ledger": 1605,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 6995,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerVault']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getVaultPositionsAt: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB
         */
        address: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)
         * @example 2999
         */
        ledger: number | 'latest'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: vault positions valued at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB",
           *         "vaults": [
           *           {
           *             "collateral": "12437.9594999",
           *             "collateral_usd": "2990.6178825",
           *             "collateralization_ratio": "1.5104",
           *             "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *             "debt": "1980.0000000",
           *             "debt_usd": "1980.0000000",
           *             "denomination": "USD",
           *             "ledger": 1605,
           *             "net_usd": "1010.6178825",
           *             "usd_unavailable_reason": null,
           *             "vault_index": "6281797727",
           *             "rate_ledger": null
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V": {
           *             "decimals": 7,
           *             "price_source": "peg:USD",
           *             "price_usd": "1",
           *             "symbol": "USDx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E": {
           *             "name": "FxDAO Vaults (devnet)",
           *             "position_types": [
           *               "collateral",
           *               "debt"
           *             ],
           *             "protocol": "vaultprotocol",
           *             "status": "active",
           *             "version": "0.6.0"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 1605,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerVault']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getVaultPositionsHistory: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 1
         */
        limit?: number
        /**
         * @description The next_cursor of a previous page, unchanged
         * @example aDE6MTYwNQ
         */
        cursor?: string
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24E7SOBH5YYQ3P7VWD5HCKL6LEIWN2F6HIZBD7GNEF4W7ZNUZO74WB
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['HistoryAnswerVault']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingPositions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: lending positions (Blend v2 pools) */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK",
           *         "positions": [
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "collateral",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "7588.0383505",
           *             "amount": "7588.0477082",
           *             "amount_usd": "1797.9838074",
           *             "rate": "1.000001233219",
           *             "rate_ledger": 2951,
           *             "ledger": 2951,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "464.4047626",
           *             "amount": "464.4083695",
           *             "amount_usd": "110.0413124",
           *             "rate": "1.000007766576",
           *             "rate_ledger": 2933,
           *             "ledger": 2933,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "9805.1127847",
           *             "amount": "9805.1236385",
           *             "amount_usd": "2323.3187520",
           *             "rate": "1.000001106958",
           *             "rate_ledger": 2741,
           *             "ledger": 2741,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "shares": "511.7000493",
           *             "amount": "511.7005067",
           *             "amount_usd": "511.7005067",
           *             "rate": "1.000000893706",
           *             "rate_ledger": 2852,
           *             "ledger": 2852,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "shares": "384.0882442",
           *             "amount": "384.0882445",
           *             "amount_usd": "384.0882445",
           *             "rate": "1.000000000988",
           *             "rate_ledger": 2531,
           *             "ledger": 2531,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "shares": "284.1600744",
           *             "amount": "284.1606329",
           *             "amount_usd": "304.3559702",
           *             "rate": "1.000001965158",
           *             "rate_ledger": 2819,
           *             "ledger": 2819,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "shares": "3593.9682002",
           *             "amount": "3593.9683704",
           *             "amount_usd": "3849.3922219",
           *             "rate": "1.000000047382",
           *             "rate_ledger": 2739,
           *             "ledger": 2739,
           *             "usd_unavailable_reason": null
           *           }
           *         ],
           *         "groups": [
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "collateral_usd": "1797.9838074",
           *             "supplied_usd": "6556.7992184",
           *             "borrowed_usd": "926.0977893",
           *             "effective_collateral_usd": "1348.4878555",
           *             "effective_liabilities_usd": "1023.5271626",
           *             "borrow_limit": "0.7590184",
           *             "health_factor": "1.3174910",
           *             "claimable_blnd": "0.0002992",
           *             "emissions": [
           *               {
           *                 "reserve_token_id": 0,
           *                 "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                 "token_type": "d_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0000117",
           *                 "emission_ledger": 2949
           *               },
           *               {
           *                 "reserve_token_id": 1,
           *                 "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                 "token_type": "b_token",
           *                 "accrued": "0.0001287",
           *                 "claimable": "0.0001287",
           *                 "emission_ledger": 2951
           *               },
           *               {
           *                 "reserve_token_id": 2,
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "token_type": "d_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0001580",
           *                 "emission_ledger": 2949
           *               },
           *               {
           *                 "reserve_token_id": 3,
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "token_type": "b_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0000008",
           *                 "emission_ledger": 2949
           *               }
           *             ],
           *             "usd_unavailable_reason": null
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.23694946006656",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07107014453025",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL": {
           *             "name": "Blend Devnet Fixed (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2951,
           *         "valuation_ledger": 2951,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 395,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerLending']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingPositionsAt: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK
         */
        address: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)
         * @example 2999
         */
        ledger: number | 'latest'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: lending positions valued at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK",
           *         "positions": [
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "collateral",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "7588.0383505",
           *             "amount": "7588.0479008",
           *             "amount_usd": "1824.4915290",
           *             "rate": "1.000001258605",
           *             "rate_ledger": 2989,
           *             "ledger": 2951,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "464.4047626",
           *             "amount": "464.4084900",
           *             "amount_usd": "111.6636804",
           *             "rate": "1.000008026063",
           *             "rate_ledger": 2989,
           *             "ledger": 2933,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "shares": "9805.1127847",
           *             "amount": "9805.1251254",
           *             "amount_usd": "2357.5717979",
           *             "rate": "1.000001258605",
           *             "rate_ledger": 2989,
           *             "ledger": 2741,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "shares": "511.7000493",
           *             "amount": "511.7005402",
           *             "amount_usd": "511.7005402",
           *             "rate": "1.000000959310",
           *             "rate_ledger": 2979,
           *             "ledger": 2852,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "shares": "384.0882442",
           *             "amount": "384.0882448",
           *             "amount_usd": "384.0882448",
           *             "rate": "1.000000001759",
           *             "rate_ledger": 2979,
           *             "ledger": 2531,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "borrow",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "shares": "284.1600744",
           *             "amount": "284.1607185",
           *             "amount_usd": "304.3116258",
           *             "rate": "1.000002266648",
           *             "rate_ledger": 2998,
           *             "ledger": 2819,
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "position_type": "supply",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "shares": "3593.9682002",
           *             "amount": "3593.9684692",
           *             "amount_usd": "3848.8303165",
           *             "rate": "1.000000074848",
           *             "rate_ledger": 2998,
           *             "ledger": 2739,
           *             "usd_unavailable_reason": null
           *           }
           *         ],
           *         "groups": [
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "collateral_usd": "1824.4915290",
           *             "supplied_usd": "6590.4903592",
           *             "borrowed_usd": "927.6758464",
           *             "effective_collateral_usd": "1368.3686467",
           *             "effective_liabilities_usd": "1025.6410837",
           *             "borrow_limit": "0.7495356",
           *             "health_factor": "1.3341593",
           *             "claimable_blnd": "0.0078509",
           *             "emissions": [
           *               {
           *                 "reserve_token_id": 0,
           *                 "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                 "token_type": "d_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0003528",
           *                 "emission_ledger": 2966
           *               },
           *               {
           *                 "reserve_token_id": 1,
           *                 "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                 "token_type": "b_token",
           *                 "accrued": "0.0001287",
           *                 "claimable": "0.0035245",
           *                 "emission_ledger": 2989
           *               },
           *               {
           *                 "reserve_token_id": 2,
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "token_type": "d_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0039522",
           *                 "emission_ledger": 2949
           *               },
           *               {
           *                 "reserve_token_id": 3,
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "token_type": "b_token",
           *                 "accrued": "0.0000000",
           *                 "claimable": "0.0000214",
           *                 "emission_ledger": 2979
           *               }
           *             ],
           *             "usd_unavailable_reason": null
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL": {
           *             "name": "Blend Devnet Fixed (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2951,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerLending']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingPositionsHistory: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 1
         */
        limit?: number
        /**
         * @description The next_cursor of a previous page, unchanged
         * @example aDE6Mjk1MQ
         */
        cursor?: string
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['HistoryAnswerLending']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmPositions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA4YEODOKL7FUEGG6XDBSUAOTIP2L6C72CT3VWBDOZVNG5LC2I5X5DLS
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: aMM liquidity positions (Soroswap pairs) */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA4YEODOKL7FUEGG6XDBSUAOTIP2L6C72CT3VWBDOZVNG5LC2I5X5DLS",
           *         "positions": [],
           *         "groups": []
           *       },
           *       "enrichment": {
           *         "assets": {},
           *         "contracts": {}
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": null,
           *         "valuation_ledger": null,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 0,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerAmm']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmPositionsAt: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA4YEODOKL7FUEGG6XDBSUAOTIP2L6C72CT3VWBDOZVNG5LC2I5X5DLS
         */
        address: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)
         * @example 2999
         */
        ledger: number | 'latest'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: aMM liquidity positions valued at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA4YEODOKL7FUEGG6XDBSUAOTIP2L6C72CT3VWBDOZVNG5LC2I5X5DLS",
           *         "positions": [],
           *         "groups": []
           *       },
           *       "enrichment": {
           *         "assets": {},
           *         "contracts": {}
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": null,
           *         "valuation_ledger": null,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 0,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerAmm']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmPositionsHistory: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 1
         */
        limit?: number
        /**
         * @description The next_cursor of a previous page, unchanged
         * @example aDE6MjUzMg
         */
        cursor?: string
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['HistoryAnswerAmm']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldPositions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: yield positions (DeFindex vaults) */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ",
           *         "positions": [],
           *         "groups": []
           *       },
           *       "enrichment": {
           *         "assets": {},
           *         "contracts": {}
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2969,
           *         "valuation_ledger": null,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 0,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerYield']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldPositionsAt: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ
         */
        address: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)
         * @example 2999
         */
        ledger: number | 'latest'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: yield positions valued at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ",
           *         "positions": [],
           *         "groups": []
           *       },
           *       "enrichment": {
           *         "assets": {},
           *         "contracts": {}
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2969,
           *         "valuation_ledger": null,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 0,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PositionsAnswerYield']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldPositionsHistory: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 1
         */
        limit?: number
        /**
         * @description The next_cursor of a previous page, unchanged
         * @example aDE6Mzc5MQ
         */
        cursor?: string
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GA2QNNCUFBGG3NBPPGPUKC7BBP52KUCX3FY5RFMULG4IJCYVVJBLAAKJ
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['HistoryAnswerYield']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAllPositions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: positions in every protocol */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *         "protocols": {
           *           "vaultprotocol": {
           *             "kind": "vault",
           *             "as_of_ledger": 2505,
           *             "valuation_ledger": 2505,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 2495,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "vaults": [
           *                 {
           *                   "collateral": "5538.2819517",
           *                   "collateral_usd": "1432.6743955",
           *                   "collateralization_ratio": "2.5468",
           *                   "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *                   "debt": "443.0000000",
           *                   "debt_usd": "562.5418084",
           *                   "denomination": "GBP",
           *                   "ledger": 2505,
           *                   "net_usd": "870.1325871",
           *                   "usd_unavailable_reason": null,
           *                   "vault_index": "12501765127"
           *                 },
           *                 {
           *                   "collateral": "18960.4212215",
           *                   "collateral_usd": "4904.7900141",
           *                   "collateralization_ratio": "2.0780",
           *                   "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *                   "debt": "2360.3400000",
           *                   "debt_usd": "2360.3400000",
           *                   "denomination": "USD",
           *                   "ledger": 1162,
           *                   "net_usd": "2544.4500141",
           *                   "usd_unavailable_reason": null,
           *                   "vault_index": "8032919503"
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "6337.4644096",
           *               "debt_usd": "2922.8818084",
           *               "net_usd": "3414.5826012",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "lendingprotocol": {
           *             "kind": "lending",
           *             "as_of_ledger": 2216,
           *             "valuation_ledger": 2216,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 3995,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "borrow",
           *                   "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                   "shares": "16863.3890743",
           *                   "amount": "16863.4300268",
           *                   "amount_usd": "5110.9031207",
           *                   "rate": "1.000002428481",
           *                   "rate_ledger": 2216,
           *                   "ledger": 2216,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "collateral",
           *                   "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                   "shares": "10080.4447758",
           *                   "amount": "10080.4447899",
           *                   "amount_usd": "10080.4447899",
           *                   "rate": "1.000000001405",
           *                   "rate_ledger": 1636,
           *                   "ledger": 1636,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "borrow",
           *                   "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                   "shares": "1606.3780225",
           *                   "amount": "1606.3788108",
           *                   "amount_usd": "1606.3788108",
           *                   "rate": "1.000000490683",
           *                   "rate_ledger": 1963,
           *                   "ledger": 1963,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "collateral",
           *                   "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                   "shares": "55276.6367868",
           *                   "amount": "55276.6416936",
           *                   "amount_usd": "59537.0307267",
           *                   "rate": "1.000000088769",
           *                   "rate_ledger": 2123,
           *                   "ledger": 2123,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ],
           *               "groups": [
           *                 {
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "collateral_usd": "69617.4755166",
           *                   "supplied_usd": "0.0000000",
           *                   "borrowed_usd": "6717.2819315",
           *                   "effective_collateral_usd": "63159.7502043",
           *                   "effective_liabilities_usd": "8505.4625583",
           *                   "borrow_limit": "0.1346658",
           *                   "health_factor": "7.4257866",
           *                   "claimable_blnd": "2.3849046",
           *                   "emissions": [
           *                     {
           *                       "reserve_token_id": 1,
           *                       "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                       "token_type": "b_token",
           *                       "accrued": "0.0915621",
           *                       "claimable": "0.0915621",
           *                       "emission_ledger": 2211
           *                     },
           *                     {
           *                       "reserve_token_id": 3,
           *                       "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                       "token_type": "b_token",
           *                       "accrued": "0.0116770",
           *                       "claimable": "0.0194831",
           *                       "emission_ledger": 2210
           *                     },
           *                     {
           *                       "reserve_token_id": 5,
           *                       "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                       "token_type": "b_token",
           *                       "accrued": "2.1045618",
           *                       "claimable": "2.2738594",
           *                       "emission_ledger": 2191
           *                     }
           *                   ],
           *                   "usd_unavailable_reason": null
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "69617.4755166",
           *               "debt_usd": "6717.2819315",
           *               "net_usd": "62900.1935851",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "ammprotocol": {
           *             "kind": "amm",
           *             "as_of_ledger": 2532,
           *             "valuation_ledger": 2532,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 2495,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [
           *                 {
           *                   "protocol": "ammprotocol",
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "position_type": "liquidity",
           *                   "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                   "shares": "415.4987333",
           *                   "amount": "217.5507039",
           *                   "amount_usd": "233.6278350",
           *                   "rate": "0.523589331435179387",
           *                   "rate_ledger": 2532,
           *                   "ledger": 2532,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "ammprotocol",
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "position_type": "liquidity",
           *                   "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                   "shares": "415.4987333",
           *                   "amount": "795.4666519",
           *                   "amount_usd": "205.7758551",
           *                   "rate": "1.914486346576871938",
           *                   "rate_ledger": 2532,
           *                   "ledger": 2532,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ],
           *               "groups": [
           *                 {
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "shares": "415.4987333",
           *                   "total_supply": "567280.3374365",
           *                   "share_of_pool": "0.000732439864172993",
           *                   "value_usd": "439.4036901",
           *                   "rate_ledger": 2532,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "439.4036901",
           *               "debt_usd": "0.0000000",
           *               "net_usd": "439.4036901",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "yieldprotocol": {
           *             "kind": "yield",
           *             "as_of_ledger": null,
           *             "valuation_ledger": null,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 0,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [],
           *               "groups": []
           *             },
           *             "totals": {
           *               "assets_usd": null,
           *               "debt_usd": null,
           *               "net_usd": null,
           *               "usd_unavailable_reason": null
           *             }
           *           }
           *         },
           *         "totals": {
           *           "assets_usd": null,
           *           "debt_usd": null,
           *           "net_usd": null,
           *           "usd_unavailable_reason": "valuation_ledgers_differ",
           *           "usd_unavailable_hint": "the sections were valued at different ledgers (each at its snapshot's own); GET /v1/users/GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD/positions/at/{ledger} values every protocol at one ledger ({ledger}: a ledger number, or latest)"
           *         }
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.25868570939296",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CCXHM34U57KS53HCJ45233XOSEDZSQOW4ZU3ZCTBOJKESWZ3TXNIUELP": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.26984606872223",
           *             "symbol": "GBPx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V": {
           *             "decimals": 7,
           *             "price_source": "peg:USD",
           *             "price_usd": "1",
           *             "symbol": "USDx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07390061637090",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E": {
           *             "name": "FxDAO Vaults (devnet)",
           *             "position_types": [
           *               "collateral",
           *               "debt"
           *             ],
           *             "protocol": "vaultprotocol",
           *             "status": "active",
           *             "version": "0.6.0"
           *           },
           *           "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ": {
           *             "name": "Blend Devnet YieldBlox (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           },
           *           "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR": {
           *             "name": "Soroswap EURC/XLM (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2532,
           *         "valuation_ledger": null,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 3995,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['AllPositionsAnswer']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAllPositionsAt: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        address: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger)
         * @example 2999
         */
        ledger: number | 'latest'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: positions in every protocol, valued at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *         "protocols": {
           *           "vaultprotocol": {
           *             "kind": "vault",
           *             "as_of_ledger": 2505,
           *             "valuation_ledger": 2999,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 95,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "vaults": [
           *                 {
           *                   "collateral": "5538.2819517",
           *                   "collateral_usd": "1331.6400526",
           *                   "collateralization_ratio": "2.3607",
           *                   "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *                   "debt": "443.0000000",
           *                   "debt_usd": "564.0828291",
           *                   "denomination": "GBP",
           *                   "ledger": 2505,
           *                   "net_usd": "767.5572235",
           *                   "usd_unavailable_reason": null,
           *                   "vault_index": "12501765127",
           *                   "rate_ledger": null
           *                 },
           *                 {
           *                   "collateral": "18960.4212215",
           *                   "collateral_usd": "4558.8968806",
           *                   "collateralization_ratio": "1.9315",
           *                   "contract_address": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E",
           *                   "debt": "2360.3400000",
           *                   "debt_usd": "2360.3400000",
           *                   "denomination": "USD",
           *                   "ledger": 1162,
           *                   "net_usd": "2198.5568806",
           *                   "usd_unavailable_reason": null,
           *                   "vault_index": "8032919503",
           *                   "rate_ledger": null
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "5890.5369332",
           *               "debt_usd": "2924.4228291",
           *               "net_usd": "2966.1141041",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "lendingprotocol": {
           *             "kind": "lending",
           *             "as_of_ledger": 2216,
           *             "valuation_ledger": 2999,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 95,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "borrow",
           *                   "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                   "shares": "16863.3890743",
           *                   "amount": "16863.4543027",
           *                   "amount_usd": "4054.6962707",
           *                   "rate": "1.000003868048",
           *                   "rate_ledger": 2998,
           *                   "ledger": 2216,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "collateral",
           *                   "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                   "shares": "10080.4447758",
           *                   "amount": "10080.4448646",
           *                   "amount_usd": "10080.4448646",
           *                   "rate": "1.000000008819",
           *                   "rate_ledger": 2983,
           *                   "ledger": 1636,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "borrow",
           *                   "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                   "shares": "1606.3780225",
           *                   "amount": "1606.3797231",
           *                   "amount_usd": "1606.3797231",
           *                   "rate": "1.000001058651",
           *                   "rate_ledger": 2983,
           *                   "ledger": 1963,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "lendingprotocol",
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "position_type": "collateral",
           *                   "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                   "shares": "55276.6367868",
           *                   "amount": "55276.6458357",
           *                   "amount_usd": "59196.5210903",
           *                   "rate": "1.000000163703",
           *                   "rate_ledger": 2994,
           *                   "ledger": 2123,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ],
           *               "groups": [
           *                 {
           *                   "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *                   "collateral_usd": "69276.9659549",
           *                   "supplied_usd": "0.0000000",
           *                   "borrowed_usd": "5661.0759938",
           *                   "effective_collateral_usd": "62853.2916025",
           *                   "effective_liabilities_usd": "7097.1877187",
           *                   "borrow_limit": "0.1129167",
           *                   "health_factor": "8.8560841",
           *                   "claimable_blnd": "4.5019098",
           *                   "emissions": [
           *                     {
           *                       "reserve_token_id": 1,
           *                       "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                       "token_type": "b_token",
           *                       "accrued": "0.0915621",
           *                       "claimable": "0.0915621",
           *                       "emission_ledger": 2998
           *                     },
           *                     {
           *                       "reserve_token_id": 3,
           *                       "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                       "token_type": "b_token",
           *                       "accrued": "0.0116770",
           *                       "claimable": "0.0322367",
           *                       "emission_ledger": 2983
           *                     },
           *                     {
           *                       "reserve_token_id": 5,
           *                       "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                       "token_type": "b_token",
           *                       "accrued": "2.1045618",
           *                       "claimable": "4.3781110",
           *                       "emission_ledger": 2994
           *                     }
           *                   ],
           *                   "usd_unavailable_reason": null
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "69276.9659549",
           *               "debt_usd": "5661.0759938",
           *               "net_usd": "63615.8899611",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "ammprotocol": {
           *             "kind": "amm",
           *             "as_of_ledger": 2532,
           *             "valuation_ledger": 2999,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 95,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [
           *                 {
           *                   "protocol": "ammprotocol",
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "position_type": "liquidity",
           *                   "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                   "shares": "415.4987333",
           *                   "amount": "220.1720621",
           *                   "amount_usd": "235.7852927",
           *                   "rate": "0.529898275323262972",
           *                   "rate_ledger": 2974,
           *                   "ledger": 2532,
           *                   "usd_unavailable_reason": null
           *                 },
           *                 {
           *                   "protocol": "ammprotocol",
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "position_type": "liquidity",
           *                   "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                   "shares": "415.4987333",
           *                   "amount": "786.0703162",
           *                   "amount_usd": "189.0049525",
           *                   "rate": "1.891871751368843902",
           *                   "rate_ledger": 2974,
           *                   "ledger": 2532,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ],
           *               "groups": [
           *                 {
           *                   "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *                   "shares": "415.4987333",
           *                   "total_supply": "567280.3374365",
           *                   "share_of_pool": "0.000732439864172993",
           *                   "value_usd": "424.7902452",
           *                   "rate_ledger": 2974,
           *                   "usd_unavailable_reason": null
           *                 }
           *               ]
           *             },
           *             "totals": {
           *               "assets_usd": "424.7902452",
           *               "debt_usd": "0.0000000",
           *               "net_usd": "424.7902452",
           *               "usd_unavailable_reason": null
           *             }
           *           },
           *           "yieldprotocol": {
           *             "kind": "yield",
           *             "as_of_ledger": null,
           *             "valuation_ledger": null,
           *             "partial_result": false,
           *             "oracle_staleness_seconds": 0,
           *             "data": {
           *               "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *               "positions": [],
           *               "groups": []
           *             },
           *             "totals": {
           *               "assets_usd": null,
           *               "debt_usd": null,
           *               "net_usd": null,
           *               "usd_unavailable_reason": null
           *             }
           *           }
           *         },
           *         "totals": {
           *           "assets_usd": "75592.2931333",
           *           "debt_usd": "8585.4988229",
           *           "net_usd": "67006.7943104",
           *           "usd_unavailable_reason": null,
           *           "usd_unavailable_hint": null
           *         }
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CCXHM34U57KS53HCJ45233XOSEDZSQOW4ZU3ZCTBOJKESWZ3TXNIUELP": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.27332467073761",
           *             "symbol": "GBPx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V": {
           *             "decimals": 7,
           *             "price_source": "peg:USD",
           *             "price_usd": "1",
           *             "symbol": "USDx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E": {
           *             "name": "FxDAO Vaults (devnet)",
           *             "position_types": [
           *               "collateral",
           *               "debt"
           *             ],
           *             "protocol": "vaultprotocol",
           *             "status": "active",
           *             "version": "0.6.0"
           *           },
           *           "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ": {
           *             "name": "Blend Devnet YieldBlox (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           },
           *           "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR": {
           *             "name": "Soroswap EURC/XLM (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2532,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['AllPositionsAnswer']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listProtocols: {
    parameters: {
      query?: {
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 2
         */
        limit?: number
        /**
         * @description The next_cursor of an earlier page, unchanged
         * @example cDE6Mg
         */
        cursor?: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: list protocols */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ListProtocolsResponse']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLedgerAtTime: {
    parameters: {
      query: {
        /**
         * @description An RFC 3339 time with its offset, such as 2026-01-31T12:00:00Z
         * @example 2026-01-01T02:00:02Z
         */
        time: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: find the ledger at a time */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['LedgerAtTimeAnswer']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getTransaction: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description Transaction hash, 64 hex digits
         * @example fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed
         */
        hash: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: get transaction */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "hash": "fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed",
           *         "ledger": 3565,
           *         "closed_at": "2026-01-01T03:33:45.000Z",
           *         "successful": true,
           *         "fee_charged": "100000",
           *         "fee_account": null,
           *         "source_account": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *         "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *         "function": "deposit",
           *         "actions": [
           *           {
           *             "protocol": "yieldprotocol",
           *             "type": "deposit",
           *             "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *             "account": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *             "ledger": 3565,
           *             "closed_at": "2026-01-01T03:33:45.000Z",
           *             "tx_hash": "fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed",
           *             "operation": 0,
           *             "event_index": 1,
           *             "legs": [
           *               {
           *                 "role": "asset",
           *                 "direction": "sent",
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "symbol": "USDC",
           *                 "amount_raw": "18156940967",
           *                 "amount": "1815.6940967",
           *                 "amount_usd": "1815.6940967",
           *                 "usd_unavailable_reason": null
           *               },
           *               {
           *                 "role": "shares",
           *                 "direction": "minted",
           *                 "asset": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *                 "symbol": null,
           *                 "amount_raw": "18156941542",
           *                 "amount": "1815.6941542",
           *                 "amount_usd": null,
           *                 "usd_unavailable_reason": "protocol_token"
           *               }
           *             ],
           *             "amount_usd": "1815.6940967",
           *             "usd_unavailable_reason": null,
           *             "details": {
           *               "total_supply_before": "178382.8203145",
           *               "total_managed_funds_before": [
           *                 {
           *                   "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                   "idle_amount": "0.0000000",
           *                   "invested_amount": "178382.8146589",
           *                   "total_amount": "178382.8146589",
           *                   "strategy_allocations": [
           *                     {
           *                       "strategy_address": "CBAXEPU4MJSXI7LJOX23KPGI2ONSBE56MBQAKOQH466TP6FAFIMPY2NN",
           *                       "amount": "178382.8146589",
           *                       "paused": false
           *                     }
           *                   ]
           *                 }
           *               ]
           *             }
           *           },
           *           {
           *             "protocol": "lendingprotocol",
           *             "type": "supply",
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "account": "CBAXEPU4MJSXI7LJOX23KPGI2ONSBE56MBQAKOQH466TP6FAFIMPY2NN",
           *             "ledger": 3565,
           *             "closed_at": "2026-01-01T03:33:45.000Z",
           *             "tx_hash": "fde3cab93183283a2f1c2df882aaecb87f98c7a6f84f0e5fbcd783773ae0c7ed",
           *             "operation": 0,
           *             "event_index": 2,
           *             "legs": [
           *               {
           *                 "role": "asset",
           *                 "direction": "sent",
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "symbol": "USDC",
           *                 "amount_raw": "18156940967",
           *                 "amount": "1815.6940967",
           *                 "amount_usd": "1815.6940967",
           *                 "usd_unavailable_reason": null
           *               },
           *               {
           *                 "role": "shares",
           *                 "direction": "minted",
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "symbol": "USDC",
           *                 "amount_raw": "18156940873",
           *                 "amount": "1815.6940873",
           *                 "amount_usd": null,
           *                 "usd_unavailable_reason": "protocol_token"
           *               }
           *             ],
           *             "amount_usd": "1815.6940967",
           *             "usd_unavailable_reason": null,
           *             "details": {}
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "partial_result": false,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ],
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['GetTransactionResponse']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "transaction 0000000000000000000000000000000000000000000000000000000000000000 touched no watched contract (or is not indexed)"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  listActivities: {
    parameters: {
      query?: {
        /**
         * @description One of vaultprotocol, lendingprotocol, ammprotocol, yieldprotocol
         * @example yieldprotocol
         */
        protocol?: string
        /**
         * @description An activity type: new_vault, increase_collateral, withdraw_collateral, increase_debt, pay_debt, redeem, liquidate, liquidated, transfer_debt, supply, withdraw, supply_collateral, borrow, repay, new_auction, fill_auction, claim, add_liquidity, remove_liquidity, swap, lp_transfer, deposit, transfer, rebalance
         * @example deposit
         */
        type?: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A whole number from 1 to 500 (default 100)
         * @example 2
         */
        limit?: number
        /**
         * @description The next_cursor of a previous page, unchanged
         * @example YTE6MzUyMDoyOjE
         */
        cursor?: string
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ListActivitiesResponse']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getActivitySeries: {
    parameters: {
      query: {
        /**
         * @description hour or day (UTC buckets by ledger close time)
         * @example day
         */
        interval: 'hour' | 'day'
        /**
         * @description One of vaultprotocol, lendingprotocol, ammprotocol, yieldprotocol
         * @example yieldprotocol
         */
        protocol?: string
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A Stellar account (G...) or contract (C...) StrKey
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *         "interval": "day",
           *         "buckets": [
           *           {
           *             "starts_at": "2026-01-01T00:00:00.000Z",
           *             "from_ledger": 3055,
           *             "to_ledger": 3565,
           *             "count": 11,
           *             "volume_usd": "13396.3942303",
           *             "unpriced_count": 2
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "partial_result": false,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ],
           *         "response_time_ms": 1,
           *         "from_ledger": 1,
           *         "to_ledger": 3999
           *       }
           *     }
           */
          'application/json': components['schemas']['GetActivitySeriesResponse']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getVaultTvl: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description hour or day
         * @example day
         */
        interval?: 'hour' | 'day'
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TvlAnswer'] | components['schemas']['TvlSeriesAnswer']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingTvl: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description hour or day
         * @example day
         */
        interval?: 'hour' | 'day'
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TvlAnswer'] | components['schemas']['TvlSeriesAnswer']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmTvl: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description hour or day
         * @example day
         */
        interval?: 'hour' | 'day'
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TvlAnswer'] | components['schemas']['TvlSeriesAnswer']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldTvl: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 1
         */
        from_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description hour or day
         * @example day
         */
        interval?: 'hour' | 'day'
        /**
         * @description json (the default) or csv: the whole range as one CSV file (RFC 4180, a header row, one row per record). Wins over the Accept header
         * @example csv
         */
        format?: 'json' | 'csv'
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The answer: JSON by default, CSV with `format=csv` or `Accept: text/csv` */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          /** @description CSV answers only: attachment; filename="<name>.csv" */
          'content-disposition'?: string
          /** @description CSV answers only: the indexer checkpoint the answer was read at (meta's last_indexed_ledger) */
          'strata-last-indexed-ledger'?: number
          /** @description CSV answers only: the first ledger the store ingested (meta's indexed_from_ledger) */
          'strata-indexed-from-ledger'?: number
          /** @description CSV answers only: whether the range as a whole needs what the store does not hold (each row of a history or a TVL says so of itself) */
          'strata-partial-result'?: boolean
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TvlAnswer'] | components['schemas']['TvlSeriesAnswer']
          'text/csv': string
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingPool: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A contract (C...) StrKey of one of the protocol's pools
         * @example CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL
         */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: a Blend pool at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *         "name": "Blend Devnet Fixed (v2)",
           *         "config": {
           *           "oracle": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *           "bstop_rate": "0.2000000",
           *           "status": 0,
           *           "status_name": "admin_active",
           *           "max_positions": 4,
           *           "min_collateral": "100000000000000",
           *           "ledger": 1000
           *         },
           *         "reserves": [
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "index": 0,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.7500000",
           *             "l_factor": "0.7500000",
           *             "target_utilization": "0.5000000",
           *             "max_utilization": "0.7000000",
           *             "r_base": "0.0100000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.5000000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000020",
           *             "supply_cap": "2000000000.0000000",
           *             "b_rate": "1.000001258605",
           *             "d_rate": "1.000008026063",
           *             "b_supply": "3624493.9795112",
           *             "d_supply": "590943.4237919",
           *             "backstop_credit": "0.6083252",
           *             "supplied": "3624498.5413174",
           *             "borrowed": "590948.1667411",
           *             "utilization": "0.1630428",
           *             "borrow_apr": "0.0261252",
           *             "supply_apr": "0.0034076",
           *             "borrow_apy": "0.0264685",
           *             "supply_apy": "0.0034133",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": null,
           *             "borrow_emission_apr_unavailable_reason": "price_missing",
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9931881",
           *             "last_accrued_at": "2026-01-01T02:45:45.000Z",
           *             "rate_ledger": 2989,
           *             "config_ledger": 1000,
           *             "supplied_usd": "871484.5994589",
           *             "borrowed_usd": "142089.2353860",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "index": 1,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9500000",
           *             "l_factor": "0.9500000",
           *             "target_utilization": "0.8000000",
           *             "max_utilization": "0.9500000",
           *             "r_base": "0.0030000",
           *             "r_one": "0.0400000",
           *             "r_two": "0.1200000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "500000000.0000000",
           *             "b_rate": "1.000000001759",
           *             "d_rate": "1.000000959310",
           *             "b_supply": "10900599.0075160",
           *             "d_supply": "78871.5585690",
           *             "backstop_credit": "0.0053735",
           *             "supplied": "10900599.0266901",
           *             "borrowed": "78871.6342313",
           *             "utilization": "0.0072356",
           *             "borrow_apr": "0.0032567",
           *             "supply_apr": "0.0000188",
           *             "borrow_apy": "0.0032620",
           *             "supply_apy": "0.0000188",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": null,
           *             "borrow_emission_apr_unavailable_reason": "price_missing",
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9687185",
           *             "last_accrued_at": "2026-01-01T02:44:55.000Z",
           *             "rate_ledger": 2979,
           *             "config_ledger": 1000,
           *             "supplied_usd": "10900599.0266901",
           *             "borrowed_usd": "78871.6342313",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "index": 2,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9000000",
           *             "l_factor": "0.9000000",
           *             "target_utilization": "0.7500000",
           *             "max_utilization": "0.9000000",
           *             "r_base": "0.0050000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.1500000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "200000000.0000000",
           *             "b_rate": "1.000000074848",
           *             "d_rate": "1.000002266648",
           *             "b_supply": "713744.6271047",
           *             "d_supply": "118295.4683259",
           *             "backstop_credit": "0.0130570",
           *             "supplied": "713744.6805270",
           *             "borrowed": "118295.7364601",
           *             "utilization": "0.1657396",
           *             "borrow_apr": "0.0155963",
           *             "supply_apr": "0.0020679",
           *             "borrow_apy": "0.0157183",
           *             "supply_apy": "0.0020699",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": "0.0000000",
           *             "supply_emission_apr_unavailable_reason": null,
           *             "borrow_emission_apr": "0.0000000",
           *             "borrow_emission_apr_unavailable_reason": null,
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9717659",
           *             "last_accrued_at": "2026-01-01T02:46:30.000Z",
           *             "rate_ledger": 2998,
           *             "config_ledger": 1000,
           *             "supplied_usd": "764359.0054195",
           *             "borrowed_usd": "126684.5329050",
           *             "usd_unavailable_reason": null
           *           }
           *         ],
           *         "supplied_usd": "12536442.6315685",
           *         "borrowed_usd": "347645.4025223"
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CD5KZSFNRZKDODPMMX5SCUXMPNE27AFBDDLJLTQREKQUYKQ5XBO322BW": {
           *             "decimals": 7,
           *             "price_source": null,
           *             "price_usd": null,
           *             "symbol": "CD5KZSFNRZKDODPMMX5SCUXMPNE27AFBDDLJLTQREKQUYKQ5XBO322BW",
           *             "tags": []
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL": {
           *             "name": "Blend Devnet Fixed (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2998,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PoolAnswerLending']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E is not a lendingprotocol pool this network lists"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingReserves: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: every Blend reserve at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "reserves": [
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "index": 0,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.7500000",
           *             "l_factor": "0.7500000",
           *             "target_utilization": "0.5000000",
           *             "max_utilization": "0.7000000",
           *             "r_base": "0.0100000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.5000000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000020",
           *             "supply_cap": "2000000000.0000000",
           *             "b_rate": "1.000001258605",
           *             "d_rate": "1.000008026063",
           *             "b_supply": "3624493.9795112",
           *             "d_supply": "590943.4237919",
           *             "backstop_credit": "0.6083252",
           *             "supplied": "3624498.5413174",
           *             "borrowed": "590948.1667411",
           *             "utilization": "0.1630428",
           *             "borrow_apr": "0.0261252",
           *             "supply_apr": "0.0034076",
           *             "borrow_apy": "0.0264685",
           *             "supply_apy": "0.0034133",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": null,
           *             "borrow_emission_apr_unavailable_reason": "price_missing",
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9931881",
           *             "last_accrued_at": "2026-01-01T02:45:45.000Z",
           *             "rate_ledger": 2989,
           *             "config_ledger": 1000,
           *             "supplied_usd": "871484.5994589",
           *             "borrowed_usd": "142089.2353860",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "index": 1,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9500000",
           *             "l_factor": "0.9500000",
           *             "target_utilization": "0.8000000",
           *             "max_utilization": "0.9500000",
           *             "r_base": "0.0030000",
           *             "r_one": "0.0400000",
           *             "r_two": "0.1200000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "500000000.0000000",
           *             "b_rate": "1.000000001759",
           *             "d_rate": "1.000000959310",
           *             "b_supply": "10900599.0075160",
           *             "d_supply": "78871.5585690",
           *             "backstop_credit": "0.0053735",
           *             "supplied": "10900599.0266901",
           *             "borrowed": "78871.6342313",
           *             "utilization": "0.0072356",
           *             "borrow_apr": "0.0032567",
           *             "supply_apr": "0.0000188",
           *             "borrow_apy": "0.0032620",
           *             "supply_apy": "0.0000188",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": null,
           *             "borrow_emission_apr_unavailable_reason": "price_missing",
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9687185",
           *             "last_accrued_at": "2026-01-01T02:44:55.000Z",
           *             "rate_ledger": 2979,
           *             "config_ledger": 1000,
           *             "supplied_usd": "10900599.0266901",
           *             "borrowed_usd": "78871.6342313",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "index": 2,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9000000",
           *             "l_factor": "0.9000000",
           *             "target_utilization": "0.7500000",
           *             "max_utilization": "0.9000000",
           *             "r_base": "0.0050000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.1500000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "200000000.0000000",
           *             "b_rate": "1.000000074848",
           *             "d_rate": "1.000002266648",
           *             "b_supply": "713744.6271047",
           *             "d_supply": "118295.4683259",
           *             "backstop_credit": "0.0130570",
           *             "supplied": "713744.6805270",
           *             "borrowed": "118295.7364601",
           *             "utilization": "0.1657396",
           *             "borrow_apr": "0.0155963",
           *             "supply_apr": "0.0020679",
           *             "borrow_apy": "0.0157183",
           *             "supply_apy": "0.0020699",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": "0.0000000",
           *             "supply_emission_apr_unavailable_reason": null,
           *             "borrow_emission_apr": "0.0000000",
           *             "borrow_emission_apr_unavailable_reason": null,
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9717659",
           *             "last_accrued_at": "2026-01-01T02:46:30.000Z",
           *             "rate_ledger": 2998,
           *             "config_ledger": 1000,
           *             "supplied_usd": "764359.0054195",
           *             "borrowed_usd": "126684.5329050",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "index": 0,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.7500000",
           *             "l_factor": "0.7500000",
           *             "target_utilization": "0.5000000",
           *             "max_utilization": "0.7000000",
           *             "r_base": "0.0100000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.5000000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000020",
           *             "supply_cap": "2000000000.0000000",
           *             "b_rate": "1.000000088046",
           *             "d_rate": "1.000003868048",
           *             "b_supply": "7125745.5814363",
           *             "d_supply": "105926.7498113",
           *             "backstop_credit": "0.0565210",
           *             "supplied": "7125746.2088296",
           *             "borrowed": "105927.1595411",
           *             "utilization": "0.0148655",
           *             "borrow_apr": "0.0113780",
           *             "supply_apr": "0.0001522",
           *             "borrow_apy": "0.0114428",
           *             "supply_apy": "0.0001522",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": "0.0000000",
           *             "borrow_emission_apr_unavailable_reason": null,
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9905378",
           *             "last_accrued_at": "2026-01-01T02:46:30.000Z",
           *             "rate_ledger": 2998,
           *             "config_ledger": 1000,
           *             "supplied_usd": "1713334.4129836",
           *             "borrowed_usd": "25469.4234670",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "index": 1,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9500000",
           *             "l_factor": "0.9500000",
           *             "target_utilization": "0.8000000",
           *             "max_utilization": "0.9500000",
           *             "r_base": "0.0030000",
           *             "r_one": "0.0400000",
           *             "r_two": "0.1200000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "500000000.0000000",
           *             "b_rate": "1.000000008819",
           *             "d_rate": "1.000001058651",
           *             "b_supply": "10181610.1145844",
           *             "d_supply": "31943.9367858",
           *             "backstop_credit": "0.0101503",
           *             "supplied": "10181610.2043760",
           *             "borrowed": "31943.9706033",
           *             "utilization": "0.0031375",
           *             "borrow_apr": "0.0030579",
           *             "supply_apr": "0.0000086",
           *             "borrow_apy": "0.0030626",
           *             "supply_apy": "0.0000086",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": "0.0000000",
           *             "borrow_emission_apr_unavailable_reason": null,
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9686380",
           *             "last_accrued_at": "2026-01-01T02:45:15.000Z",
           *             "rate_ledger": 2983,
           *             "config_ledger": 1000,
           *             "supplied_usd": "10181610.2043760",
           *             "borrowed_usd": "31943.9706033",
           *             "usd_unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "index": 2,
           *             "decimals": 7,
           *             "enabled": true,
           *             "c_factor": "0.9000000",
           *             "l_factor": "0.9000000",
           *             "target_utilization": "0.7500000",
           *             "max_utilization": "0.9000000",
           *             "r_base": "0.0050000",
           *             "r_one": "0.0500000",
           *             "r_two": "0.1500000",
           *             "r_three": "5.0000000",
           *             "reactivity": "0.0000040",
           *             "supply_cap": "200000000.0000000",
           *             "b_rate": "1.000000163703",
           *             "d_rate": "1.000002680292",
           *             "b_supply": "295200.8548096",
           *             "d_supply": "23691.6262196",
           *             "backstop_credit": "0.0046688",
           *             "supplied": "295200.9031348",
           *             "borrowed": "23691.6897201",
           *             "utilization": "0.0802562",
           *             "borrow_apr": "0.0100671",
           *             "supply_apr": "0.0007271",
           *             "borrow_apy": "0.0101179",
           *             "supply_apy": "0.0007273",
           *             "rates_unavailable_reason": null,
           *             "supply_emission_apr": null,
           *             "supply_emission_apr_unavailable_reason": "price_missing",
           *             "borrow_emission_apr": "0.0000000",
           *             "borrow_emission_apr_unavailable_reason": null,
           *             "computed_ledger": 2999,
           *             "ir_mod": "0.9726145",
           *             "last_accrued_at": "2026-01-01T02:46:10.000Z",
           *             "rate_ledger": 2994,
           *             "config_ledger": 1000,
           *             "supplied_usd": "316134.7115784",
           *             "borrowed_usd": "25371.7567153",
           *             "usd_unavailable_reason": null
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CD5KZSFNRZKDODPMMX5SCUXMPNE27AFBDDLJLTQREKQUYKQ5XBO322BW": {
           *             "decimals": 7,
           *             "price_source": null,
           *             "price_usd": null,
           *             "symbol": "CD5KZSFNRZKDODPMMX5SCUXMPNE27AFBDDLJLTQREKQUYKQ5XBO322BW",
           *             "tags": []
           *           },
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL": {
           *             "name": "Blend Devnet Fixed (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           },
           *           "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ": {
           *             "name": "Blend Devnet YieldBlox (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2998,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ReservesAnswerLending']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getLendingEmissions: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: blend emissions at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "emissions": [
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "reserve_token_id": 0,
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "token_type": "d_token",
           *             "share": "0.2000000",
           *             "eps": "0.00194940063756",
           *             "expires_at": "2026-01-08T02:00:00.000Z",
           *             "index": "0.00006903681744",
           *             "index_updated_at": "2026-01-01T02:43:50.000Z",
           *             "ledger": 2966
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "reserve_token_id": 1,
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "token_type": "b_token",
           *             "share": "0.3000000",
           *             "eps": "0.00292410095634",
           *             "expires_at": "2026-01-08T02:00:00.000Z",
           *             "index": "0.00001143056600",
           *             "index_updated_at": "2026-01-01T02:45:45.000Z",
           *             "ledger": 2989
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "reserve_token_id": 2,
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_type": "d_token",
           *             "share": "0.2500000",
           *             "eps": "0.00243675079695",
           *             "expires_at": "2026-01-08T02:00:00.000Z",
           *             "index": "0.00088285834589",
           *             "index_updated_at": "2026-01-01T02:42:25.000Z",
           *             "ledger": 2949
           *           },
           *           {
           *             "contract_address": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *             "reserve_token_id": 3,
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_type": "b_token",
           *             "share": "0.2500000",
           *             "eps": "0.00243675079695",
           *             "expires_at": "2026-01-08T02:00:00.000Z",
           *             "index": "0.00000154405330",
           *             "index_updated_at": "2026-01-01T02:44:55.000Z",
           *             "ledger": 2979
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "reserve_token_id": 1,
           *             "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "token_type": "b_token",
           *             "share": "0.4000000",
           *             "eps": "0.00458792584722",
           *             "expires_at": "2026-01-08T02:00:35.000Z",
           *             "index": "0.00001198104675",
           *             "index_updated_at": "2026-01-01T02:46:30.000Z",
           *             "ledger": 2998
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "reserve_token_id": 3,
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_type": "b_token",
           *             "share": "0.3000000",
           *             "eps": "0.00344094438525",
           *             "expires_at": "2026-01-08T02:00:35.000Z",
           *             "index": "0.00000249898653",
           *             "index_updated_at": "2026-01-01T02:45:15.000Z",
           *             "ledger": 2983
           *           },
           *           {
           *             "contract_address": "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ",
           *             "reserve_token_id": 5,
           *             "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "token_type": "b_token",
           *             "share": "0.3000000",
           *             "eps": "0.00344094438525",
           *             "expires_at": "2026-01-08T02:00:35.000Z",
           *             "index": "0.00016019897900",
           *             "index_updated_at": "2026-01-01T02:46:10.000Z",
           *             "ledger": 2994
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {},
           *         "contracts": {
           *           "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL": {
           *             "name": "Blend Devnet Fixed (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           },
           *           "CDPYVUAFCP7IUTD7MIXJRTIPPBM7D6D5EJC3YELLJOSLAIJ23AQN53RQ": {
           *             "name": "Blend Devnet YieldBlox (v2)",
           *             "position_types": [
           *               "supply",
           *               "collateral",
           *               "borrow"
           *             ],
           *             "protocol": "lendingprotocol",
           *             "status": "active",
           *             "version": "2"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2998,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 0,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['EmissionsAnswerLending']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmPool: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A contract (C...) StrKey of one of the protocol's pools
         * @example CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC
         */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: a Soroswap pair at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "contract_address": "CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC",
           *         "token_0": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *         "token_1": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *         "reserve_0": "1186385.2916120",
           *         "reserve_1": "4608815.6676139",
           *         "total_supply": "2335915.0253757",
           *         "price_0_in_1": "3.884754556718817421",
           *         "price_1_in_0": "0.257416520245909847",
           *         "tvl_usd": "2294541.8628685",
           *         "state_ledger": 2997,
           *         "usd_unavailable_reason": null,
           *         "volume_24h": {
           *           "from_ledger": 1000,
           *           "to_ledger": 2999,
           *           "swaps": 348,
           *           "token_0_in": "225485.7731346",
           *           "token_0_out": "329350.2303482",
           *           "token_1_in": "1127598.7092011",
           *           "token_1_out": "748962.4116186",
           *           "fees_0": "676.4573222",
           *           "fees_1": "3382.7961373",
           *           "volume_usd": "496608.7707676",
           *           "fees_usd": "1489.8263174",
           *           "unavailable_reason": null
           *         }
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC": {
           *             "name": "Soroswap USDC/XLM (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2997,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PoolAnswerAmm']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E is not a ammprotocol pool this network lists"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getAmmReserves: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: every Soroswap pair at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "pairs": [
           *           {
           *             "contract_address": "CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC",
           *             "token_0": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_1": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "reserve_0": "1186385.2916120",
           *             "reserve_1": "4608815.6676139",
           *             "total_supply": "2335915.0253757",
           *             "price_0_in_1": "3.884754556718817421",
           *             "price_1_in_0": "0.257416520245909847",
           *             "tvl_usd": "2294541.8628685",
           *             "state_ledger": 2997,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 348,
           *               "token_0_in": "225485.7731346",
           *               "token_0_out": "329350.2303482",
           *               "token_1_in": "1127598.7092011",
           *               "token_1_out": "748962.4116186",
           *               "fees_0": "676.4573222",
           *               "fees_1": "3382.7961373",
           *               "volume_usd": "496608.7707676",
           *               "fees_usd": "1489.8263174",
           *               "unavailable_reason": null
           *             }
           *           },
           *           {
           *             "contract_address": "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR",
           *             "token_0": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "token_1": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "reserve_0": "300600.8724324",
           *             "reserve_1": "1073221.6455031",
           *             "total_supply": "567280.3374365",
           *             "price_0_in_1": "3.570254593138112766",
           *             "price_1_in_0": "0.280092070162716182",
           *             "tvl_usd": "579966.0369054",
           *             "state_ledger": 2974,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 123,
           *               "token_0_in": "82235.5448247",
           *               "token_0_out": "83026.0487864",
           *               "token_1_in": "295673.3615676",
           *               "token_1_out": "290853.4337940",
           *               "fees_0": "246.7066371",
           *               "fees_1": "887.0200885",
           *               "volume_usd": "159159.7098974",
           *               "fees_usd": "477.4791334",
           *               "unavailable_reason": null
           *             }
           *           },
           *           {
           *             "contract_address": "CA4ES7EJXNA74RSID3NTOZXOE4CQJOKQ4R4BWSXPLLCTQ7GGEOLTAZ3Q",
           *             "token_0": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_1": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "reserve_0": "436135.3655130",
           *             "reserve_1": "405412.3336695",
           *             "total_supply": "419939.3180938",
           *             "price_0_in_1": "0.929556201416130674",
           *             "price_1_in_0": "1.075782183451147817",
           *             "tvl_usd": "870297.0154739",
           *             "state_ledger": 2997,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 225,
           *               "token_0_in": "163178.9139370",
           *               "token_0_out": "163641.1499911",
           *               "token_1_in": "151956.3225170",
           *               "token_1_out": "150603.9287375",
           *               "fees_0": "489.5367439",
           *               "fees_1": "455.8689734",
           *               "volume_usd": "325911.0318990",
           *               "fees_usd": "977.7331040",
           *               "unavailable_reason": null
           *             }
           *           },
           *           {
           *             "contract_address": "CALZ6V54D2W54JBQKYWBUS3JYVX4CPVSBVUYIPLLRNZ5A5DRMUFCPUW4",
           *             "token_0": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "token_1": "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V",
           *             "reserve_0": "203400.7581222",
           *             "reserve_1": "200772.2767485",
           *             "total_supply": "201874.0000000",
           *             "price_0_in_1": "0.987077327548008206",
           *             "price_1_in_0": "1.013091854195550122",
           *             "tvl_usd": "404173.0348707",
           *             "state_ledger": 2976,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 69,
           *               "token_0_in": "54635.6052688",
           *               "token_0_out": "53108.8471466",
           *               "token_1_in": "51945.0000006",
           *               "token_1_out": "53144.7232521",
           *               "fees_0": "163.9068170",
           *               "fees_1": "155.8350004",
           *               "volume_usd": "106580.6052694",
           *               "fees_usd": "319.7418174",
           *               "unavailable_reason": null
           *             }
           *           },
           *           {
           *             "contract_address": "CDUKFYPKZP3G6A3XDQZJOCE2QOXLGO5MS6OS66RNF4BPCRUSICP47KZM",
           *             "token_0": "CATSVP2MORUVCRME2J32TTEB2KZXPIUQN3UOHKPL6OREM72ZTJB73OPV",
           *             "token_1": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *             "reserve_0": "383512.7768331",
           *             "reserve_1": "393665.0977968",
           *             "total_supply": "388045.3464635",
           *             "price_0_in_1": "1.026471923693218085",
           *             "price_1_in_0": "0.974210766917060114",
           *             "tvl_usd": "832290.4863509",
           *             "state_ledger": 2702,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 62,
           *               "token_0_in": "67689.7527634",
           *               "token_0_out": "76874.9282480",
           *               "token_1_in": "77126.4855542",
           *               "token_1_out": "67414.4411195",
           *               "fees_0": "203.0692596",
           *               "fees_1": "231.3794584",
           *               "volume_usd": "155085.7034861",
           *               "fees_usd": "465.2571137",
           *               "unavailable_reason": null
           *             }
           *           },
           *           {
           *             "contract_address": "CDSNE2KNRUKPHRKUS3ELBT2CJEWAQ66SOJLDH3UFZMPVGOS5BUBEKCGI",
           *             "token_0": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *             "token_1": "CCXHM34U57KS53HCJ45233XOSEDZSQOW4ZU3ZCTBOJKESWZ3TXNIUELP",
           *             "reserve_0": "72633.0236858",
           *             "reserve_1": "11250.3350470",
           *             "total_supply": "27906.7699723",
           *             "price_0_in_1": "0.154892836289830493",
           *             "price_1_in_0": "6.456076497487799662",
           *             "tvl_usd": "31789.4171895",
           *             "state_ledger": 2974,
           *             "usd_unavailable_reason": null,
           *             "volume_24h": {
           *               "from_ledger": 1000,
           *               "to_ledger": 2999,
           *               "swaps": 146,
           *               "token_0_in": "114290.7066032",
           *               "token_0_out": "220942.4169638",
           *               "token_1_in": "18903.0061536",
           *               "token_1_out": "12743.1690337",
           *               "fees_0": "342.8721218",
           *               "fees_1": "56.7090236",
           *               "volume_usd": "51550.0422769",
           *               "fees_usd": "154.6501338",
           *               "unavailable_reason": null
           *             }
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CDV6WF4U5MWLOBQ7OC3FAKELU43N34KBEGSCPEJX7L4HKQXEJ6MNHF3V": {
           *             "decimals": 7,
           *             "price_source": "peg:USD",
           *             "price_usd": "1",
           *             "symbol": "USDx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CATSVP2MORUVCRME2J32TTEB2KZXPIUQN3UOHKPL6OREM72ZTJB73OPV": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           },
           *           "CCXHM34U57KS53HCJ45233XOSEDZSQOW4ZU3ZCTBOJKESWZ3TXNIUELP": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.27332467073761",
           *             "symbol": "GBPx",
           *             "tags": [
           *               "stablecoin",
           *               "debt"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CDE3FED24YMOBFUM7ZBRG6NKGOQLJA24KNHKULOFEWTOFZ7TFEYKBGXC": {
           *             "name": "Soroswap USDC/XLM (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           },
           *           "CBT7OTLBRAWU4X44Q2VKV5AGKFDO26M6LGQ4Y4MTO2GV2DCYZRSRPRBR": {
           *             "name": "Soroswap EURC/XLM (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           },
           *           "CA4ES7EJXNA74RSID3NTOZXOE4CQJOKQ4R4BWSXPLLCTQ7GGEOLTAZ3Q": {
           *             "name": "Soroswap USDC/EURC (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           },
           *           "CALZ6V54D2W54JBQKYWBUS3JYVX4CPVSBVUYIPLLRNZ5A5DRMUFCPUW4": {
           *             "name": "Soroswap USDC/USDx (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           },
           *           "CDUKFYPKZP3G6A3XDQZJOCE2QOXLGO5MS6OS66RNF4BPCRUSICP47KZM": {
           *             "name": "Soroswap EURx/EURC (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           },
           *           "CDSNE2KNRUKPHRKUS3ELBT2CJEWAQ66SOJLDH3UFZMPVGOS5BUBEKCGI": {
           *             "name": "Soroswap XLM/GBPx (devnet)",
           *             "position_types": [
           *               "liquidity"
           *             ],
           *             "protocol": "ammprotocol",
           *             "status": "active",
           *             "version": "1"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2997,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ReservesAnswerAmm']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldPool: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path: {
        /**
         * @description A contract (C...) StrKey of one of the protocol's pools
         * @example CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH
         */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: a DeFindex vault at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *         "name": "DeFindex Devnet USDC",
           *         "share_symbol": "dvUSDC",
           *         "total_supply": "169503.1687679",
           *         "vault_fee_bps": 1000,
           *         "protocol_fee_bps": 2000,
           *         "assets": [
           *           {
           *             "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *             "idle": "0.0000000",
           *             "invested": "169503.1628715",
           *             "total_managed_funds": "169503.1628715",
           *             "price_per_share": "0.999999965213",
           *             "apy_7d": {
           *               "apy": null,
           *               "from_ledger": null,
           *               "to_ledger": 2999,
           *               "unavailable_reason": "history_missing"
           *             },
           *             "apy_30d": {
           *               "apy": null,
           *               "from_ledger": null,
           *               "to_ledger": 2999,
           *               "unavailable_reason": "history_missing"
           *             },
           *             "strategies": [
           *               {
           *                 "contract_address": "CBAXEPU4MJSXI7LJOX23KPGI2ONSBE56MBQAKOQH466TP6FAFIMPY2NN",
           *                 "name": "USDC Blend Fixed",
           *                 "paused": false,
           *                 "pool": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *                 "shares": "169503.1625775",
           *                 "b_rate": "1.000000001759",
           *                 "b_rate_ledger": 2979,
           *                 "balance": "169503.1628756",
           *                 "locked_fee": "0.0000041",
           *                 "invested": "169503.1628715"
           *               }
           *             ]
           *           }
           *         ],
           *         "rate_ledger": 2979,
           *         "unavailable_reason": null
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH": {
           *             "name": "DeFindex Devnet USDC",
           *             "position_types": [
           *               "vault_share"
           *             ],
           *             "protocol": "yieldprotocol",
           *             "status": "active",
           *             "version": "32c8169b"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2979,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['PoolAnswerYield']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "CA7U7LK2FZOCF7PMKZLIT7QUFFEHMWOBE3BCAFNC3KWTR4CCVE4RIR4E is not a yieldprotocol pool this network lists"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getYieldReserves: {
    parameters: {
      query?: {
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1)
         * @example 2999
         */
        as_of_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: every DeFindex vault at a ledger */
      200: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": {
           *         "vaults": [
           *           {
           *             "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *             "name": "DeFindex Devnet USDC",
           *             "share_symbol": "dvUSDC",
           *             "total_supply": "169503.1687679",
           *             "vault_fee_bps": 1000,
           *             "protocol_fee_bps": 2000,
           *             "assets": [
           *               {
           *                 "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *                 "idle": "0.0000000",
           *                 "invested": "169503.1628715",
           *                 "total_managed_funds": "169503.1628715",
           *                 "price_per_share": "0.999999965213",
           *                 "apy_7d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "apy_30d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "strategies": [
           *                   {
           *                     "contract_address": "CBAXEPU4MJSXI7LJOX23KPGI2ONSBE56MBQAKOQH466TP6FAFIMPY2NN",
           *                     "name": "USDC Blend Fixed",
           *                     "paused": false,
           *                     "pool": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *                     "shares": "169503.1625775",
           *                     "b_rate": "1.000000001759",
           *                     "b_rate_ledger": 2979,
           *                     "balance": "169503.1628756",
           *                     "locked_fee": "0.0000041",
           *                     "invested": "169503.1628715"
           *                   }
           *                 ]
           *               }
           *             ],
           *             "rate_ledger": 2979,
           *             "unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CAQAS6XNDRI2AVIW4L4ZINXGRM23QZYVG6IDFDZEF45EHXADWNK25RHU",
           *             "name": "DeFindex Devnet EURC",
           *             "share_symbol": "dvEURC",
           *             "total_supply": "874041.4770974",
           *             "vault_fee_bps": 500,
           *             "protocol_fee_bps": 2000,
           *             "assets": [
           *               {
           *                 "asset": "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U",
           *                 "idle": "211787.1517796",
           *                 "invested": "662254.3766297",
           *                 "total_managed_funds": "874041.5284093",
           *                 "price_per_share": "1.000000058706",
           *                 "apy_7d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "apy_30d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "strategies": [
           *                   {
           *                     "contract_address": "CA6T3VHZJ54HORIA7QORLA4B6JJQELNKVROWFHSL6VVQKBSDMCKY5XYO",
           *                     "name": "EURC Blend Fixed",
           *                     "paused": false,
           *                     "pool": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *                     "shares": "662254.3270721",
           *                     "b_rate": "1.000000074848",
           *                     "b_rate_ledger": 2998,
           *                     "balance": "662254.3766405",
           *                     "locked_fee": "0.0000108",
           *                     "invested": "662254.3766297"
           *                   }
           *                 ]
           *               }
           *             ],
           *             "rate_ledger": 2998,
           *             "unavailable_reason": null
           *           },
           *           {
           *             "contract_address": "CDD33KQE4FJGX35GOJAJNMTQXHBBNI4XGWAH4FLYC4GL6KOT5GEA2L3X",
           *             "name": "DeFindex Devnet XLM",
           *             "share_symbol": "dvXLM",
           *             "total_supply": "856688.0717322",
           *             "vault_fee_bps": 2000,
           *             "protocol_fee_bps": 2000,
           *             "assets": [
           *               {
           *                 "asset": "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS",
           *                 "idle": "0.0000000",
           *                 "invested": "856688.9336620",
           *                 "total_managed_funds": "856688.9336620",
           *                 "price_per_share": "1.000001006118",
           *                 "apy_7d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "apy_30d": {
           *                   "apy": null,
           *                   "from_ledger": null,
           *                   "to_ledger": 2999,
           *                   "unavailable_reason": "history_missing"
           *                 },
           *                 "strategies": [
           *                   {
           *                     "contract_address": "CCDLVKLU3JOY7LF7ETWEP5CEKMA3DS4UERYXMXQKCT5HCNVD5IJXCGIE",
           *                     "name": "XLM Blend Fixed",
           *                     "paused": false,
           *                     "pool": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
           *                     "shares": "856687.8953476",
           *                     "b_rate": "1.000001258605",
           *                     "b_rate_ledger": 2989,
           *                     "balance": "856688.9735792",
           *                     "locked_fee": "0.0399172",
           *                     "invested": "856688.9336620"
           *                   }
           *                 ]
           *               }
           *             ],
           *             "rate_ledger": 2989,
           *             "unavailable_reason": null
           *           }
           *         ]
           *       },
           *       "enrichment": {
           *         "assets": {
           *           "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.00000000000000",
           *             "symbol": "USDC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CAZA3ADKIBVYAMSGNJEAFGMVX5AF7AFPMBLGWBDKFNOSJAEQFHDIBK5U": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "1.07091376828914",
           *             "symbol": "EURC",
           *             "tags": [
           *               "stablecoin",
           *               "collateral"
           *             ]
           *           },
           *           "CCF6GYPY47U2MITX74TLTFMEJMRUBDSXBVYDAPA6BJZTLQMFLNTT2APS": {
           *             "decimals": 7,
           *             "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *             "price_usd": "0.24044280595632",
           *             "symbol": "XLM",
           *             "tags": [
           *               "native",
           *               "collateral"
           *             ]
           *           }
           *         },
           *         "contracts": {
           *           "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH": {
           *             "name": "DeFindex Devnet USDC",
           *             "position_types": [
           *               "vault_share"
           *             ],
           *             "protocol": "yieldprotocol",
           *             "status": "active",
           *             "version": "32c8169b"
           *           },
           *           "CAQAS6XNDRI2AVIW4L4ZINXGRM23QZYVG6IDFDZEF45EHXADWNK25RHU": {
           *             "name": "DeFindex Devnet EURC",
           *             "position_types": [
           *               "vault_share"
           *             ],
           *             "protocol": "yieldprotocol",
           *             "status": "active",
           *             "version": "32c8169b"
           *           },
           *           "CDD33KQE4FJGX35GOJAJNMTQXHBBNI4XGWAH4FLYC4GL6KOT5GEA2L3X": {
           *             "name": "DeFindex Devnet XLM",
           *             "position_types": [
           *               "vault_share"
           *             ],
           *             "protocol": "yieldprotocol",
           *             "status": "active",
           *             "version": "32c8169b"
           *           }
           *         }
           *       },
           *       "meta": {
           *         "requested_ledger": 2999,
           *         "as_of_ledger": 2998,
           *         "valuation_ledger": 2999,
           *         "attribution_confidence": 1,
           *         "data_staleness_seconds": 65,
           *         "last_indexed_ledger": 3999,
           *         "indexed_from_ledger": 1000,
           *         "oracle_staleness_seconds": 95,
           *         "partial_result": false,
           *         "response_time_ms": 1,
           *         "sources": [
           *           "ledgers:strata-devnet-strata-demo",
           *           "oracle:CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG"
           *         ]
           *       }
           *     }
           */
          'application/json': components['schemas']['ReservesAnswerYield']
        }
      }
      /** @description Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands */
      304: {
        headers: {
          /** @description Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged */
          ETag?: string
          /** @description `public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer */
          'Cache-Control'?: string
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getStreamPositions: {
    parameters: {
      query: {
        /**
         * @description Comma-separated account or contract addresses (G... or C...), at most 200
         * @example GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD
         */
        addresses: string
        /**
         * @description Comma-separated registered protocols (vaultprotocol, lendingprotocol, ammprotocol, yieldprotocol); all when omitted
         * @example vaultprotocol,lendingprotocol,ammprotocol,yieldprotocol
         */
        protocols?: string
        /**
         * @description Start after this ledger (the changes of later ledgers, stored ones first) when no `Last-Event-ID` is sent
         * @example 2999
         */
        from_ledger?: number
        /**
         * @description End the stream once the events of this ledger are sent (a replay of a range), with `id: <to_ledger>` last; absent: the stream stays open
         * @example 3999
         */
        to_ledger?: number
        /**
         * @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed)
         * @example 3989
         */
        min_ledger?: number
      }
      header?: {
        /**
         * @description The id of the last event received (a ledger): the stream resumes after that ledger. Wins over `from_ledger`
         * @example 3999
         */
        'last-event-id'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The stream (`text/event-stream; charset=utf-8`): `retry:`, then `event: position.changed` events whose `data` is a PositionChangedEvent, and `: heartbeat` comments */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "type": "position.changed",
           *       "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *       "protocol": "yieldprotocol",
           *       "ledger": 3055,
           *       "closed_at": "2026-01-01T02:51:15.000Z",
           *       "previous_ledger": null,
           *       "item": {
           *         "ledger": 3055,
           *         "closed_at": "2026-01-01T02:51:15.000Z",
           *         "valuation_ledger": 3055,
           *         "data": {
           *           "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *           "positions": [
           *             {
           *               "protocol": "yieldprotocol",
           *               "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *               "position_type": "vault_share",
           *               "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
           *               "shares": "3595.0053501",
           *               "amount": "3595.0052256",
           *               "amount_usd": "3595.0052256",
           *               "price_per_share": "0.999999965373",
           *               "total_managed_funds": "170529.9033315",
           *               "total_supply": "170529.9092364",
           *               "rate_ledger": 3038,
           *               "ledger": 3055,
           *               "usd_unavailable_reason": null
           *             }
           *           ],
           *           "groups": [
           *             {
           *               "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
           *               "shares": "3595.0053501",
           *               "total_supply": "170529.9092364",
           *               "share_of_pool": "0.021081377256328462",
           *               "value_usd": "3595.0052256",
           *               "rate_ledger": 3038,
           *               "usd_unavailable_reason": null
           *             }
           *           ]
           *         },
           *         "enrichment": {
           *           "assets": {
           *             "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
           *               "decimals": 7,
           *               "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
           *               "price_usd": "1.00000000000000",
           *               "symbol": "USDC",
           *               "tags": [
           *                 "stablecoin",
           *                 "collateral"
           *               ]
           *             }
           *           },
           *           "contracts": {
           *             "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH": {
           *               "name": "DeFindex Devnet USDC",
           *               "position_types": [
           *                 "vault_share"
           *               ],
           *               "protocol": "yieldprotocol",
           *               "status": "active",
           *               "version": "32c8169b"
           *             }
           *           }
           *         },
           *         "oracle_staleness_seconds": 75,
           *         "partial_result": false
           *       }
           *     }
           */
          'text/event-stream': components['schemas']['PositionChangedEvent']
        }
      }
      /** @description No Content: `to_ledger` is given and the range is already sent (`Last-Event-ID` or `from_ledger` at `to_ledger`); EventSource stops reconnecting */
      204: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes an API key in the x-svc-token header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "insufficient_scope",
           *         "message": "the API key lacks the scope \"data:read\""
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "ledger_not_indexed",
           *         "message": "the index has reached ledger 3999, below min_ledger 9999999999",
           *         "details": [
           *           {
           *             "field": "min_ledger",
           *             "message": "the index has reached ledger 3999, below min_ledger 9999999999"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "rate_limited",
           *         "message": "the organization's quota of 600 requests per 60 s is exhausted"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  redeliverWebhookDelivery: {
    parameters: {
      query?: never
      header?: never
      path: {
        /**
         * @description The webhook id, as GET /v1/webhooks lists it
         * @example wh_3RV-2KSSGk7afTGi
         */
        id: string
        /**
         * @description The delivery id (`msg_<n>`, the `webhook-id` header it is sent with), as the deliveries list shows it
         * @example msg_1
         */
        delivery_id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK: send one delivery again */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "msg_1",
           *       "type": "position.changed",
           *       "ledger": 3520,
           *       "account": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
           *       "protocol": "yieldprotocol",
           *       "status": "delivered",
           *       "attempts": 2,
           *       "created_at": "2026-01-01T04:07:40.000Z",
           *       "last_attempt_at": "2026-01-01T04:11:00.000Z",
           *       "last_status": null,
           *       "last_error": "host not found (ENOTFOUND)",
           *       "delivered_at": "2026-01-01T04:07:41.000Z"
           *     }
           */
          'application/json': components['schemas']['WebhookDelivery']
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "invalid_request",
           *         "message": "unknown_parameter is not a known field",
           *         "details": [
           *           {
           *             "field": "unknown_parameter",
           *             "message": "unknown_parameter is not a known field"
           *           }
           *         ]
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unauthorized",
           *         "message": "missing credential: this endpoint takes a bearer access token in the authorization header"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "not_found",
           *         "message": "delivery msg_999999 not found among this webhook's deliveries"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `request_timeout`: The request (its headers and body) did not arrive within the time allowed; the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "request_timeout",
           *         "message": "the request did not arrive within 30000 ms"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "payload_too_large",
           *         "message": "the request body is larger than the limit"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `uri_too_long`: A path segment (such as the address) is longer than the router accepts. */
      414: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "uri_too_long",
           *         "message": "a path segment is longer than the router accepts"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal",
           *         "message": "internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unavailable`: A dependency (the database) cannot be reached. */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "unavailable",
           *         "message": "the database cannot be reached; see /v1/health"
           *       },
           *       "meta": {
           *         "request_id": "8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10",
           *         "response_time_ms": 1
           *       }
           *     }
           */
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  positionChangedWebhook: {
    parameters: {
      query?: never
      header: {
        /**
         * @description The message id: the same on every retry and redelivery of this event (deduplicate on it)
         * @example msg_42
         */
        'webhook-id': string
        /**
         * @description When this attempt was signed, in seconds since the epoch (reject one far from now)
         * @example 1767232275
         */
        'webhook-timestamp': string
        /**
         * @description Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body` (two for 24 h after a rotation): accept the delivery when one matches
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "position.changed",
         *       "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
         *       "protocol": "yieldprotocol",
         *       "ledger": 3055,
         *       "closed_at": "2026-01-01T02:51:15.000Z",
         *       "previous_ledger": null,
         *       "item": {
         *         "ledger": 3055,
         *         "closed_at": "2026-01-01T02:51:15.000Z",
         *         "valuation_ledger": 3055,
         *         "data": {
         *           "address": "GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD",
         *           "positions": [
         *             {
         *               "protocol": "yieldprotocol",
         *               "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
         *               "position_type": "vault_share",
         *               "asset": "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO",
         *               "shares": "3595.0053501",
         *               "amount": "3595.0052256",
         *               "amount_usd": "3595.0052256",
         *               "price_per_share": "0.999999965373",
         *               "total_managed_funds": "170529.9033315",
         *               "total_supply": "170529.9092364",
         *               "rate_ledger": 3038,
         *               "ledger": 3055,
         *               "usd_unavailable_reason": null
         *             }
         *           ],
         *           "groups": [
         *             {
         *               "contract_address": "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH",
         *               "shares": "3595.0053501",
         *               "total_supply": "170529.9092364",
         *               "share_of_pool": "0.021081377256328462",
         *               "value_usd": "3595.0052256",
         *               "rate_ledger": 3038,
         *               "usd_unavailable_reason": null
         *             }
         *           ]
         *         },
         *         "enrichment": {
         *           "assets": {
         *             "CAJ4WCUPAMN5TG6G3D56O2Z5JZFSLAA7P43ALGKEVQKX7RFY6V2I25TO": {
         *               "decimals": 7,
         *               "price_source": "CBU2BMYOFIUQVR26SKACXCBCAUQ4N3BNSJLZRCFAOQXMQ64D6DXEPJKG",
         *               "price_usd": "1.00000000000000",
         *               "symbol": "USDC",
         *               "tags": [
         *                 "stablecoin",
         *                 "collateral"
         *               ]
         *             }
         *           },
         *           "contracts": {
         *             "CBFRUOV7JEWKRDSKUW75ZCFIUXW3QVFLP4LSN2CQJJSHSOI4DQCBH2JH": {
         *               "name": "DeFindex Devnet USDC",
         *               "position_types": [
         *                 "vault_share"
         *               ],
         *               "protocol": "yieldprotocol",
         *               "status": "active",
         *               "version": "32c8169b"
         *             }
         *           }
         *         },
         *         "oracle_staleness_seconds": 75,
         *         "partial_result": false
         *       }
         *     }
         */
        'application/json': components['schemas']['PositionChangedEvent']
      }
    }
    responses: {
      /** @description Any 2xx answer within the timeout acknowledges the delivery */
      200: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description Any other answer (or none in time, or a redirect) is a failed attempt: retried on the schedule, the subscription disabled when it is spent */
      400: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  activityCreatedWebhook: {
    parameters: {
      query?: never
      header: {
        /**
         * @description The message id: the same on every retry and redelivery of this event (deduplicate on it)
         * @example msg_42
         */
        'webhook-id': string
        /**
         * @description When this attempt was signed, in seconds since the epoch (reject one far from now)
         * @example 1767232275
         */
        'webhook-timestamp': string
        /**
         * @description Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body` (two for 24 h after a rotation): accept the delivery when one matches
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['ActivityCreatedEvent']
      }
    }
    responses: {
      /** @description Any 2xx answer within the timeout acknowledges the delivery */
      200: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description Any other answer (or none in time, or a redirect) is a failed attempt: retried on the schedule, the subscription disabled when it is spent */
      400: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  healthFactorBelowWebhook: {
    parameters: {
      query?: never
      header: {
        /**
         * @description The message id: the same on every retry and redelivery of this event (deduplicate on it)
         * @example msg_42
         */
        'webhook-id': string
        /**
         * @description When this attempt was signed, in seconds since the epoch (reject one far from now)
         * @example 1767232275
         */
        'webhook-timestamp': string
        /**
         * @description Space-separated `v1,<base64 HMAC-SHA256>` signatures of `id.timestamp.body` (two for 24 h after a rotation): accept the delivery when one matches
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "health_factor.below",
         *       "address": "GA24HY5B2A3ZXPLUJYNAL23IUDQANQHKRH7FMCEOTAJW4CPFCB3C5JTK",
         *       "protocol": "lendingprotocol",
         *       "ledger": 2999,
         *       "closed_at": null,
         *       "pool": "CCGH5H3EVIHWDX5K32X5BK43ZIZDRYHPW2COXYDAV7HX3YFPK76RTAFL",
         *       "direction": "below",
         *       "threshold": "9.9000000",
         *       "health_factor": "1.3341593",
         *       "previous_health_factor": null
         *     }
         */
        'application/json': components['schemas']['HealthFactorCrossingEvent']
      }
    }
    responses: {
      /** @description Any 2xx answer within the timeout acknowledges the delivery */
      200: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
      /** @description Any other answer (or none in time, or a redirect) is a failed attempt: retried on the schedule, the subscription disabled when it is spent */
      400: {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
}
