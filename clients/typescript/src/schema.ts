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
    post: operations['postAuthSignup']
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
    post: operations['postAuthLogin']
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
    post: operations['postAuthRefresh']
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
    post: operations['postAuthLogout']
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
    get: operations['getOrgApiKeys']
    put?: never
    /**
     * Create an organization and an API key
     * @description Creates the organization (or reuses the one with this slug, unchanged) and a new key. The `key` value appears only in this response; only its HMAC is stored. A slug taken by self-service signup is 409 unless `reuse_signup_organization` is true. Send an `Idempotency-Key` header to retry safely: the same key and request within 24 hours replays the first answer (header `Idempotent-Replayed: true`) and creates nothing; the same key with another request is 422, and while the first still runs 409.
     */
    post: operations['postOrgApiKeys']
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
    post: operations['postOrgApiKeysNew']
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
    delete: operations['deleteOrgApiKeysId']
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
    post: operations['postOrgApiKeysIdRotate']
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
    /** Get the caller's organization */
    get: operations['getOrg']
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
    patch: operations['patchOrgBilling']
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
     * @description Newest first: organization created and plan changed; user created, login, failed login and logout; API key created, rotated and revoked. Each event is written in the same transaction as the change it records.
     */
    get: operations['getOrgAuditLog']
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
    get: operations['getUsersAddressPositionsVaultprotocol']
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
    get: operations['getUsersAddressPositionsVaultprotocolAtLedger']
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
    get: operations['getUsersAddressPositionsVaultprotocolHistory']
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
    get: operations['getUsersAddressPositionsLendingprotocol']
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
    get: operations['getUsersAddressPositionsLendingprotocolAtLedger']
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
    get: operations['getUsersAddressPositionsLendingprotocolHistory']
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
    get: operations['getUsersAddressPositionsAmmprotocol']
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
    get: operations['getUsersAddressPositionsAmmprotocolAtLedger']
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
    get: operations['getUsersAddressPositionsAmmprotocolHistory']
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
    get: operations['getUsersAddressPositionsYieldprotocol']
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
    get: operations['getUsersAddressPositionsYieldprotocolAtLedger']
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
    get: operations['getUsersAddressPositionsYieldprotocolHistory']
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
    get: operations['getUsersAddressPositions']
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
    get: operations['getUsersAddressPositionsAtLedger']
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
    get: operations['getProtocols']
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
    get: operations['getTransactionsHash']
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
    get: operations['getUsersAddressActivities']
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
    get: operations['getUsersAddressActivitiesSeries']
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
    get: operations['getProtocolsVaultprotocolTvl']
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
    get: operations['getProtocolsLendingprotocolTvl']
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
    get: operations['getProtocolsAmmprotocolTvl']
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
    get: operations['getProtocolsYieldprotocolTvl']
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
    get: operations['getProtocolsLendingprotocolPoolsPool']
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
    get: operations['getProtocolsLendingprotocolReserves']
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
    get: operations['getProtocolsLendingprotocolEmissions']
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
    get: operations['getProtocolsAmmprotocolPoolsPool']
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
    get: operations['getProtocolsAmmprotocolReserves']
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
    get: operations['getProtocolsYieldprotocolPoolsPool']
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
    get: operations['getProtocolsYieldprotocolReserves']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export type webhooks = Record<string, never>
export interface components {
  schemas: {
    /** @description Every error answer */
    ErrorEnvelope: {
      error: {
        /** @description Machine-readable code, lower snake case */
        code: string
        message: string
        /** @description One entry per invalid field */
        details?: {
          field: string
          message: string
        }[]
      }
      meta: {
        request_id: string
        response_time_ms: number
      }
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
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @description `unavailable` (HTTP 503): the database cannot be read. `degraded` (HTTP 200): answers are served but `problems` names what is wrong. `ok`: nothing is */
            status: 'ok' | 'degraded' | 'unavailable'
            version: string
            database: 'ok' | 'unreachable'
            rate_limiter: 'memory' | 'redis'
            indexer: {
              /** @description The first ledger the store ingested: the indexed range is first..last */
              first_indexed_ledger: number | null
              last_indexed_ledger: number | null
              data_staleness_seconds: number | null
              /** @description This process's indexer: `running`, `standby` (another process holds the indexer lock), `retrying` (its last pass failed; it resumes from the checkpoint), `stopped` (it will not resume); null when this process runs none */
              state: 'running' | 'standby' | 'retrying' | 'stopped' | null
              /** @description Staleness above this is the problem `indexer_behind` (`STRATA_MAX_INDEXER_LAG_S`); null when not checked */
              max_lag_seconds: number | null
            }
            /** @description Everything wrong now; empty when `status` is `ok` */
            problems: {
              /** @description The part of the service that is unwell */
              component: 'database' | 'store_writes' | 'indexer' | 'rate_limiter'
              /** @description Stable code of the problem (docs/operations.md lists each, with what to do) */
              code: string
              /** @description What is wrong and why, with the cause the system reported */
              message: string
              /**
               * Format: date-time
               * @description When this problem was first seen
               */
              started_at: string
            }[]
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description Default Response */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @description `unavailable` (HTTP 503): the database cannot be read. `degraded` (HTTP 200): answers are served but `problems` names what is wrong. `ok`: nothing is */
            status: 'ok' | 'degraded' | 'unavailable'
            version: string
            database: 'ok' | 'unreachable'
            rate_limiter: 'memory' | 'redis'
            indexer: {
              /** @description The first ledger the store ingested: the indexed range is first..last */
              first_indexed_ledger: number | null
              last_indexed_ledger: number | null
              data_staleness_seconds: number | null
              /** @description This process's indexer: `running`, `standby` (another process holds the indexer lock), `retrying` (its last pass failed; it resumes from the checkpoint), `stopped` (it will not resume); null when this process runs none */
              state: 'running' | 'standby' | 'retrying' | 'stopped' | null
              /** @description Staleness above this is the problem `indexer_behind` (`STRATA_MAX_INDEXER_LAG_S`); null when not checked */
              max_lag_seconds: number | null
            }
            /** @description Everything wrong now; empty when `status` is `ok` */
            problems: {
              /** @description The part of the service that is unwell */
              component: 'database' | 'store_writes' | 'indexer' | 'rate_limiter'
              /** @description Stable code of the problem (docs/operations.md lists each, with what to do) */
              code: string
              /** @description What is wrong and why, with the cause the system reported */
              message: string
              /**
               * Format: date-time
               * @description When this problem was first seen
               */
              started_at: string
            }[]
          }
        }
      }
    }
  }
  postAuthSignup: {
    parameters: {
      query?: never
      header?: {
        /** @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          organization_name: string
          /**
           * Format: slug
           * @description Lower-case letters, digits and inner hyphens (not at either end), 2 to 64 characters
           */
          organization_slug: string
          /** Format: email */
          email: string
          password: string
        }
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            organization_id: string
            organization_slug: string
            user_id: string
            access_token: string
            refresh_token: string
            /** @description Access token lifetime in seconds */
            expires_in: number
            api_key: {
              organization_id: string
              organization_slug: string
              /** @description true when the key joined an organization that existed before this request */
              organization_reused: boolean
              api_key_id: string
              key_prefix: string
              scopes: string[]
              /** @description The secret, shown in this response only */
              key: string
              expires_at: string | null
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postAuthLogin: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          email: string
          password: string
        }
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            access_token: string
            refresh_token: string
            /** @description Access token lifetime in seconds */
            expires_in: number
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postAuthRefresh: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          refresh_token: string
        }
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            access_token: string
            /** @description Access token lifetime in seconds */
            expires_in: number
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postAuthLogout: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          refresh_token: string
        }
      }
    }
    responses: {
      /** @description Default Response */
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
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getOrgApiKeys: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            id: string
            name: string
            prefix: string
            scopes: string[]
            revoked: boolean
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            created_at: string
            last_used_at: string | null
            expires_at: string | null
          }[]
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postOrgApiKeys: {
    parameters: {
      query?: never
      header?: {
        /** @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          organization_name: string
          /**
           * Format: slug
           * @description Lower-case letters, digits and inner hyphens (not at either end), 2 to 64 characters
           */
          organization_slug: string
          key_name: string
          /** @description `data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing. */
          scopes?: 'data:read'[]
          expires_at?: string | null
          /** @description Issue the key to the organization someone created by signup with this slug. Without it such a slug is 409: the operator confirms that this organization is the one meant. */
          reuse_signup_organization?: boolean
        }
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            organization_id: string
            organization_slug: string
            /** @description true when the key joined an organization that existed before this request */
            organization_reused: boolean
            api_key_id: string
            key_prefix: string
            scopes: string[]
            /** @description The secret, shown in this response only */
            key: string
            expires_at: string | null
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postOrgApiKeysNew: {
    parameters: {
      query?: never
      header?: {
        /** @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once */
        'idempotency-key'?: string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          name: string
          /** @description `data:read` reads every data endpoint. A key with no scopes authenticates but may call nothing. */
          scopes?: 'data:read'[]
          expires_at?: string | null
        }
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            organization_id: string
            organization_slug: string
            /** @description true when the key joined an organization that existed before this request */
            organization_reused: boolean
            api_key_id: string
            key_prefix: string
            scopes: string[]
            /** @description The secret, shown in this response only */
            key: string
            expires_at: string | null
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `payload_too_large`: The request body is larger than the limit. */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  deleteOrgApiKeysId: {
    parameters: {
      query?: {
        /** @description `last_key`: revoke the key even if it is the organization's last active one. Without it that revocation is 409. */
        confirm?: 'last_key'
      }
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
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
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  postOrgApiKeysIdRotate: {
    parameters: {
      query?: never
      header?: {
        /** @description Printable ASCII (space to ~), 1 to 255 characters, such as a random UUID: one key per request meant to run once */
        'idempotency-key'?: string
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description How long the old key stays valid, in seconds (at most one week)
           * @default 0
           */
          old_key_expires_in_seconds?: number
        }
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            organization_id: string
            organization_slug: string
            /** @description true when the key joined an organization that existed before this request */
            organization_reused: boolean
            api_key_id: string
            key_prefix: string
            scopes: string[]
            /** @description The secret, shown in this response only */
            key: string
            expires_at: string | null
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `conflict`: The resource exists already, or a request with the same `Idempotency-Key` is still running (retry after `Retry-After` seconds). */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `idempotency_key_reused`: The `Idempotency-Key` was used in the last 24 hours for another request (method, path or body); a new request needs a new key. */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getOrg: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            id: string
            name: string
            slug: string
            plan: 'free' | 'pro' | 'enterprise'
            /** @description The highest plan the operator allows this organization (`strata set-plan`); it may choose any plan up to it */
            max_plan: 'free' | 'pro' | 'enterprise'
            rate_limit: {
              /** @description Requests per window, shared by every key of the organization */
              limit: number
              window_seconds: number
            }
            billing_email: string | null
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            created_at: string
          }
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  patchOrgBilling: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          plan?: 'free' | 'pro' | 'enterprise'
          billing_email?: string | null
        }
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            plan: 'free' | 'pro' | 'enterprise'
            /** @description The highest plan the operator allows this organization (`strata set-plan`); it may choose any plan up to it */
            max_plan: 'free' | 'pro' | 'enterprise'
            billing_email: string | null
            rate_limit: {
              /** @description Requests per window, shared by every key of the organization */
              limit: number
              window_seconds: number
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `forbidden`: The caller may not make this change (a paid plan is granted by the operator). */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unsupported_media_type`: The request body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getOrgAuditLog: {
    parameters: {
      query?: {
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of an earlier page, unchanged */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              id: string
              /**
               * Format: date-time
               * @description RFC 3339 timestamp (UTC)
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
              /** @description The user who acted, `admin` for the operator, or null for an unauthenticated attempt */
              actor: string | null
              /** @description What was acted on: a key, user or organization id */
              target: string | null
              /** @description The client address (see TRUST_PROXY); null for the CLI */
              client_ip: string | null
              details: {
                /** @description organization.created: the organization slug */
                slug?: string
                /** @description api_key.created, api_key.rotated: the key name */
                name?: string
                /** @description api_key.created, api_key.rotated: the prefix of the (new) key */
                key_prefix?: string
                /** @description api_key.created, api_key.rotated: the scopes granted */
                scopes?: string[]
                /** @description api_key.rotated: the key that replaces the rotated one */
                new_key_id?: string
                /**
                 * Format: date-time
                 * @description api_key.rotated: when the rotated key stops working (RFC 3339)
                 */
                old_key_expires_at?: string
                /** @description organization.plan_changed: the plan before */
                from?: string
                /** @description organization.plan_changed: the plan after */
                to?: string
                /** @description organization.plan_changed: the highest plan the operator allows, after */
                max_plan?: string
              } | null
            }[]
            meta: {
              /** @description The page size used */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null on the last page */
              next_cursor: string | null
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsVaultprotocol: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              vaults: {
                /** @description Collateral in the collateral asset's units, with exactly its decimals */
                collateral: string
                /** @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable */
                collateral_usd: string | null
                /** @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable */
                collateralization_ratio: string | null
                contract_address: string
                /** @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals */
                debt: string
                /** @description debt × the denomination price (USD is exactly 1), 7 decimals */
                debt_usd: string | null
                denomination: string
                /** @description Ledger at which this position itself last changed */
                ledger: number
                /** @description collateral_usd − debt_usd of the rounded values */
                net_usd: string | null
                /**
                 * @description Why the USD fields are null: price_missing or price_stale; null when they are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | null
                /** @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list */
                vault_index: string
                /** @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue */
                rate_ledger?: null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsVaultprotocolAtLedger: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger) */
        ledger: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              vaults: {
                /** @description Collateral in the collateral asset's units, with exactly its decimals */
                collateral: string
                /** @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable */
                collateral_usd: string | null
                /** @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable */
                collateralization_ratio: string | null
                contract_address: string
                /** @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals */
                debt: string
                /** @description debt × the denomination price (USD is exactly 1), 7 decimals */
                debt_usd: string | null
                denomination: string
                /** @description Ledger at which this position itself last changed */
                ledger: number
                /** @description collateral_usd − debt_usd of the rounded values */
                net_usd: string | null
                /**
                 * @description Why the USD fields are null: price_missing or price_stale; null when they are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | null
                /** @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list */
                vault_index: string
                /** @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue */
                rate_ledger?: null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsVaultprotocolHistory: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of a previous page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
              snapshots: {
                /** @description Ledger of this snapshot: the account changed at it */
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
                 */
                closed_at: string | null
                /** @description The ledger whose prices value this item: its own ledger; null when it values nothing */
                valuation_ledger: number | null
                data: {
                  address: string
                  vaults: {
                    /** @description Collateral in the collateral asset's units, with exactly its decimals */
                    collateral: string
                    /** @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable */
                    collateral_usd: string | null
                    /** @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable */
                    collateralization_ratio: string | null
                    contract_address: string
                    /** @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals */
                    debt: string
                    /** @description debt × the denomination price (USD is exactly 1), 7 decimals */
                    debt_usd: string | null
                    denomination: string
                    /** @description Ledger at which this position itself last changed */
                    ledger: number
                    /** @description collateral_usd − debt_usd of the rounded values */
                    net_usd: string | null
                    /**
                     * @description Why the USD fields are null: price_missing or price_stale; null when they are set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | null
                    /** @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list */
                    vault_index: string
                    /** @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue */
                    rate_ledger?: null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                /** @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none */
                oracle_staleness_seconds: number
                /** @description This snapshot needs protocol state the store never saw */
                partial_result: boolean
              }[]
            }
            enrichment: {
              /** @description Every contract the page refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description `to_ledger` as given; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the newest snapshot on this page; null when the page is empty */
              as_of_ledger: number | null
              /** @description `from_ledger` as given (inclusive); null when omitted */
              from_ledger: number | null
              /** @description `to_ledger` as given (inclusive); null when omitted */
              to_ledger: number | null
              /** @description Page size used (1–500, default 100) */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null at the end */
              next_cursor: string | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest oracle_staleness_seconds of the page's snapshots; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsLendingprotocol: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description One row per (pool, reserve, supply | collateral | borrow) */
              positions: {
                /** @description `lendingprotocol` */
                protocol: string
                /** @description The Blend pool (C…) */
                contract_address: string
                /**
                 * @description `supply` (lent, not collateral), `collateral`, or `borrow`
                 * @enum {string}
                 */
                position_type: 'supply' | 'collateral' | 'borrow'
                /** @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list */
                asset: string | null
                /** @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals */
                shares: string
                /** @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown */
                amount: string | null
                /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                amount_usd: string | null
                /** @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected) */
                rate: string | null
                /** @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown */
                rate_ledger: number | null
                /** @description Ledger at which this balance itself last changed */
                ledger: number
                /**
                 * @description Why amount_usd is null; null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
              /** @description One per pool the account holds something in */
              groups: {
                /** @description The Blend pool (C…) */
                contract_address: string
                /** @description Σ amount_usd of the collateral rows */
                collateral_usd: string | null
                /** @description Σ amount_usd of the supply rows (not collateral) */
                supplied_usd: string | null
                /** @description Σ amount_usd of the borrow rows */
                borrowed_usd: string | null
                /** @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down) */
                effective_collateral_usd: string | null
                /** @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up) */
                effective_liabilities_usd: string | null
                /** @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral */
                borrow_limit: string | null
                /** @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt */
                health_factor: string | null
                /** @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown */
                claimable_blnd: string | null
                /** @description Each reserve token the account holds or is owed BLND for, by id */
                emissions: {
                  /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                  reserve_token_id: number
                  /** @description The reserve's asset (C…); null when unknown */
                  asset: string | null
                  /**
                   * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
                   * @enum {string}
                   */
                  token_type: 'b_token' | 'd_token'
                  /** @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals */
                  accrued: string
                  /** @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data */
                  claimable: string | null
                  /** @description Ledger at which the token's `EmisData` used was written */
                  emission_ledger: number | null
                }[]
                /**
                 * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason:
                  | 'price_missing'
                  | 'price_stale'
                  | 'rate_missing'
                  | 'config_missing'
                  | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsLendingprotocolAtLedger: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger) */
        ledger: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description One row per (pool, reserve, supply | collateral | borrow) */
              positions: {
                /** @description `lendingprotocol` */
                protocol: string
                /** @description The Blend pool (C…) */
                contract_address: string
                /**
                 * @description `supply` (lent, not collateral), `collateral`, or `borrow`
                 * @enum {string}
                 */
                position_type: 'supply' | 'collateral' | 'borrow'
                /** @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list */
                asset: string | null
                /** @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals */
                shares: string
                /** @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown */
                amount: string | null
                /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                amount_usd: string | null
                /** @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected) */
                rate: string | null
                /** @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown */
                rate_ledger: number | null
                /** @description Ledger at which this balance itself last changed */
                ledger: number
                /**
                 * @description Why amount_usd is null; null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
              /** @description One per pool the account holds something in */
              groups: {
                /** @description The Blend pool (C…) */
                contract_address: string
                /** @description Σ amount_usd of the collateral rows */
                collateral_usd: string | null
                /** @description Σ amount_usd of the supply rows (not collateral) */
                supplied_usd: string | null
                /** @description Σ amount_usd of the borrow rows */
                borrowed_usd: string | null
                /** @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down) */
                effective_collateral_usd: string | null
                /** @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up) */
                effective_liabilities_usd: string | null
                /** @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral */
                borrow_limit: string | null
                /** @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt */
                health_factor: string | null
                /** @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown */
                claimable_blnd: string | null
                /** @description Each reserve token the account holds or is owed BLND for, by id */
                emissions: {
                  /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                  reserve_token_id: number
                  /** @description The reserve's asset (C…); null when unknown */
                  asset: string | null
                  /**
                   * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
                   * @enum {string}
                   */
                  token_type: 'b_token' | 'd_token'
                  /** @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals */
                  accrued: string
                  /** @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data */
                  claimable: string | null
                  /** @description Ledger at which the token's `EmisData` used was written */
                  emission_ledger: number | null
                }[]
                /**
                 * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason:
                  | 'price_missing'
                  | 'price_stale'
                  | 'rate_missing'
                  | 'config_missing'
                  | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsLendingprotocolHistory: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of a previous page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
              snapshots: {
                /** @description Ledger of this snapshot: the account changed at it */
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
                 */
                closed_at: string | null
                /** @description The ledger whose prices value this item: its own ledger; null when it values nothing */
                valuation_ledger: number | null
                data: {
                  address: string
                  /** @description One row per (pool, reserve, supply | collateral | borrow) */
                  positions: {
                    /** @description `lendingprotocol` */
                    protocol: string
                    /** @description The Blend pool (C…) */
                    contract_address: string
                    /**
                     * @description `supply` (lent, not collateral), `collateral`, or `borrow`
                     * @enum {string}
                     */
                    position_type: 'supply' | 'collateral' | 'borrow'
                    /** @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list */
                    asset: string | null
                    /** @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals */
                    shares: string
                    /** @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown */
                    amount: string | null
                    /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                    amount_usd: string | null
                    /** @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected) */
                    rate: string | null
                    /** @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown */
                    rate_ledger: number | null
                    /** @description Ledger at which this balance itself last changed */
                    ledger: number
                    /**
                     * @description Why amount_usd is null; null when it is set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                  }[]
                  /** @description One per pool the account holds something in */
                  groups: {
                    /** @description The Blend pool (C…) */
                    contract_address: string
                    /** @description Σ amount_usd of the collateral rows */
                    collateral_usd: string | null
                    /** @description Σ amount_usd of the supply rows (not collateral) */
                    supplied_usd: string | null
                    /** @description Σ amount_usd of the borrow rows */
                    borrowed_usd: string | null
                    /** @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down) */
                    effective_collateral_usd: string | null
                    /** @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up) */
                    effective_liabilities_usd: string | null
                    /** @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral */
                    borrow_limit: string | null
                    /** @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt */
                    health_factor: string | null
                    /** @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown */
                    claimable_blnd: string | null
                    /** @description Each reserve token the account holds or is owed BLND for, by id */
                    emissions: {
                      /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                      reserve_token_id: number
                      /** @description The reserve's asset (C…); null when unknown */
                      asset: string | null
                      /**
                       * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
                       * @enum {string}
                       */
                      token_type: 'b_token' | 'd_token'
                      /** @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals */
                      accrued: string
                      /** @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data */
                      claimable: string | null
                      /** @description Ledger at which the token's `EmisData` used was written */
                      emission_ledger: number | null
                    }[]
                    /**
                     * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason:
                      | 'price_missing'
                      | 'price_stale'
                      | 'rate_missing'
                      | 'config_missing'
                      | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                /** @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none */
                oracle_staleness_seconds: number
                /** @description This snapshot needs protocol state the store never saw */
                partial_result: boolean
              }[]
            }
            enrichment: {
              /** @description Every contract the page refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description `to_ledger` as given; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the newest snapshot on this page; null when the page is empty */
              as_of_ledger: number | null
              /** @description `from_ledger` as given (inclusive); null when omitted */
              from_ledger: number | null
              /** @description `to_ledger` as given (inclusive); null when omitted */
              to_ledger: number | null
              /** @description Page size used (1–500, default 100) */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null at the end */
              next_cursor: string | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest oracle_staleness_seconds of the page's snapshots; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsAmmprotocol: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Two rows per pair the account holds LP tokens of */
              positions: {
                /** @description `ammprotocol` */
                protocol: string
                /** @description The Soroswap pair (C…), which is also its LP token */
                contract_address: string
                /**
                 * @description `liquidity`: one row per token of the pair, token 0 first
                 * @enum {string}
                 */
                position_type: 'liquidity'
                /** @description The pair's token (C…); null when unknown */
                asset: string | null
                /** @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals */
                shares: string
                /** @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown */
                amount: string | null
                /** @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even) */
                amount_usd: string | null
                /** @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down */
                rate: string | null
                /** @description Ledger at which the pair's instance entry used (reserves, total supply) was written */
                rate_ledger: number | null
                /** @description Ledger at which the LP balance itself last changed */
                ledger: number
                /**
                 * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
              }[]
              /** @description One per pair, in the order of the rows */
              groups: {
                /** @description The Soroswap pair (C…) */
                contract_address: string
                /** @description LP tokens held, 7 decimals */
                shares: string
                /** @description The pair's LP total supply at the valuation (1,000 units locked to the pair included) */
                total_supply: string | null
                /** @description shares / total_supply, 18 decimals rounded down */
                share_of_pool: string | null
                /** @description Σ amount_usd of the two rows; null when one is unavailable */
                value_usd: string | null
                /** @description Ledger at which the pair's instance entry used was written */
                rate_ledger: number | null
                /**
                 * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsAmmprotocolAtLedger: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger) */
        ledger: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Two rows per pair the account holds LP tokens of */
              positions: {
                /** @description `ammprotocol` */
                protocol: string
                /** @description The Soroswap pair (C…), which is also its LP token */
                contract_address: string
                /**
                 * @description `liquidity`: one row per token of the pair, token 0 first
                 * @enum {string}
                 */
                position_type: 'liquidity'
                /** @description The pair's token (C…); null when unknown */
                asset: string | null
                /** @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals */
                shares: string
                /** @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown */
                amount: string | null
                /** @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even) */
                amount_usd: string | null
                /** @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down */
                rate: string | null
                /** @description Ledger at which the pair's instance entry used (reserves, total supply) was written */
                rate_ledger: number | null
                /** @description Ledger at which the LP balance itself last changed */
                ledger: number
                /**
                 * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
              }[]
              /** @description One per pair, in the order of the rows */
              groups: {
                /** @description The Soroswap pair (C…) */
                contract_address: string
                /** @description LP tokens held, 7 decimals */
                shares: string
                /** @description The pair's LP total supply at the valuation (1,000 units locked to the pair included) */
                total_supply: string | null
                /** @description shares / total_supply, 18 decimals rounded down */
                share_of_pool: string | null
                /** @description Σ amount_usd of the two rows; null when one is unavailable */
                value_usd: string | null
                /** @description Ledger at which the pair's instance entry used was written */
                rate_ledger: number | null
                /**
                 * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsAmmprotocolHistory: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of a previous page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
              snapshots: {
                /** @description Ledger of this snapshot: the account changed at it */
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
                 */
                closed_at: string | null
                /** @description The ledger whose prices value this item: its own ledger; null when it values nothing */
                valuation_ledger: number | null
                data: {
                  address: string
                  /** @description Two rows per pair the account holds LP tokens of */
                  positions: {
                    /** @description `ammprotocol` */
                    protocol: string
                    /** @description The Soroswap pair (C…), which is also its LP token */
                    contract_address: string
                    /**
                     * @description `liquidity`: one row per token of the pair, token 0 first
                     * @enum {string}
                     */
                    position_type: 'liquidity'
                    /** @description The pair's token (C…); null when unknown */
                    asset: string | null
                    /** @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals */
                    shares: string
                    /** @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown */
                    amount: string | null
                    /** @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even) */
                    amount_usd: string | null
                    /** @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down */
                    rate: string | null
                    /** @description Ledger at which the pair's instance entry used (reserves, total supply) was written */
                    rate_ledger: number | null
                    /** @description Ledger at which the LP balance itself last changed */
                    ledger: number
                    /**
                     * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                  }[]
                  /** @description One per pair, in the order of the rows */
                  groups: {
                    /** @description The Soroswap pair (C…) */
                    contract_address: string
                    /** @description LP tokens held, 7 decimals */
                    shares: string
                    /** @description The pair's LP total supply at the valuation (1,000 units locked to the pair included) */
                    total_supply: string | null
                    /** @description shares / total_supply, 18 decimals rounded down */
                    share_of_pool: string | null
                    /** @description Σ amount_usd of the two rows; null when one is unavailable */
                    value_usd: string | null
                    /** @description Ledger at which the pair's instance entry used was written */
                    rate_ledger: number | null
                    /**
                     * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                /** @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none */
                oracle_staleness_seconds: number
                /** @description This snapshot needs protocol state the store never saw */
                partial_result: boolean
              }[]
            }
            enrichment: {
              /** @description Every contract the page refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description `to_ledger` as given; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the newest snapshot on this page; null when the page is empty */
              as_of_ledger: number | null
              /** @description `from_ledger` as given (inclusive); null when omitted */
              from_ledger: number | null
              /** @description `to_ledger` as given (inclusive); null when omitted */
              to_ledger: number | null
              /** @description Page size used (1–500, default 100) */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null at the end */
              next_cursor: string | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest oracle_staleness_seconds of the page's snapshots; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsYieldprotocol: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description One row per (vault, asset) the account holds df-tokens of */
              positions: {
                /** @description `yieldprotocol` */
                protocol: string
                /** @description The DeFindex vault (C…) */
                contract_address: string
                /**
                 * @description `vault_share`: df-tokens of the vault, one row per vault asset
                 * @enum {string}
                 */
                position_type: 'vault_share'
                /** @description One of the vault’s assets (C…); a multi-asset vault has one row per asset */
                asset: string
                /** @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals */
                shares: string
                /** @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown */
                amount: string | null
                /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                amount_usd: string | null
                /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down) */
                price_per_share: string | null
                /** @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals */
                total_managed_funds: string | null
                /** @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen */
                total_supply: string | null
                /** @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen */
                rate_ledger: number | null
                /** @description Ledger at which this balance itself last changed */
                ledger: number
                /**
                 * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
              /** @description One per vault, in the order of the rows */
              groups: {
                /** @description The DeFindex vault (C…) */
                contract_address: string
                /** @description df-tokens held, 7 decimals */
                shares: string
                /** @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included) */
                total_supply: string | null
                /** @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown */
                share_of_pool: string | null
                /** @description Σ amount_usd of the vault’s rows; null when one is unavailable */
                value_usd: string | null
                /** @description The latest ledger at which an entry the valuation used was written */
                rate_ledger: number | null
                /**
                 * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsYieldprotocolAtLedger: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger) */
        ledger: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description One row per (vault, asset) the account holds df-tokens of */
              positions: {
                /** @description `yieldprotocol` */
                protocol: string
                /** @description The DeFindex vault (C…) */
                contract_address: string
                /**
                 * @description `vault_share`: df-tokens of the vault, one row per vault asset
                 * @enum {string}
                 */
                position_type: 'vault_share'
                /** @description One of the vault’s assets (C…); a multi-asset vault has one row per asset */
                asset: string
                /** @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals */
                shares: string
                /** @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown */
                amount: string | null
                /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                amount_usd: string | null
                /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down) */
                price_per_share: string | null
                /** @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals */
                total_managed_funds: string | null
                /** @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen */
                total_supply: string | null
                /** @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen */
                rate_ledger: number | null
                /** @description Ledger at which this balance itself last changed */
                ledger: number
                /**
                 * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
              /** @description One per vault, in the order of the rows */
              groups: {
                /** @description The DeFindex vault (C…) */
                contract_address: string
                /** @description df-tokens held, 7 decimals */
                shares: string
                /** @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included) */
                total_supply: string | null
                /** @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown */
                share_of_pool: string | null
                /** @description Σ amount_usd of the vault’s rows; null when one is unavailable */
                value_usd: string | null
                /** @description The latest ledger at which an entry the valuation used was written */
                rate_ledger: number | null
                /**
                 * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the snapshot served; null when the pin predates the first one */
              as_of_ledger: number | null
              /** @description The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsYieldprotocolHistory: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of a previous page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger` */
              snapshots: {
                /** @description Ledger of this snapshot: the account changed at it */
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of that ledger, RFC 3339 in UTC; null when the store lacks it
                 */
                closed_at: string | null
                /** @description The ledger whose prices value this item: its own ledger; null when it values nothing */
                valuation_ledger: number | null
                data: {
                  address: string
                  /** @description One row per (vault, asset) the account holds df-tokens of */
                  positions: {
                    /** @description `yieldprotocol` */
                    protocol: string
                    /** @description The DeFindex vault (C…) */
                    contract_address: string
                    /**
                     * @description `vault_share`: df-tokens of the vault, one row per vault asset
                     * @enum {string}
                     */
                    position_type: 'vault_share'
                    /** @description One of the vault’s assets (C…); a multi-asset vault has one row per asset */
                    asset: string
                    /** @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals */
                    shares: string
                    /** @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown */
                    amount: string | null
                    /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                    amount_usd: string | null
                    /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down) */
                    price_per_share: string | null
                    /** @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals */
                    total_managed_funds: string | null
                    /** @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen */
                    total_supply: string | null
                    /** @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen */
                    rate_ledger: number | null
                    /** @description Ledger at which this balance itself last changed */
                    ledger: number
                    /**
                     * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                  }[]
                  /** @description One per vault, in the order of the rows */
                  groups: {
                    /** @description The DeFindex vault (C…) */
                    contract_address: string
                    /** @description df-tokens held, 7 decimals */
                    shares: string
                    /** @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included) */
                    total_supply: string | null
                    /** @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown */
                    share_of_pool: string | null
                    /** @description Σ amount_usd of the vault’s rows; null when one is unavailable */
                    value_usd: string | null
                    /** @description The latest ledger at which an entry the valuation used was written */
                    rate_ledger: number | null
                    /**
                     * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                     * @enum {string|null}
                     */
                    usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                /** @description Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none */
                oracle_staleness_seconds: number
                /** @description This snapshot needs protocol state the store never saw */
                partial_result: boolean
              }[]
            }
            enrichment: {
              /** @description Every contract the page refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description `to_ledger` as given; null when omitted */
              requested_ledger: number | null
              /** @description Ledger of the newest snapshot on this page; null when the page is empty */
              as_of_ledger: number | null
              /** @description `from_ledger` as given (inclusive); null when omitted */
              from_ledger: number | null
              /** @description `to_ledger` as given (inclusive); null when omitted */
              to_ledger: number | null
              /** @description Page size used (1–500, default 100) */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null at the end */
              next_cursor: string | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest oracle_staleness_seconds of the page's snapshots; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositions: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Every protocol, keyed by its name: `data` exactly as GET /v1/users/{address}/positions/{protocol} (or its /at/{ledger}) answers it at the same pin */
              protocols: {
                vaultprotocol: {
                  /** @enum {string} */
                  kind: 'vault'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    vaults: {
                      /** @description Collateral in the collateral asset's units, with exactly its decimals */
                      collateral: string
                      /** @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable */
                      collateral_usd: string | null
                      /** @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable */
                      collateralization_ratio: string | null
                      contract_address: string
                      /** @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals */
                      debt: string
                      /** @description debt × the denomination price (USD is exactly 1), 7 decimals */
                      debt_usd: string | null
                      denomination: string
                      /** @description Ledger at which this position itself last changed */
                      ledger: number
                      /** @description collateral_usd − debt_usd of the rounded values */
                      net_usd: string | null
                      /**
                       * @description Why the USD fields are null: price_missing or price_stale; null when they are set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | null
                      /** @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list */
                      vault_index: string
                      /** @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue */
                      rate_ledger?: null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                lendingprotocol: {
                  /** @enum {string} */
                  kind: 'lending'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description One row per (pool, reserve, supply | collateral | borrow) */
                    positions: {
                      /** @description `lendingprotocol` */
                      protocol: string
                      /** @description The Blend pool (C…) */
                      contract_address: string
                      /**
                       * @description `supply` (lent, not collateral), `collateral`, or `borrow`
                       * @enum {string}
                       */
                      position_type: 'supply' | 'collateral' | 'borrow'
                      /** @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list */
                      asset: string | null
                      /** @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals */
                      shares: string
                      /** @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown */
                      amount: string | null
                      /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                      amount_usd: string | null
                      /** @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected) */
                      rate: string | null
                      /** @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown */
                      rate_ledger: number | null
                      /** @description Ledger at which this balance itself last changed */
                      ledger: number
                      /**
                       * @description Why amount_usd is null; null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                    /** @description One per pool the account holds something in */
                    groups: {
                      /** @description The Blend pool (C…) */
                      contract_address: string
                      /** @description Σ amount_usd of the collateral rows */
                      collateral_usd: string | null
                      /** @description Σ amount_usd of the supply rows (not collateral) */
                      supplied_usd: string | null
                      /** @description Σ amount_usd of the borrow rows */
                      borrowed_usd: string | null
                      /** @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down) */
                      effective_collateral_usd: string | null
                      /** @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up) */
                      effective_liabilities_usd: string | null
                      /** @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral */
                      borrow_limit: string | null
                      /** @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt */
                      health_factor: string | null
                      /** @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown */
                      claimable_blnd: string | null
                      /** @description Each reserve token the account holds or is owed BLND for, by id */
                      emissions: {
                        /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                        reserve_token_id: number
                        /** @description The reserve's asset (C…); null when unknown */
                        asset: string | null
                        /**
                         * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
                         * @enum {string}
                         */
                        token_type: 'b_token' | 'd_token'
                        /** @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals */
                        accrued: string
                        /** @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data */
                        claimable: string | null
                        /** @description Ledger at which the token's `EmisData` used was written */
                        emission_ledger: number | null
                      }[]
                      /**
                       * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason:
                        | 'price_missing'
                        | 'price_stale'
                        | 'rate_missing'
                        | 'config_missing'
                        | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                ammprotocol: {
                  /** @enum {string} */
                  kind: 'amm'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description Two rows per pair the account holds LP tokens of */
                    positions: {
                      /** @description `ammprotocol` */
                      protocol: string
                      /** @description The Soroswap pair (C…), which is also its LP token */
                      contract_address: string
                      /**
                       * @description `liquidity`: one row per token of the pair, token 0 first
                       * @enum {string}
                       */
                      position_type: 'liquidity'
                      /** @description The pair's token (C…); null when unknown */
                      asset: string | null
                      /** @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals */
                      shares: string
                      /** @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown */
                      amount: string | null
                      /** @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even) */
                      amount_usd: string | null
                      /** @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down */
                      rate: string | null
                      /** @description Ledger at which the pair's instance entry used (reserves, total supply) was written */
                      rate_ledger: number | null
                      /** @description Ledger at which the LP balance itself last changed */
                      ledger: number
                      /**
                       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                    }[]
                    /** @description One per pair, in the order of the rows */
                    groups: {
                      /** @description The Soroswap pair (C…) */
                      contract_address: string
                      /** @description LP tokens held, 7 decimals */
                      shares: string
                      /** @description The pair's LP total supply at the valuation (1,000 units locked to the pair included) */
                      total_supply: string | null
                      /** @description shares / total_supply, 18 decimals rounded down */
                      share_of_pool: string | null
                      /** @description Σ amount_usd of the two rows; null when one is unavailable */
                      value_usd: string | null
                      /** @description Ledger at which the pair's instance entry used was written */
                      rate_ledger: number | null
                      /**
                       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                yieldprotocol: {
                  /** @enum {string} */
                  kind: 'yield'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description One row per (vault, asset) the account holds df-tokens of */
                    positions: {
                      /** @description `yieldprotocol` */
                      protocol: string
                      /** @description The DeFindex vault (C…) */
                      contract_address: string
                      /**
                       * @description `vault_share`: df-tokens of the vault, one row per vault asset
                       * @enum {string}
                       */
                      position_type: 'vault_share'
                      /** @description One of the vault’s assets (C…); a multi-asset vault has one row per asset */
                      asset: string
                      /** @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals */
                      shares: string
                      /** @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown */
                      amount: string | null
                      /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                      amount_usd: string | null
                      /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down) */
                      price_per_share: string | null
                      /** @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals */
                      total_managed_funds: string | null
                      /** @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen */
                      total_supply: string | null
                      /** @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen */
                      rate_ledger: number | null
                      /** @description Ledger at which this balance itself last changed */
                      ledger: number
                      /**
                       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                    /** @description One per vault, in the order of the rows */
                    groups: {
                      /** @description The DeFindex vault (C…) */
                      contract_address: string
                      /** @description df-tokens held, 7 decimals */
                      shares: string
                      /** @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included) */
                      total_supply: string | null
                      /** @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown */
                      share_of_pool: string | null
                      /** @description Σ amount_usd of the vault’s rows; null when one is unavailable */
                      value_usd: string | null
                      /** @description The latest ledger at which an entry the valuation used was written */
                      rate_ledger: number | null
                      /**
                       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
              }
              totals: {
                /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                assets_usd: string | null
                /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                debt_usd: string | null
                /** @description assets_usd − debt_usd; null when either is null */
                net_usd: string | null
                /** @description Why a total is null although positions exist: valuation_ledgers_differ when the sections were valued at different ledgers (values at different ledgers are never added), else the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                usd_unavailable_reason: string | null
                /** @description With valuation_ledgers_differ: the path that values every protocol at one ledger (GET /v1/users/{address}/positions/at/{ledger}); null otherwise */
                usd_unavailable_hint: string | null
              }
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The newest section's as_of_ledger; null when no section has a snapshot */
              as_of_ledger: number | null
              /** @description The valuation ledger every section that values something shares; null when none does, or when they differ (each section then states its own) */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest section's oracle_staleness_seconds: the ledger the request is about minus the oldest price used; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressPositionsAtLedger: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), or latest (the last indexed ledger) */
        ledger: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              /** @description Every protocol, keyed by its name: `data` exactly as GET /v1/users/{address}/positions/{protocol} (or its /at/{ledger}) answers it at the same pin */
              protocols: {
                vaultprotocol: {
                  /** @enum {string} */
                  kind: 'vault'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    vaults: {
                      /** @description Collateral in the collateral asset's units, with exactly its decimals */
                      collateral: string
                      /** @description collateral × its USD price at the valuation ledger, 7 decimals; null when unavailable */
                      collateral_usd: string | null
                      /** @description Collateral value over debt, both in USD (so the denomination's own price applies), 4 decimals ("1.8500" = 185%); null when debt is zero or a price is unavailable */
                      collateralization_ratio: string | null
                      contract_address: string
                      /** @description Debt in denomination units: ceil(normalised debt × rate / 10^12), with the debt token decimals */
                      debt: string
                      /** @description debt × the denomination price (USD is exactly 1), 7 decimals */
                      debt_usd: string | null
                      denomination: string
                      /** @description Ledger at which this position itself last changed */
                      ledger: number
                      /** @description collateral_usd − debt_usd of the rounded values */
                      net_usd: string | null
                      /**
                       * @description Why the USD fields are null: price_missing or price_stale; null when they are set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | null
                      /** @description floor(10^9 × total_collateral / total_debt), as the contract computes it: the sort key of its vault list */
                      vault_index: string
                      /** @description `/at` surface only: the ledger of the rate used to accrue the position; always null here, FxDAO debt is stored plainly and does not accrue */
                      rate_ledger?: null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                lendingprotocol: {
                  /** @enum {string} */
                  kind: 'lending'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description One row per (pool, reserve, supply | collateral | borrow) */
                    positions: {
                      /** @description `lendingprotocol` */
                      protocol: string
                      /** @description The Blend pool (C…) */
                      contract_address: string
                      /**
                       * @description `supply` (lent, not collateral), `collateral`, or `borrow`
                       * @enum {string}
                       */
                      position_type: 'supply' | 'collateral' | 'borrow'
                      /** @description The reserve's asset contract (C…); null when the store never saw the pool's reserve list */
                      asset: string | null
                      /** @description b-tokens (supply, collateral) or d-tokens (borrow) as the pool's `Positions` entry holds them, in the asset's decimals */
                      shares: string
                      /** @description Underlying in the asset's decimals: floor(b × b_rate / 10^12) or ceil(d × d_rate / 10^12), Blend's own rounding; null when the rate is unknown */
                      amount: string | null
                      /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                      amount_usd: string | null
                      /** @description The b_rate or d_rate used, 12 decimals, exactly as the pool last wrote it (not projected) */
                      rate: string | null
                      /** @description Ledger at which that rate was written (the reserve's `ResData`); null when unknown */
                      rate_ledger: number | null
                      /** @description Ledger at which this balance itself last changed */
                      ledger: number
                      /**
                       * @description Why amount_usd is null; null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                    /** @description One per pool the account holds something in */
                    groups: {
                      /** @description The Blend pool (C…) */
                      contract_address: string
                      /** @description Σ amount_usd of the collateral rows */
                      collateral_usd: string | null
                      /** @description Σ amount_usd of the supply rows (not collateral) */
                      supplied_usd: string | null
                      /** @description Σ amount_usd of the borrow rows */
                      borrowed_usd: string | null
                      /** @description Σ price × floor(collateral × c_factor), each reserve rounded down as Blend's health factor counts it, 7 decimals (rounded down) */
                      effective_collateral_usd: string | null
                      /** @description Σ price × ceil(borrowed / l_factor), each reserve rounded up, 7 decimals (rounded up) */
                      effective_liabilities_usd: string | null
                      /** @description effective liabilities / effective collateral (the SDK's borrowLimit; 1 = no room left), 7 decimals rounded down; null without collateral */
                      borrow_limit: string | null
                      /** @description effective collateral / effective liabilities, as the pool computes it (under 1: liquidatable), 7 decimals rounded down; null without debt */
                      health_factor: string | null
                      /** @description Σ claimable of `emissions`; null when the pool emits nothing the account holds, or one is unknown */
                      claimable_blnd: string | null
                      /** @description Each reserve token the account holds or is owed BLND for, by id */
                      emissions: {
                        /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                        reserve_token_id: number
                        /** @description The reserve's asset (C…); null when unknown */
                        asset: string | null
                        /**
                         * @description `b_token` (supply and collateral earn it) or `d_token` (borrowing earns it)
                         * @enum {string}
                         */
                        token_type: 'b_token' | 'd_token'
                        /** @description BLND the pool has recorded as owed (`UserEmis.accrued`), 7 decimals */
                        accrued: string
                        /** @description BLND claimable at the valuation ledger, as Blend's SDK estimates it: accrued + floor(balance × (index − user index) / (10^decimals × 10^7)), the token's index brought up to the ledger's close time from its EmisData; null when the store lacks the reserve's data */
                        claimable: string | null
                        /** @description Ledger at which the token's `EmisData` used was written */
                        emission_ledger: number | null
                      }[]
                      /**
                       * @description Why a USD figure or the health figures are null (config_missing: the reserve's ResConfig was never seen); null when all are set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason:
                        | 'price_missing'
                        | 'price_stale'
                        | 'rate_missing'
                        | 'config_missing'
                        | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                ammprotocol: {
                  /** @enum {string} */
                  kind: 'amm'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description Two rows per pair the account holds LP tokens of */
                    positions: {
                      /** @description `ammprotocol` */
                      protocol: string
                      /** @description The Soroswap pair (C…), which is also its LP token */
                      contract_address: string
                      /**
                       * @description `liquidity`: one row per token of the pair, token 0 first
                       * @enum {string}
                       */
                      position_type: 'liquidity'
                      /** @description The pair's token (C…); null when unknown */
                      asset: string | null
                      /** @description LP tokens the account's `Balance` entry of the pair holds, 7 decimals */
                      shares: string
                      /** @description floor(LP balance × reserve_i / total_supply), in the token's decimals; null when the pair's reserves are unknown */
                      amount: string | null
                      /** @description amount × the token's USD price at the valuation ledger, 7 decimals (half-even) */
                      amount_usd: string | null
                      /** @description reserve_i / total_supply: tokens per LP token, 18 decimals rounded down */
                      rate: string | null
                      /** @description Ledger at which the pair's instance entry used (reserves, total supply) was written */
                      rate_ledger: number | null
                      /** @description Ledger at which the LP balance itself last changed */
                      ledger: number
                      /**
                       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                    }[]
                    /** @description One per pair, in the order of the rows */
                    groups: {
                      /** @description The Soroswap pair (C…) */
                      contract_address: string
                      /** @description LP tokens held, 7 decimals */
                      shares: string
                      /** @description The pair's LP total supply at the valuation (1,000 units locked to the pair included) */
                      total_supply: string | null
                      /** @description shares / total_supply, 18 decimals rounded down */
                      share_of_pool: string | null
                      /** @description Σ amount_usd of the two rows; null when one is unavailable */
                      value_usd: string | null
                      /** @description Ledger at which the pair's instance entry used was written */
                      rate_ledger: number | null
                      /**
                       * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
                yieldprotocol: {
                  /** @enum {string} */
                  kind: 'yield'
                  /** @description Ledger of this protocol's snapshot served; null when none at or before the pin */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing */
                  valuation_ledger: number | null
                  /** @description This section needs what the store does not hold */
                  partial_result: boolean
                  /** @description Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none */
                  oracle_staleness_seconds: number
                  data: {
                    address: string
                    /** @description One row per (vault, asset) the account holds df-tokens of */
                    positions: {
                      /** @description `yieldprotocol` */
                      protocol: string
                      /** @description The DeFindex vault (C…) */
                      contract_address: string
                      /**
                       * @description `vault_share`: df-tokens of the vault, one row per vault asset
                       * @enum {string}
                       */
                      position_type: 'vault_share'
                      /** @description One of the vault’s assets (C…); a multi-asset vault has one row per asset */
                      asset: string
                      /** @description df-tokens as the vault’s `Balance` entry holds them, 7 decimals */
                      shares: string
                      /** @description floor(shares × total_managed_funds / total_supply) in the asset's decimals, the vault's own `get_asset_amounts_per_shares`; null when the vault's funds are unknown */
                      amount: string | null
                      /** @description amount × the asset's USD price at the valuation ledger, 7 decimals (half-even); null when unavailable */
                      amount_usd: string | null
                      /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down) */
                      price_per_share: string | null
                      /** @description The vault's managed funds of the asset (idle + the strategies' balances less locked fees), in the asset's decimals */
                      total_managed_funds: string | null
                      /** @description Every df-token of the vault, 7 decimals; 0 before the first mint; null when the vault's instance entry was never seen */
                      total_supply: string | null
                      /** @description The latest ledger at which an entry the price was computed from was written (the vault's, its strategies', the Blend reserve's `ResData`); null when none was seen */
                      rate_ledger: number | null
                      /** @description Ledger at which this balance itself last changed */
                      ledger: number
                      /**
                       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                    /** @description One per vault, in the order of the rows */
                    groups: {
                      /** @description The DeFindex vault (C…) */
                      contract_address: string
                      /** @description df-tokens held, 7 decimals */
                      shares: string
                      /** @description The vault's df-token supply at the valuation (the 1,000 locked to the vault included) */
                      total_supply: string | null
                      /** @description shares / total_supply, 18 decimals rounded down; null when the supply is 0 or unknown */
                      share_of_pool: string | null
                      /** @description Σ amount_usd of the vault’s rows; null when one is unavailable */
                      value_usd: string | null
                      /** @description The latest ledger at which an entry the valuation used was written */
                      rate_ledger: number | null
                      /**
                       * @description Why a USD figure is null (rate_missing: the vault's funds are unknown: an entry they need was written before the store's first ledger and never seen since); null when it is set
                       * @enum {string|null}
                       */
                      usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
                    }[]
                  }
                  totals: {
                    /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                    assets_usd: string | null
                    /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                    debt_usd: string | null
                    /** @description assets_usd − debt_usd; null when either is null */
                    net_usd: string | null
                    /** @description Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                    usd_unavailable_reason: string | null
                  }
                }
              }
              totals: {
                /** @description Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held */
                assets_usd: string | null
                /** @description Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held */
                debt_usd: string | null
                /** @description assets_usd − debt_usd; null when either is null */
                net_usd: string | null
                /** @description Why a total is null although positions exist: valuation_ledgers_differ when the sections were valued at different ledgers (values at different ledgers are never added), else the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise */
                usd_unavailable_reason: string | null
                /** @description With valuation_ledgers_differ: the path that values every protocol at one ledger (GET /v1/users/{address}/positions/at/{ledger}); null otherwise */
                usd_unavailable_hint: string | null
              }
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The newest section's as_of_ledger; null when no section has a snapshot */
              as_of_ledger: number | null
              /** @description The valuation ledger every section that values something shares; null when none does, or when they differ (each section then states its own) */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The largest section's oracle_staleness_seconds: the ledger the request is about minus the oldest price used; 0 when none */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocols: {
    parameters: {
      query?: {
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of an earlier page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description The path segment of its endpoints */
              name: string
              /** @description `vault`, `lending`, `amm` or `yield` */
              kind: string
              contracts: {
                /** @description The contract (C…) */
                contract_address: string
                /** @description What the contract is: `fxdao-vaults`, `blend-pool-v2`, `soroswap-pair`, ... */
                kind: string
                name: string
                version: string
                /** @description `active`, `paused` or `deprecated` */
                status: string
                position_types: string[]
                /** @description First ledger at which the contract existed, when known */
                start_ledger: number | null
                /** @description Whether the store holds the contract's whole history up to the indexed head (false: answers about it are partial_result) */
                history_complete: boolean
              }[]
              /** @description The first ledger the store ingested (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description The indexer checkpoint: the last ledger ingested */
              indexed_to_ledger: number | null
            }[]
            meta: {
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested */
              indexed_from_ledger: number | null
              /** @description The page size used */
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null on the last page */
              next_cursor: string | null
              response_time_ms: number
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getTransactionsHash: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description Transaction hash, 64 hex digits */
        hash: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              hash: string
              ledger: number
              /**
               * Format: date-time
               * @description Close time of its ledger (RFC 3339, UTC); null when unknown
               */
              closed_at: string | null
              successful: boolean
              /** @description Fee charged, in stroops */
              fee_charged: string
              /** @description The account that paid the fee (the transaction's source unless fee-bumped); null when the ledger's fee processing does not name it */
              fee_account: string | null
              /** @description The transaction's source account (the inner transaction's for a fee bump), from its envelope; null when it invokes no watched contract (it only touched one's data or events) */
              source_account: string | null
              /** @description The watched contract it invoked, from its envelope */
              contract_address: string | null
              /** @description The contract function it invoked, from its envelope */
              function: string | null
              /** @description In event order */
              actions: {
                protocol: string
                /** @description The action's name in its protocol: `supply`, `borrow`, `swap`, `deposit`, ... */
                type: string
                /** @description The contract that emitted it (or, FxDAO, that was called) */
                contract_address: string
                /** @description The account whose action it is (the legs are from its side) */
                account: string
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of its ledger (RFC 3339, UTC); null when unknown
                 */
                closed_at: string | null
                tx_hash: string
                /** @description Operation index in the transaction */
                operation: number
                /** @description Order of its event among the watched contracts' events of the transaction */
                event_index: number
                /** @description Every asset and protocol token the action moved, each in its own units and in USD */
                legs: {
                  /** @description `asset`: a token that moved; `shares`: the protocol's own claim token (LP tokens, df-tokens, b-tokens); `debt`: Blend d-tokens */
                  role: 'asset' | 'shares' | 'debt'
                  /** @description From `account`'s side: an asset or token it sent or received, a protocol token minted to it or burnt from it */
                  direction: 'sent' | 'received' | 'minted' | 'burnt'
                  /** @description The token's contract (C…): the asset, the pair or vault for their shares, the reserve's asset for b-/d-tokens; null when the action does not name it */
                  asset: string | null
                  /** @description The asset's symbol in the network description; null when it does not list it */
                  symbol: string | null
                  /** @description In the token's smallest units, as the chain states it */
                  amount_raw: string
                  /** @description amount_raw in the token's units, with exactly its decimals; null when they are unknown */
                  amount: string | null
                  /** @description amount × the USD price at or before the action's ledger, 7 decimals, rounded half-even; null with a reason */
                  amount_usd: string | null
                  /** @description Only when amount_usd is null: price_missing, price_stale, asset_unknown, protocol_token (shares and d-tokens are not valued) */
                  usd_unavailable_reason: string | null
                }[]
                /** @description The action's USD value at its own ledger, 7 decimals: Σ amount_usd of the asset legs the account sent, or, when it sent none, of those it received */
                amount_usd: string | null
                /** @description Only when amount_usd is null: the reason of the first unpriced counted leg, `protocol_token` when it moved only protocol tokens, `no_amount` when it names no amount */
                usd_unavailable_reason: string | null
                /** @description The protocol's other fields of the action; amounts in their token's units */
                details: {
                  [key: string]: unknown
                }
              }[]
            }
            meta: {
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: actions before it are unknown */
              indexed_from_ledger: number | null
              /** @description true when the range reaches below indexed_from_ledger or above the indexed head */
              partial_result: boolean
              sources: string[]
              response_time_ms: number
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressActivities: {
    parameters: {
      query?: {
        /** @description One of vaultprotocol, lendingprotocol, ammprotocol, yieldprotocol */
        protocol?: string
        /** @description An activity type: new_vault, increase_collateral, withdraw_collateral, increase_debt, pay_debt, redeem, liquidate, liquidated, transfer_debt, supply, withdraw, supply_collateral, borrow, repay, new_auction, fill_auction, claim, add_liquidity, remove_liquidity, swap, lp_transfer, deposit, transfer, rebalance */
        type?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A whole number from 1 to 500 (default 100) */
        limit?: string
        /** @description The next_cursor of a previous page, unchanged */
        cursor?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              activities: {
                protocol: string
                /** @description The action's name in its protocol: `supply`, `borrow`, `swap`, `deposit`, ... */
                type: string
                /** @description The contract that emitted it (or, FxDAO, that was called) */
                contract_address: string
                /** @description The account whose action it is (the legs are from its side) */
                account: string
                ledger: number
                /**
                 * Format: date-time
                 * @description Close time of its ledger (RFC 3339, UTC); null when unknown
                 */
                closed_at: string | null
                tx_hash: string
                /** @description Operation index in the transaction */
                operation: number
                /** @description Order of its event among the watched contracts' events of the transaction */
                event_index: number
                /** @description Every asset and protocol token the action moved, each in its own units and in USD */
                legs: {
                  /** @description `asset`: a token that moved; `shares`: the protocol's own claim token (LP tokens, df-tokens, b-tokens); `debt`: Blend d-tokens */
                  role: 'asset' | 'shares' | 'debt'
                  /** @description From `account`'s side: an asset or token it sent or received, a protocol token minted to it or burnt from it */
                  direction: 'sent' | 'received' | 'minted' | 'burnt'
                  /** @description The token's contract (C…): the asset, the pair or vault for their shares, the reserve's asset for b-/d-tokens; null when the action does not name it */
                  asset: string | null
                  /** @description The asset's symbol in the network description; null when it does not list it */
                  symbol: string | null
                  /** @description In the token's smallest units, as the chain states it */
                  amount_raw: string
                  /** @description amount_raw in the token's units, with exactly its decimals; null when they are unknown */
                  amount: string | null
                  /** @description amount × the USD price at or before the action's ledger, 7 decimals, rounded half-even; null with a reason */
                  amount_usd: string | null
                  /** @description Only when amount_usd is null: price_missing, price_stale, asset_unknown, protocol_token (shares and d-tokens are not valued) */
                  usd_unavailable_reason: string | null
                }[]
                /** @description The action's USD value at its own ledger, 7 decimals: Σ amount_usd of the asset legs the account sent, or, when it sent none, of those it received */
                amount_usd: string | null
                /** @description Only when amount_usd is null: the reason of the first unpriced counted leg, `protocol_token` when it moved only protocol tokens, `no_amount` when it names no amount */
                usd_unavailable_reason: string | null
                /** @description The protocol's other fields of the action; amounts in their token's units */
                details: {
                  [key: string]: unknown
                }
              }[]
            }
            meta: {
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: actions before it are unknown */
              indexed_from_ledger: number | null
              /** @description true when the range reaches below indexed_from_ledger or above the indexed head */
              partial_result: boolean
              sources: string[]
              response_time_ms: number
              /** @description As given (inclusive) */
              from_ledger: number | null
              /** @description As given (inclusive) */
              to_ledger: number | null
              limit: number
              /** @description Pass as `cursor` for the next (older) page; null at the end */
              next_cursor: string | null
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getUsersAddressActivitiesSeries: {
    parameters: {
      query: {
        /** @description hour or day (UTC buckets by ledger close time) */
        interval: 'hour' | 'day'
        /** @description One of vaultprotocol, lendingprotocol, ammprotocol, yieldprotocol */
        protocol?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A Stellar account (G...) or contract (C...) StrKey */
        address: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              address: string
              interval: string
              buckets: {
                /**
                 * Format: date-time
                 * @description RFC 3339 timestamp (UTC)
                 */
                starts_at: string
                /** @description Ledger of the bucket's oldest action */
                from_ledger: number
                /** @description Ledger of the bucket's newest action */
                to_ledger: number
                count: number
                /** @description Σ amount_usd of the priced actions, 7 decimals; null when none was priced */
                volume_usd: string | null
                /** @description Actions of the bucket without a USD value */
                unpriced_count: number
              }[]
            }
            meta: {
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: actions before it are unknown */
              indexed_from_ledger: number | null
              /** @description true when the range reaches below indexed_from_ledger or above the indexed head */
              partial_result: boolean
              sources: string[]
              response_time_ms: number
              /** @description As given (inclusive) */
              from_ledger: number | null
              /** @description As given (inclusive) */
              to_ledger: number | null
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. `invalid_address`: The address is not a valid Stellar account (G...) or contract (C...) StrKey. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsVaultprotocolTvl: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description hour or day */
        interval?: 'hour' | 'day'
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json':
            | {
                data: {
                  protocol: string
                  /** @description The ledger the amounts are at */
                  ledger: number
                  /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  tvl_usd: string | null
                  /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  borrowed_usd: string | null
                  /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                  usd_unavailable_reason: string | null
                  assets: {
                    asset: string
                    /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                    locked: string | null
                    /** @description locked × the USD price at the ledger, 7 decimals */
                    locked_usd: string | null
                    /** @description What users owe in it; null when the protocol lends none of it */
                    borrowed: string | null
                    /** @description borrowed × the USD price at the ledger, 7 decimals */
                    borrowed_usd: string | null
                    /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                    usd_unavailable_reason: string | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                meta: {
                  /** @description The pin, echoed unchanged; null when omitted */
                  requested_ledger: number | null
                  /** @description The latest ledger at which a state entry the answer used was written; null when none was */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
                  valuation_ledger: number | null
                  /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
                  attribution_confidence: number
                  /** @description Now minus the close time of last_indexed_ledger */
                  data_staleness_seconds: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
                  indexed_from_ledger: number | null
                  /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
                  oracle_staleness_seconds: number
                  /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
                  partial_result: boolean
                  response_time_ms: number
                  /** @description The ledger source and the oracle contracts used */
                  sources: string[]
                }
              }
            | {
                data: {
                  protocol: string
                  interval: string
                  /** @description Oldest first; each bucket valued at its last ledger */
                  points: {
                    /**
                     * Format: date-time
                     * @description RFC 3339 timestamp (UTC)
                     */
                    starts_at: string
                    /**
                     * Format: date-time
                     * @description Close time of the bucket's last ledger, RFC 3339; null when unknown
                     */
                    closed_at: string | null
                    /** @description The newest state entry used at that ledger */
                    as_of_ledger: number | null
                    partial_result: boolean
                    /** @description The ledger the amounts are at */
                    ledger: number
                    /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    tvl_usd: string | null
                    /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    borrowed_usd: string | null
                    /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                    usd_unavailable_reason: string | null
                    assets: {
                      asset: string
                      /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                      locked: string | null
                      /** @description locked × the USD price at the ledger, 7 decimals */
                      locked_usd: string | null
                      /** @description What users owe in it; null when the protocol lends none of it */
                      borrowed: string | null
                      /** @description borrowed × the USD price at the ledger, 7 decimals */
                      borrowed_usd: string | null
                      /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                      usd_unavailable_reason: string | null
                    }[]
                  }[]
                }
                meta: {
                  /** @description First ledger of the range (inclusive) */
                  from_ledger: number | null
                  /** @description Last ledger of the range (inclusive) */
                  to_ledger: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested */
                  indexed_from_ledger: number | null
                  /** @description true when any point is partial or the range passes the head */
                  partial_result: boolean
                  sources: string[]
                  response_time_ms: number
                }
              }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsLendingprotocolTvl: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description hour or day */
        interval?: 'hour' | 'day'
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json':
            | {
                data: {
                  protocol: string
                  /** @description The ledger the amounts are at */
                  ledger: number
                  /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  tvl_usd: string | null
                  /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  borrowed_usd: string | null
                  /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                  usd_unavailable_reason: string | null
                  assets: {
                    asset: string
                    /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                    locked: string | null
                    /** @description locked × the USD price at the ledger, 7 decimals */
                    locked_usd: string | null
                    /** @description What users owe in it; null when the protocol lends none of it */
                    borrowed: string | null
                    /** @description borrowed × the USD price at the ledger, 7 decimals */
                    borrowed_usd: string | null
                    /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                    usd_unavailable_reason: string | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                meta: {
                  /** @description The pin, echoed unchanged; null when omitted */
                  requested_ledger: number | null
                  /** @description The latest ledger at which a state entry the answer used was written; null when none was */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
                  valuation_ledger: number | null
                  /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
                  attribution_confidence: number
                  /** @description Now minus the close time of last_indexed_ledger */
                  data_staleness_seconds: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
                  indexed_from_ledger: number | null
                  /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
                  oracle_staleness_seconds: number
                  /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
                  partial_result: boolean
                  response_time_ms: number
                  /** @description The ledger source and the oracle contracts used */
                  sources: string[]
                }
              }
            | {
                data: {
                  protocol: string
                  interval: string
                  /** @description Oldest first; each bucket valued at its last ledger */
                  points: {
                    /**
                     * Format: date-time
                     * @description RFC 3339 timestamp (UTC)
                     */
                    starts_at: string
                    /**
                     * Format: date-time
                     * @description Close time of the bucket's last ledger, RFC 3339; null when unknown
                     */
                    closed_at: string | null
                    /** @description The newest state entry used at that ledger */
                    as_of_ledger: number | null
                    partial_result: boolean
                    /** @description The ledger the amounts are at */
                    ledger: number
                    /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    tvl_usd: string | null
                    /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    borrowed_usd: string | null
                    /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                    usd_unavailable_reason: string | null
                    assets: {
                      asset: string
                      /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                      locked: string | null
                      /** @description locked × the USD price at the ledger, 7 decimals */
                      locked_usd: string | null
                      /** @description What users owe in it; null when the protocol lends none of it */
                      borrowed: string | null
                      /** @description borrowed × the USD price at the ledger, 7 decimals */
                      borrowed_usd: string | null
                      /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                      usd_unavailable_reason: string | null
                    }[]
                  }[]
                }
                meta: {
                  /** @description First ledger of the range (inclusive) */
                  from_ledger: number | null
                  /** @description Last ledger of the range (inclusive) */
                  to_ledger: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested */
                  indexed_from_ledger: number | null
                  /** @description true when any point is partial or the range passes the head */
                  partial_result: boolean
                  sources: string[]
                  response_time_ms: number
                }
              }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsAmmprotocolTvl: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description hour or day */
        interval?: 'hour' | 'day'
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json':
            | {
                data: {
                  protocol: string
                  /** @description The ledger the amounts are at */
                  ledger: number
                  /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  tvl_usd: string | null
                  /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  borrowed_usd: string | null
                  /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                  usd_unavailable_reason: string | null
                  assets: {
                    asset: string
                    /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                    locked: string | null
                    /** @description locked × the USD price at the ledger, 7 decimals */
                    locked_usd: string | null
                    /** @description What users owe in it; null when the protocol lends none of it */
                    borrowed: string | null
                    /** @description borrowed × the USD price at the ledger, 7 decimals */
                    borrowed_usd: string | null
                    /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                    usd_unavailable_reason: string | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                meta: {
                  /** @description The pin, echoed unchanged; null when omitted */
                  requested_ledger: number | null
                  /** @description The latest ledger at which a state entry the answer used was written; null when none was */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
                  valuation_ledger: number | null
                  /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
                  attribution_confidence: number
                  /** @description Now minus the close time of last_indexed_ledger */
                  data_staleness_seconds: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
                  indexed_from_ledger: number | null
                  /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
                  oracle_staleness_seconds: number
                  /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
                  partial_result: boolean
                  response_time_ms: number
                  /** @description The ledger source and the oracle contracts used */
                  sources: string[]
                }
              }
            | {
                data: {
                  protocol: string
                  interval: string
                  /** @description Oldest first; each bucket valued at its last ledger */
                  points: {
                    /**
                     * Format: date-time
                     * @description RFC 3339 timestamp (UTC)
                     */
                    starts_at: string
                    /**
                     * Format: date-time
                     * @description Close time of the bucket's last ledger, RFC 3339; null when unknown
                     */
                    closed_at: string | null
                    /** @description The newest state entry used at that ledger */
                    as_of_ledger: number | null
                    partial_result: boolean
                    /** @description The ledger the amounts are at */
                    ledger: number
                    /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    tvl_usd: string | null
                    /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    borrowed_usd: string | null
                    /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                    usd_unavailable_reason: string | null
                    assets: {
                      asset: string
                      /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                      locked: string | null
                      /** @description locked × the USD price at the ledger, 7 decimals */
                      locked_usd: string | null
                      /** @description What users owe in it; null when the protocol lends none of it */
                      borrowed: string | null
                      /** @description borrowed × the USD price at the ledger, 7 decimals */
                      borrowed_usd: string | null
                      /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                      usd_unavailable_reason: string | null
                    }[]
                  }[]
                }
                meta: {
                  /** @description First ledger of the range (inclusive) */
                  from_ledger: number | null
                  /** @description Last ledger of the range (inclusive) */
                  to_ledger: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested */
                  indexed_from_ledger: number | null
                  /** @description true when any point is partial or the range passes the head */
                  partial_result: boolean
                  sources: string[]
                  response_time_ms: number
                }
              }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsYieldprotocolTvl: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        from_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        to_ledger?: string
        /** @description hour or day */
        interval?: 'hour' | 'day'
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json':
            | {
                data: {
                  protocol: string
                  /** @description The ledger the amounts are at */
                  ledger: number
                  /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  tvl_usd: string | null
                  /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                  borrowed_usd: string | null
                  /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                  usd_unavailable_reason: string | null
                  assets: {
                    asset: string
                    /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                    locked: string | null
                    /** @description locked × the USD price at the ledger, 7 decimals */
                    locked_usd: string | null
                    /** @description What users owe in it; null when the protocol lends none of it */
                    borrowed: string | null
                    /** @description borrowed × the USD price at the ledger, 7 decimals */
                    borrowed_usd: string | null
                    /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                    usd_unavailable_reason: string | null
                  }[]
                }
                enrichment: {
                  /** @description Every asset the answer refers to, by id */
                  assets: {
                    [key: string]: {
                      decimals: number
                      /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                      price_source: string | null
                      /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                      price_usd: string | null
                      symbol: string
                      tags: string[]
                    }
                  }
                  /** @description Every contract the answer refers to */
                  contracts: {
                    [key: string]: {
                      name: string
                      position_types: string[]
                      protocol: string
                      status: string
                      version: string
                    }
                  }
                }
                meta: {
                  /** @description The pin, echoed unchanged; null when omitted */
                  requested_ledger: number | null
                  /** @description The latest ledger at which a state entry the answer used was written; null when none was */
                  as_of_ledger: number | null
                  /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
                  valuation_ledger: number | null
                  /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
                  attribution_confidence: number
                  /** @description Now minus the close time of last_indexed_ledger */
                  data_staleness_seconds: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
                  indexed_from_ledger: number | null
                  /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
                  oracle_staleness_seconds: number
                  /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
                  partial_result: boolean
                  response_time_ms: number
                  /** @description The ledger source and the oracle contracts used */
                  sources: string[]
                }
              }
            | {
                data: {
                  protocol: string
                  interval: string
                  /** @description Oldest first; each bucket valued at its last ledger */
                  points: {
                    /**
                     * Format: date-time
                     * @description RFC 3339 timestamp (UTC)
                     */
                    starts_at: string
                    /**
                     * Format: date-time
                     * @description Close time of the bucket's last ledger, RFC 3339; null when unknown
                     */
                    closed_at: string | null
                    /** @description The newest state entry used at that ledger */
                    as_of_ledger: number | null
                    partial_result: boolean
                    /** @description The ledger the amounts are at */
                    ledger: number
                    /** @description Σ locked_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    tvl_usd: string | null
                    /** @description Σ borrowed_usd, 7 decimals; null when an asset is unpriced or nothing is known */
                    borrowed_usd: string | null
                    /** @description Why tvl_usd or borrowed_usd is null: the reason of the first asset whose missing price nulls it; null whenever both are values (or null only because nothing is known or nothing is lent) */
                    usd_unavailable_reason: string | null
                    assets: {
                      asset: string
                      /** @description What the protocol's contracts hold of it, in the asset's units; null when it holds none by design */
                      locked: string | null
                      /** @description locked × the USD price at the ledger, 7 decimals */
                      locked_usd: string | null
                      /** @description What users owe in it; null when the protocol lends none of it */
                      borrowed: string | null
                      /** @description borrowed × the USD price at the ledger, 7 decimals */
                      borrowed_usd: string | null
                      /** @description Why locked_usd or borrowed_usd is null although its amount is known: price_missing, price_stale or asset_unknown; null when every amount of the row is valued */
                      usd_unavailable_reason: string | null
                    }[]
                  }[]
                }
                meta: {
                  /** @description First ledger of the range (inclusive) */
                  from_ledger: number | null
                  /** @description Last ledger of the range (inclusive) */
                  to_ledger: number | null
                  /** @description The indexer checkpoint */
                  last_indexed_ledger: number | null
                  /** @description The first ledger the store ingested */
                  indexed_from_ledger: number | null
                  /** @description true when any point is partial or the range passes the head */
                  partial_result: boolean
                  sources: string[]
                  response_time_ms: number
                }
              }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsLendingprotocolPoolsPool: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A contract (C...) StrKey of one of the protocol's pools */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description The Blend pool (C…) */
              contract_address: string
              /** @description The pool's `Name`, or the network description's name for it */
              name: string
              /** @description The pool's `PoolConfig` as last written; null when the store never saw it */
              config: {
                /** @description The oracle the pool prices with */
                oracle: string
                /** @description Backstop take rate: its share of the interest, 7 decimals */
                bstop_rate: string
                /** @description 0 admin active, 1 active, 2 admin on-ice, 3 on-ice, 4 admin frozen, 5 frozen, 6 setup */
                status: number
                /** @description `admin_active`, `active`, `admin_on_ice`, `on_ice`, `admin_frozen`, `frozen` or `setup` */
                status_name: string | null
                /** @description Most reserves an account may hold collateral or debt in */
                max_positions: number
                /** @description Least collateral a borrower must hold, in the oracle's base units (an integer) */
                min_collateral: string
                /** @description Ledger at which this `Config` was written */
                ledger: number
              } | null
              /** @description By reserve index */
              reserves: {
                /** @description The Blend pool (C…) */
                contract_address: string
                /** @description The reserve's asset contract (C…) */
                asset: string
                /** @description The reserve's index in the pool's `ResList` (its key in `Positions`) */
                index: number | null
                /** @description The asset's decimals (b- and d-tokens have the same) */
                decimals: number | null
                /** @description A disabled reserve takes no supply or borrow */
                enabled: boolean | null
                /** @description Collateral factor, 7 decimals */
                c_factor: string | null
                /** @description Liability factor, 7 decimals */
                l_factor: string | null
                /** @description The interest curve's target utilization (`util`), 7 decimals */
                target_utilization: string | null
                /** @description Utilization above which borrowing is refused, 7 decimals */
                max_utilization: string | null
                /** @description Interest curve: base rate, 7 decimals */
                r_base: string | null
                /** @description Interest curve: slope up to the target, 7 decimals */
                r_one: string | null
                /** @description Interest curve: slope from the target to 95%, 7 decimals */
                r_two: string | null
                /** @description Interest curve: slope above 95%, 7 decimals */
                r_three: string | null
                /** @description How fast ir_mod follows utilization, 7 decimals */
                reactivity: string | null
                /** @description Most underlying the reserve takes, in the asset's decimals */
                supply_cap: string | null
                /** @description b-token → underlying, 12 decimals, as last written */
                b_rate: string | null
                /** @description d-token → underlying, 12 decimals, as last written */
                d_rate: string | null
                /** @description Every b-token (supply and collateral), in the asset's decimals */
                b_supply: string | null
                /** @description Every d-token, in the asset's decimals */
                d_supply: string | null
                /** @description Underlying owed to the backstop, in the asset's decimals */
                backstop_credit: string | null
                /** @description floor(b_supply × b_rate / 10^12): underlying supplied */
                supplied: string | null
                /** @description ceil(d_supply × d_rate / 10^12): underlying borrowed */
                borrowed: string | null
                /** @description As the pool computes it: 0 with nothing borrowed, 1 when borrowed ≥ supplied, else ceil(borrowed / supplied), 7 decimals */
                utilization: string | null
                /** @description The interest curve at this utilization and ir_mod (every step rounded up, as the contract and the SDK's setRates do); r_base with nothing borrowed. A simple annual rate, 7 decimals */
                borrow_apr: string | null
                /** @description borrow_apr × floor(utilization × (1 − backstop take rate)), rounded down; 0 with nothing borrowed, 7 decimals */
                supply_apr: string | null
                /** @description (1 + borrow_apr / 365)^365 − 1: compounded daily, as Blend's UI estimates it, computed exactly and rounded up, 7 decimals */
                borrow_apy: string | null
                /** @description (1 + supply_apr / 52)^52 − 1: compounded weekly, as Blend's UI estimates it, computed exactly and rounded down, 7 decimals */
                supply_apy: string | null
                /**
                 * @description Why a rate is null: `rate_missing` (the reserve's `ResData` was never seen: every rate is null), `config_missing` (its `ResConfig`: the APRs and APYs), `pool_config_missing` (the pool's `Config`, whose backstop take rate the supply rates need); null when every rate is set
                 * @enum {string|null}
                 */
                rates_unavailable_reason: 'rate_missing' | 'config_missing' | 'pool_config_missing' | null
                /** @description BLND emitted to suppliers a year, in USD per USD supplied: eps × 31,536,000 × BLND price ÷ (supplied × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise */
                supply_emission_apr: string | null
                /**
                 * @description Why `supply_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
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
                /** @description BLND emitted to borrowers a year, in USD per USD borrowed: eps × 31,536,000 × BLND price ÷ (borrowed × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise */
                borrow_emission_apr: string | null
                /**
                 * @description Why `borrow_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
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
                /** @description The ledger the utilization, APRs, APYs and emission APRs are computed at: the pin, or the checkpoint when the pin is above it or omitted. Their inputs are the entries in force there (`rate_ledger`, `config_ledger`, the pool config's `ledger`, the emissions endpoint's `ledger`) and the prices at or before it */
                computed_ledger: number
                /** @description The rate modifier, 7 decimals */
                ir_mod: string | null
                /**
                 * Format: date-time
                 * @description When the pool last accrued the reserve (`ResData.last_time`), RFC 3339; null when the `ResData` was never seen
                 */
                last_accrued_at: string | null
                /** @description Ledger at which this `ResData` (rates, supplies, ir_mod) was written */
                rate_ledger: number | null
                /** @description Ledger at which this `ResConfig` was written */
                config_ledger: number | null
                /** @description supplied × the asset's USD price at the ledger, 7 decimals */
                supplied_usd: string | null
                /** @description borrowed × the asset's USD price at the ledger, 7 decimals */
                borrowed_usd: string | null
                /**
                 * @description Why the USD fields are null; null when they are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
              /** @description Σ supplied_usd of the reserves; null when one is unknown or there are none */
              supplied_usd: string | null
              /** @description Σ borrowed_usd of the reserves; null when one is unknown or there are none */
              borrowed_usd: string | null
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsLendingprotocolReserves: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description Every pool's reserves, pool by pool in the network description's order */
              reserves: {
                /** @description The Blend pool (C…) */
                contract_address: string
                /** @description The reserve's asset contract (C…) */
                asset: string
                /** @description The reserve's index in the pool's `ResList` (its key in `Positions`) */
                index: number | null
                /** @description The asset's decimals (b- and d-tokens have the same) */
                decimals: number | null
                /** @description A disabled reserve takes no supply or borrow */
                enabled: boolean | null
                /** @description Collateral factor, 7 decimals */
                c_factor: string | null
                /** @description Liability factor, 7 decimals */
                l_factor: string | null
                /** @description The interest curve's target utilization (`util`), 7 decimals */
                target_utilization: string | null
                /** @description Utilization above which borrowing is refused, 7 decimals */
                max_utilization: string | null
                /** @description Interest curve: base rate, 7 decimals */
                r_base: string | null
                /** @description Interest curve: slope up to the target, 7 decimals */
                r_one: string | null
                /** @description Interest curve: slope from the target to 95%, 7 decimals */
                r_two: string | null
                /** @description Interest curve: slope above 95%, 7 decimals */
                r_three: string | null
                /** @description How fast ir_mod follows utilization, 7 decimals */
                reactivity: string | null
                /** @description Most underlying the reserve takes, in the asset's decimals */
                supply_cap: string | null
                /** @description b-token → underlying, 12 decimals, as last written */
                b_rate: string | null
                /** @description d-token → underlying, 12 decimals, as last written */
                d_rate: string | null
                /** @description Every b-token (supply and collateral), in the asset's decimals */
                b_supply: string | null
                /** @description Every d-token, in the asset's decimals */
                d_supply: string | null
                /** @description Underlying owed to the backstop, in the asset's decimals */
                backstop_credit: string | null
                /** @description floor(b_supply × b_rate / 10^12): underlying supplied */
                supplied: string | null
                /** @description ceil(d_supply × d_rate / 10^12): underlying borrowed */
                borrowed: string | null
                /** @description As the pool computes it: 0 with nothing borrowed, 1 when borrowed ≥ supplied, else ceil(borrowed / supplied), 7 decimals */
                utilization: string | null
                /** @description The interest curve at this utilization and ir_mod (every step rounded up, as the contract and the SDK's setRates do); r_base with nothing borrowed. A simple annual rate, 7 decimals */
                borrow_apr: string | null
                /** @description borrow_apr × floor(utilization × (1 − backstop take rate)), rounded down; 0 with nothing borrowed, 7 decimals */
                supply_apr: string | null
                /** @description (1 + borrow_apr / 365)^365 − 1: compounded daily, as Blend's UI estimates it, computed exactly and rounded up, 7 decimals */
                borrow_apy: string | null
                /** @description (1 + supply_apr / 52)^52 − 1: compounded weekly, as Blend's UI estimates it, computed exactly and rounded down, 7 decimals */
                supply_apy: string | null
                /**
                 * @description Why a rate is null: `rate_missing` (the reserve's `ResData` was never seen: every rate is null), `config_missing` (its `ResConfig`: the APRs and APYs), `pool_config_missing` (the pool's `Config`, whose backstop take rate the supply rates need); null when every rate is set
                 * @enum {string|null}
                 */
                rates_unavailable_reason: 'rate_missing' | 'config_missing' | 'pool_config_missing' | null
                /** @description BLND emitted to suppliers a year, in USD per USD supplied: eps × 31,536,000 × BLND price ÷ (supplied × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise */
                supply_emission_apr: string | null
                /**
                 * @description Why `supply_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
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
                /** @description BLND emitted to borrowers a year, in USD per USD borrowed: eps × 31,536,000 × BLND price ÷ (borrowed × the asset's price), both prices at the ledger, 7 decimals rounded down; 0 when the token has no `EmisData` (in a history the store holds whole), no eps, or its emissions expired by the ledger's close time; null with the reason otherwise */
                borrow_emission_apr: string | null
                /**
                 * @description Why `borrow_emission_apr` is null: `emissions_missing` (the token's `EmisData` was never seen and the store lacks the pool's history before its first ledger), `rate_missing` (no `ResData`), `config_missing` (the asset's decimals are unknown), `close_time_missing` (the ledger's close time is unknown, so expiry cannot be judged), `no_holders` (nothing supplied or borrowed: BLND per dollar held is undefined), `emission_token_missing` (the pool's `BLNDTkn` was never seen), `price_missing` or `price_stale` (the asset's or BLND's USD price); null when it is set
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
                /** @description The ledger the utilization, APRs, APYs and emission APRs are computed at: the pin, or the checkpoint when the pin is above it or omitted. Their inputs are the entries in force there (`rate_ledger`, `config_ledger`, the pool config's `ledger`, the emissions endpoint's `ledger`) and the prices at or before it */
                computed_ledger: number
                /** @description The rate modifier, 7 decimals */
                ir_mod: string | null
                /**
                 * Format: date-time
                 * @description When the pool last accrued the reserve (`ResData.last_time`), RFC 3339; null when the `ResData` was never seen
                 */
                last_accrued_at: string | null
                /** @description Ledger at which this `ResData` (rates, supplies, ir_mod) was written */
                rate_ledger: number | null
                /** @description Ledger at which this `ResConfig` was written */
                config_ledger: number | null
                /** @description supplied × the asset's USD price at the ledger, 7 decimals */
                supplied_usd: string | null
                /** @description borrowed × the asset's USD price at the ledger, 7 decimals */
                borrowed_usd: string | null
                /**
                 * @description Why the USD fields are null; null when they are set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'rate_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsLendingprotocolEmissions: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description Pool by pool, by reserve token id */
              emissions: {
                /** @description The Blend pool (C…) */
                contract_address: string
                /** @description reserve index × 2 for the d-token, × 2 + 1 for the b-token */
                reserve_token_id: number
                /** @description The reserve's asset contract (C…) */
                asset: string
                /**
                 * @description `b_token`: suppliers (supply and collateral) earn it; `d_token`: borrowers
                 * @enum {string}
                 */
                token_type: 'b_token' | 'd_token'
                /** @description The token's share of the pool's emissions (`PoolEmis`), 7 decimals; null when it has none now */
                share: string | null
                /** @description BLND emitted per second to all holders of the token, 14 decimals */
                eps: string
                /**
                 * Format: date-time
                 * @description When emissions at this eps end (`expiration`), RFC 3339
                 */
                expires_at: string | null
                /** @description BLND accrued per whole token since emissions began, 14 decimals, as last written */
                index: string
                /**
                 * Format: date-time
                 * @description When the index was last brought up to date (`last_time`), RFC 3339
                 */
                index_updated_at: string | null
                /** @description Ledger at which this `EmisData` was written */
                ledger: number
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsAmmprotocolPoolsPool: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A contract (C...) StrKey of one of the protocol's pools */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description The Soroswap pair (C…) */
              contract_address: string
              /** @description Token 0 (C…), the lower address */
              token_0: string | null
              /** @description Token 1 (C…) */
              token_1: string | null
              /** @description Reserve0 as the pair's instance entry states it, in token 0's decimals */
              reserve_0: string | null
              /** @description Reserve1, in token 1's decimals */
              reserve_1: string | null
              /** @description LP total supply (`TotalSupply`), 7 decimals; 0 when the pair's instance entry has no `TotalSupply` yet (before the first mint: the LP token reads it as 0); null when the entry was never seen */
              total_supply: string | null
              /** @description Token 0 priced in token 1 by the reserves (reserve_1 / reserve_0 in display units), 18 decimals rounded down; null when a reserve is 0 or unknown */
              price_0_in_1: string | null
              /** @description Token 1 priced in token 0, likewise */
              price_1_in_0: string | null
              /** @description reserve_0 × price_0 + reserve_1 × price_1 in USD, 7 decimals; null when a price is unavailable */
              tvl_usd: string | null
              /** @description Ledger at which the pair's instance entry used was written; null when never seen */
              state_ledger: number | null
              /**
               * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
               * @enum {string|null}
               */
              usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
              /** @description The pair's trading over the 24 hours of close time ending at the ledger, from its stored swaps */
              volume_24h: {
                /** @description First ledger of the window: the first one closed after the pin's close time minus 24 hours (the store's first ledger when it holds the pair's whole history); null when the stored ledgers do not cover the window */
                from_ledger: number | null
                /** @description Last ledger of the window: the ledger answered for */
                to_ledger: number
                /** @description The pair's swaps in [from_ledger, to_ledger] */
                swaps: number | null
                /** @description Σ amount_0_in of the swaps (token 0 paid in), in token 0's decimals; null with unavailable_reason history_missing */
                token_0_in: string | null
                /** @description Σ amount_0_out (token 0 paid out), in token 0's decimals; null with unavailable_reason history_missing */
                token_0_out: string | null
                /** @description Σ amount_1_in, in token 1's decimals; null with unavailable_reason history_missing */
                token_1_in: string | null
                /** @description Σ amount_1_out, in token 1's decimals; null with unavailable_reason history_missing */
                token_1_out: string | null
                /** @description Σ ceil(amount_0_in × 3 / 1000): the 0.3 % fee the pair keeps of every input, in token 0's decimals; null with unavailable_reason history_missing */
                fees_0: string | null
                /** @description Σ ceil(amount_1_in × 3 / 1000), in token 1's decimals; null with unavailable_reason history_missing */
                fees_1: string | null
                /** @description token_0_in × price_0 + token_1_in × price_1 at the ledger answered for (each swap counted once, by what it paid in), 7 decimals */
                volume_usd: string | null
                /** @description fees_0 × price_0 + fees_1 × price_1, 7 decimals */
                fees_usd: string | null
                /**
                 * @description history_missing: the store cannot tell every swap of the window (its ledgers start inside it and the pair is older), every figure null; price_missing / price_stale: the USD figures are null; null when all are set
                 * @enum {string|null}
                 */
                unavailable_reason: 'history_missing' | 'price_missing' | 'price_stale' | null
              }
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsAmmprotocolReserves: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description Every pair the network description lists, in its order */
              pairs: {
                /** @description The Soroswap pair (C…) */
                contract_address: string
                /** @description Token 0 (C…), the lower address */
                token_0: string | null
                /** @description Token 1 (C…) */
                token_1: string | null
                /** @description Reserve0 as the pair's instance entry states it, in token 0's decimals */
                reserve_0: string | null
                /** @description Reserve1, in token 1's decimals */
                reserve_1: string | null
                /** @description LP total supply (`TotalSupply`), 7 decimals; 0 when the pair's instance entry has no `TotalSupply` yet (before the first mint: the LP token reads it as 0); null when the entry was never seen */
                total_supply: string | null
                /** @description Token 0 priced in token 1 by the reserves (reserve_1 / reserve_0 in display units), 18 decimals rounded down; null when a reserve is 0 or unknown */
                price_0_in_1: string | null
                /** @description Token 1 priced in token 0, likewise */
                price_1_in_0: string | null
                /** @description reserve_0 × price_0 + reserve_1 × price_1 in USD, 7 decimals; null when a price is unavailable */
                tvl_usd: string | null
                /** @description Ledger at which the pair's instance entry used was written; null when never seen */
                state_ledger: number | null
                /**
                 * @description Why a USD figure is null (reserves_missing: the store never saw the pair's instance entry at or before the ledger used); null when it is set
                 * @enum {string|null}
                 */
                usd_unavailable_reason: 'price_missing' | 'price_stale' | 'reserves_missing' | null
                /** @description The pair's trading over the 24 hours of close time ending at the ledger, from its stored swaps */
                volume_24h: {
                  /** @description First ledger of the window: the first one closed after the pin's close time minus 24 hours (the store's first ledger when it holds the pair's whole history); null when the stored ledgers do not cover the window */
                  from_ledger: number | null
                  /** @description Last ledger of the window: the ledger answered for */
                  to_ledger: number
                  /** @description The pair's swaps in [from_ledger, to_ledger] */
                  swaps: number | null
                  /** @description Σ amount_0_in of the swaps (token 0 paid in), in token 0's decimals; null with unavailable_reason history_missing */
                  token_0_in: string | null
                  /** @description Σ amount_0_out (token 0 paid out), in token 0's decimals; null with unavailable_reason history_missing */
                  token_0_out: string | null
                  /** @description Σ amount_1_in, in token 1's decimals; null with unavailable_reason history_missing */
                  token_1_in: string | null
                  /** @description Σ amount_1_out, in token 1's decimals; null with unavailable_reason history_missing */
                  token_1_out: string | null
                  /** @description Σ ceil(amount_0_in × 3 / 1000): the 0.3 % fee the pair keeps of every input, in token 0's decimals; null with unavailable_reason history_missing */
                  fees_0: string | null
                  /** @description Σ ceil(amount_1_in × 3 / 1000), in token 1's decimals; null with unavailable_reason history_missing */
                  fees_1: string | null
                  /** @description token_0_in × price_0 + token_1_in × price_1 at the ledger answered for (each swap counted once, by what it paid in), 7 decimals */
                  volume_usd: string | null
                  /** @description fees_0 × price_0 + fees_1 × price_1, 7 decimals */
                  fees_usd: string | null
                  /**
                   * @description history_missing: the store cannot tell every swap of the window (its ledgers start inside it and the pair is older), every figure null; price_missing / price_stale: the USD figures are null; null when all are set
                   * @enum {string|null}
                   */
                  unavailable_reason: 'history_missing' | 'price_missing' | 'price_stale' | null
                }
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsYieldprotocolPoolsPool: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path: {
        /** @description A contract (C...) StrKey of one of the protocol's pools */
        pool: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description The DeFindex vault (C…) */
              contract_address: string
              /** @description The vault’s name, as the network description, `GET /v1/protocols` and `enrichment` give it */
              name: string
              /** @description The df-token symbol (`METADATA`) */
              share_symbol: string | null
              /** @description Every df-token, 7 decimals (the 1,000 locked to the vault included); 0 before the first mint; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
              total_supply: string | null
              /** @description `VaultFee`: basis points of strategy gains locked as fees */
              vault_fee_bps: number | null
              /** @description `DeFindexProtocolFeeRate`: the protocol's basis points of those fees */
              protocol_fee_bps: number | null
              /** @description The vault's assets, in its `AssetStrategySet` order */
              assets: {
                /** @description The asset contract (C…) */
                asset: string
                /** @description The vault's own balance of the asset, in its decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
                idle: string | null
                /** @description Σ invested of the strategies */
                invested: string | null
                /** @description idle + invested */
                total_managed_funds: string | null
                /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down); null without supply */
                price_per_share: string | null
                /** @description The vault's APY for the asset over the 7 days of close time ending at to_ledger */
                apy_7d: {
                  /** @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise */
                  apy: string | null
                  /** @description The latest ledger closed at least 7 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far */
                  from_ledger: number | null
                  /** @description The ledger answered for (the pin, or the head) */
                  to_ledger: number
                  /**
                   * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
                   * @enum {string|null}
                   */
                  unavailable_reason: 'history_missing' | 'rate_missing' | null
                }
                /** @description The vault's APY for the asset over the 30 days of close time ending at to_ledger */
                apy_30d: {
                  /** @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise */
                  apy: string | null
                  /** @description The latest ledger closed at least 30 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far */
                  from_ledger: number | null
                  /** @description The ledger answered for (the pin, or the head) */
                  to_ledger: number
                  /**
                   * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
                   * @enum {string|null}
                   */
                  unavailable_reason: 'history_missing' | 'rate_missing' | null
                }
                strategies: {
                  /** @description The strategy contract (C…) */
                  contract_address: string
                  /** @description The strategy's name in the vault's `AssetStrategySet` */
                  name: string | null
                  /** @description Paused in the vault */
                  paused: boolean | null
                  /** @description The Blend pool it lends into (its `Config`) */
                  pool: string | null
                  /** @description The vault's strategy shares (`VaultPos`), in the asset's decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
                  shares: string | null
                  /** @description The Blend reserve's b_rate used, 12 decimals, as the pool last stored it (not projected); null when not needed or unknown */
                  b_rate: string | null
                  /** @description Ledger at which that `ResData` was written */
                  b_rate_ledger: number | null
                  /** @description floor(floor(shares × total_b_tokens / total_shares) × b_rate / 10^12): the strategy's `balance(vault)`, in the asset's decimals */
                  balance: string | null
                  /** @description The vault's `Report.locked_fee` after reporting this balance and locking its gains, as a deposit would */
                  locked_fee: string | null
                  /** @description balance − locked_fee */
                  invested: string | null
                }[]
              }[]
              /** @description The latest ledger at which an entry used was written */
              rate_ledger: number | null
              /**
               * @description rate_missing when a figure above is null because an entry it needs (the vault’s instance, a strategy’s `VaultPos`, the vault’s balance of an asset, a `Report`) was written before the store’s first ledger and never seen since (the answer is then `partial_result`); null otherwise
               * @enum {string|null}
               */
              unavailable_reason: 'rate_missing' | null
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `not_found`: The route or resource does not exist, or belongs to another organization. */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
  getProtocolsYieldprotocolReserves: {
    parameters: {
      query?: {
        /** @description A ledger number (a whole number from 0 to 2^63-1) */
        as_of_ledger?: string
        /** @description A ledger number (a whole number from 0 to 2^63-1), one the index has reached (until it has, the answer is 409 ledger_not_indexed) */
        min_ledger?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            data: {
              /** @description Every vault the network description lists */
              vaults: {
                /** @description The DeFindex vault (C…) */
                contract_address: string
                /** @description The vault’s name, as the network description, `GET /v1/protocols` and `enrichment` give it */
                name: string
                /** @description The df-token symbol (`METADATA`) */
                share_symbol: string | null
                /** @description Every df-token, 7 decimals (the 1,000 locked to the vault included); 0 before the first mint; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
                total_supply: string | null
                /** @description `VaultFee`: basis points of strategy gains locked as fees */
                vault_fee_bps: number | null
                /** @description `DeFindexProtocolFeeRate`: the protocol's basis points of those fees */
                protocol_fee_bps: number | null
                /** @description The vault's assets, in its `AssetStrategySet` order */
                assets: {
                  /** @description The asset contract (C…) */
                  asset: string
                  /** @description The vault's own balance of the asset, in its decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
                  idle: string | null
                  /** @description Σ invested of the strategies */
                  invested: string | null
                  /** @description idle + invested */
                  total_managed_funds: string | null
                  /** @description The asset's units per whole df-token, total_managed_funds / total_supply, 12 decimals (rounded down); null without supply */
                  price_per_share: string | null
                  /** @description The vault's APY for the asset over the 7 days of close time ending at to_ledger */
                  apy_7d: {
                    /** @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise */
                    apy: string | null
                    /** @description The latest ledger closed at least 7 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far */
                    from_ledger: number | null
                    /** @description The ledger answered for (the pin, or the head) */
                    to_ledger: number
                    /**
                     * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
                     * @enum {string|null}
                     */
                    unavailable_reason: 'history_missing' | 'rate_missing' | null
                  }
                  /** @description The vault's APY for the asset over the 30 days of close time ending at to_ledger */
                  apy_30d: {
                    /** @description (price_per_share at to_ledger / price_per_share at from_ledger) ^ (365 days / the close time between them) − 1: compounded, a fraction with 7 decimals ("0.0523000" is 5.23 %), rounded toward zero; null with unavailable_reason otherwise */
                    apy: string | null
                    /** @description The latest ledger closed at least 30 days (of close time) before to_ledger; null when the store's ledgers do not reach back that far */
                    from_ledger: number | null
                    /** @description The ledger answered for (the pin, or the head) */
                    to_ledger: number
                    /**
                     * @description Why apy is null: history_missing (the stored ledgers, or the vault’s shares, do not reach back to from_ledger), rate_missing (a price per share is unknown); null when apy is set
                     * @enum {string|null}
                     */
                    unavailable_reason: 'history_missing' | 'rate_missing' | null
                  }
                  strategies: {
                    /** @description The strategy contract (C…) */
                    contract_address: string
                    /** @description The strategy's name in the vault's `AssetStrategySet` */
                    name: string | null
                    /** @description Paused in the vault */
                    paused: boolean | null
                    /** @description The Blend pool it lends into (its `Config`) */
                    pool: string | null
                    /** @description The vault's strategy shares (`VaultPos`), in the asset's decimals; 0 when the store saw the vault's whole history and no entry; null when an entry it needs was written before the store’s first ledger and never seen since (see `unavailable_reason`) */
                    shares: string | null
                    /** @description The Blend reserve's b_rate used, 12 decimals, as the pool last stored it (not projected); null when not needed or unknown */
                    b_rate: string | null
                    /** @description Ledger at which that `ResData` was written */
                    b_rate_ledger: number | null
                    /** @description floor(floor(shares × total_b_tokens / total_shares) × b_rate / 10^12): the strategy's `balance(vault)`, in the asset's decimals */
                    balance: string | null
                    /** @description The vault's `Report.locked_fee` after reporting this balance and locking its gains, as a deposit would */
                    locked_fee: string | null
                    /** @description balance − locked_fee */
                    invested: string | null
                  }[]
                }[]
                /** @description The latest ledger at which an entry used was written */
                rate_ledger: number | null
                /**
                 * @description rate_missing when a figure above is null because an entry it needs (the vault’s instance, a strategy’s `VaultPos`, the vault’s balance of an asset, a `Report`) was written before the store’s first ledger and never seen since (the answer is then `partial_result`); null otherwise
                 * @enum {string|null}
                 */
                unavailable_reason: 'rate_missing' | null
              }[]
            }
            enrichment: {
              /** @description Every asset the answer refers to, by id */
              assets: {
                [key: string]: {
                  decimals: number
                  /** @description Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used */
                  price_source: string | null
                  /** @description USD price used, in the feed's own decimals ("1" for a pegged asset); null when missing */
                  price_usd: string | null
                  symbol: string
                  tags: string[]
                }
              }
              /** @description Every contract the answer refers to */
              contracts: {
                [key: string]: {
                  name: string
                  position_types: string[]
                  protocol: string
                  status: string
                  version: string
                }
              }
            }
            meta: {
              /** @description The pin, echoed unchanged; null when omitted */
              requested_ledger: number | null
              /** @description The latest ledger at which a state entry the answer used was written; null when none was */
              as_of_ledger: number | null
              /** @description The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed */
              valuation_ledger: number | null
              /** @description 1: read directly from the contracts' own storage for the address or contract asked about */
              attribution_confidence: number
              /** @description Now minus the close time of last_indexed_ledger */
              data_staleness_seconds: number | null
              /** @description The indexer checkpoint */
              last_indexed_ledger: number | null
              /** @description The first ledger the store ingested: its knowledge starts there (null before the first batch) */
              indexed_from_ledger: number | null
              /** @description Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed */
              oracle_staleness_seconds: number
              /** @description true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen */
              partial_result: boolean
              response_time_ms: number
              /** @description The ledger source and the oracle contracts used */
              sources: string[]
            }
          }
        }
      }
      /** @description `invalid_request`: A body, query or path value failed validation; `details` names each field. */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `unauthorized`: The credential is missing, malformed, unknown, revoked, expired or of the wrong type. */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `insufficient_scope`: The API key lacks the scope this endpoint needs. */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `ledger_not_indexed`: The index has not reached `min_ledger` yet: the answer would be older than a state the client saw; retry after `Retry-After` seconds. */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `rate_limited`: The organization's quota, or the login or signup throttle, is exhausted; retry after `Retry-After` seconds. */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
      /** @description `internal`: An unexpected error; it is logged with the request id. */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ErrorEnvelope']
        }
      }
    }
  }
}
