/**
 * The OpenAPI document's `info.description`: what Strata is, then how to start (sign up, keep the
 * key, make a first call) and what "point in time" means, in Markdown. The reference page shows it
 * first and turns its headings into sidebar entries, so the page and the document say the same.
 * The facts are those of docs/api.md ("Management endpoints", "Credentials", "Positions:
 * point-in-time semantics"); `test/api/reference-page.test.ts` runs the steps against the app.
 */
export const GETTING_STARTED = `Point-in-time DeFi positions on the Stellar network: what an account held in each protocol
(FxDAO vaults, Blend pools, Soroswap pairs, DeFindex vaults) at any indexed ledger, and what it
was worth.

## Getting started

The examples call the server this page is served from; set \`STRATA\` to its address
(\`http://127.0.0.1:3000\` for \`strata serve\` on your machine).

### 1. Sign up

\`POST /v1/auth/signup\` creates your organization, its first user and its first API key, and logs
you in. No key is needed to call it.

\`\`\`sh
curl -s -X POST "$STRATA/v1/auth/signup" \\
  -H 'content-type: application/json' \\
  -d '{"organization_name": "Acme Treasury",
       "organization_slug": "acme-treasury",
       "email": "ada@example.com",
       "password": "a long passphrase"}'
\`\`\`

The \`201\` answer holds \`organization_id\`, \`organization_slug\`, \`user_id\`, an \`access_token\`
(a bearer token for the management endpoints, valid \`expires_in\` seconds: 900), a
\`refresh_token\` (\`POST /v1/auth/refresh\` turns it into a new access token) and \`api_key\`, the
organization's first key.

### 2. Keep your API key

\`api_key.key\` (\`strata_\` and 49 more characters) is the secret, **shown in this answer only**:
the server stores only a keyed hash of it and can never show it again. Keep it where you keep
passwords. \`api_key.key_prefix\` (its first 12 characters) is how lists and the audit log name it.
With the access token (\`authorization: Bearer …\`) you can list your keys (\`GET /v1/org/api-keys\`),
create more (\`POST /v1/org/api-keys/new\`), rotate one (\`POST /v1/org/api-keys/{id}/rotate\`) or
revoke one (\`DELETE /v1/org/api-keys/{id}\`); after the access token expires, log in again with
\`POST /v1/auth/login\` or refresh it.

### 3. Make a first call

Data endpoints take the API key in the \`x-svc-token\` header; management endpoints take the
bearer access token. Every operation's code samples below show the header it needs. With
\`STRATA_KEY\` set to your key, the Blend positions of an account (\`G…\` or \`C…\`):

\`\`\`sh
ADDRESS=GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7
curl -s "$STRATA/v1/users/$ADDRESS/positions/lendingprotocol" \\
  -H "x-svc-token: $STRATA_KEY"
\`\`\`

The answer is \`{data, enrichment, meta}\`: the account's positions, the assets and contracts they
refer to (decimals, symbols, prices used), and \`meta\` saying which ledger answered. An account
with no history answers empty, not \`404\`. \`GET /v1/users/{address}/positions\` answers every
protocol at once. Amounts are decimal strings with the asset's exact decimals, never floats. An
error is \`{error: {code, message, details?}, meta: {request_id, response_time_ms}}\` with a 4xx or
5xx status.

### Point in time

Every position endpoint answers for a ledger. Without a pin it answers for the latest indexed
state; \`?as_of_ledger=P\` answers with the latest snapshot at or before ledger \`P\`, valued at that
snapshot's own ledger ("what did it hold at P"), and \`…/at/{ledger}\` values the same snapshot
with the prices of \`{ledger}\` itself (\`…/at/latest\`: "what is it worth now"). \`meta\` says which
is which: \`requested_ledger\` is the pin you asked for (null without one), \`as_of_ledger\` the
ledger of the snapshot served, \`valuation_ledger\` the ledger whose prices value every USD figure,
and \`last_indexed_ledger\` how far the index has got; a pin above it is answered from what is
indexed, with \`partial_result: true\`. The positions answered for an indexed ledger do not change
afterwards.`
