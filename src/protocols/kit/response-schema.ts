import { type TSchema, Type } from 'typebox'

/**
 * Gives a schema the name the OpenAPI document files it under (`components.schemas`): its `title`,
 * set on the schema itself (so `named('Vault', Vault)` after a definition names it, and the
 * serializers and validators compiled from it are unchanged: they ignore `title`). Returns it.
 */
export function named<T extends object>(title: string, schema: T): T {
  return Object.assign(schema, { title })
}

/** `reserves` → `Reserves`: a word of a path in a schema's name. */
export function pascalName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/**
 * A protocol's word in the names of its schemas and operations, as the code names its own
 * (`VaultPositionsData`, `LendingPoolData`): `vaultprotocol` → `Vault`, `blend` → `Blend`.
 */
export function protocolWord(name: string): string {
  return pascalName(name.replace(/protocol$/, ''))
}

// Nullable values are written as JSON Schema type arrays, not anyOf: the response serializer
// handles a type array directly, while anyOf makes it validate every value to choose a branch.
export const nullableString = (description: string, pattern?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description, ...(pattern ? { pattern } : {}) })
/** A time as the API writes every time: an RFC 3339 string in UTC (`*_at`), null when unknown. */
export const nullableTimestamp = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description })
export const nullableInteger = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description })

/** A decimal string: digits, a point, digits (never exponent notation). */
export const AMOUNT_PATTERN = '^-?[0-9]+\\.[0-9]+$'
export const Amount = (description: string) => Type.String({ description, pattern: AMOUNT_PATTERN })
export const NullableAmount = (description: string) => nullableString(description, AMOUNT_PATTERN)

/**
 * One group of an account's rows in a pool whose shares it holds (a Soroswap pair, a DeFindex
 * vault): one shape for every protocol that has shares, as the grammar wants (docs/api.md).
 */
export interface ShareGroup<Problem extends string> {
  contract_address: string
  shares: string
  total_supply: string | null
  share_of_pool: string | null
  value_usd: string | null
  rate_ledger: number | null
  usd_unavailable_reason: Problem | null
}

/** The schema of a `ShareGroup`, each field described in the protocol's own words. */
export function shareGroupSchema(
  problem: TSchema,
  describe: Record<Exclude<keyof ShareGroup<string>, 'usd_unavailable_reason'>, string>,
) {
  return Type.Object({
    contract_address: Type.String({ description: describe.contract_address }),
    shares: Amount(describe.shares),
    total_supply: NullableAmount(describe.total_supply),
    share_of_pool: NullableAmount(describe.share_of_pool),
    value_usd: NullableAmount(describe.value_usd),
    rate_ledger: nullableInteger(describe.rate_ledger),
    usd_unavailable_reason: problem,
  })
}

export const AssetSchema = Type.Object({
  decimals: Type.Integer(),
  price_source: nullableString(
    'Where the price came from: the oracle feed contract, or peg:USD for an asset the network description declares pegged; null when no price was used',
  ),
  price_usd: nullableString(
    'USD price used, in the feed\'s own decimals ("1" for a pegged asset); null when missing',
  ),
  symbol: Type.String(),
  tags: Type.Array(Type.String()),
})
named('Asset', AssetSchema)

export const ContractSchema = Type.Object({
  name: Type.String(),
  position_types: Type.Array(Type.String()),
  protocol: Type.String(),
  status: Type.String(),
  version: Type.String(),
})
named('Contract', ContractSchema)

const Enrichment = Type.Object({
  assets: Type.Record(Type.String(), AssetSchema, {
    description: 'Every asset the answer refers to, by id',
  }),
  contracts: Type.Record(Type.String(), ContractSchema, {
    description: 'Every contract the answer refers to',
  }),
})
named('Enrichment', Enrichment)

// An int64 pin beyond 2^53 is carried as a BigInt so it echoes back exactly.
const RequestedLedger = Type.Unsafe<number | bigint | null>({
  type: ['integer', 'null'],
  description: 'The pin, echoed unchanged; null when omitted',
})

const COMMON_META = {
  attribution_confidence: Type.Number({
    description: "1: read directly from the contracts' own storage for the address or contract asked about",
  }),
  data_staleness_seconds: nullableInteger('Now minus the close time of last_indexed_ledger'),
  last_indexed_ledger: nullableInteger('The indexer checkpoint'),
  indexed_from_ledger: nullableInteger(
    'The first ledger the store ingested: its knowledge starts there (null before the first batch)',
  ),
  oracle_staleness_seconds: Type.Integer({
    description:
      'Close time of the ledger the request is about (the pin, or last_indexed_ledger when the pin is omitted or above it) minus the oldest price timestamp used, so a valuation at an older ledger reads as old; 0 when no price was needed',
  }),
  partial_result: Type.Boolean({
    description:
      "true when the answer needs what the store does not hold: ledgers above the indexed head, a contract's history before indexed_from_ledger, or protocol state (a reserve's asset or rate) never seen",
  }),
  response_time_ms: Type.Integer(),
  sources: Type.Array(Type.String(), { description: 'The ledger source and the oracle contracts used' }),
}

/** `meta.valuation_ledger` of a surface: one ledger's prices value every row of the answer. */
const ValuationLedger = nullableInteger(
  "The ledger whose prices value every USD figure of the answer: the served snapshot's own ledger on the snapshot surface, the pin (capped at last_indexed_ledger) on /at; null when nothing was valued",
)

const PositionsMeta = Type.Object({
  requested_ledger: RequestedLedger,
  as_of_ledger: nullableInteger('Ledger of the snapshot served; null when the pin predates the first one'),
  valuation_ledger: ValuationLedger,
  ...COMMON_META,
})
named('PositionsMeta', PositionsMeta)

/** `GET /v1/users/{address}/positions/{protocol}` and `/at/{ledger}`: a module's data with enrichment and meta. */
export function buildPositionsSchema(dataSchema: TSchema) {
  return Type.Object({ data: dataSchema, enrichment: Enrichment, meta: PositionsMeta })
}

const UsdReason = nullableString(
  "Why a total is null although positions exist: the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise",
)

/** USD totals of one protocol's section, or of every protocol's. */
export const UsdTotalsSchema = Type.Object({
  assets_usd: NullableAmount(
    'Σ USD of what is held: collateral, supplied, liquidity, vault shares (7 decimals); null when a part is unpriced or nothing is held',
  ),
  debt_usd: NullableAmount(
    'Σ USD of what is owed: vault debt, borrows (7 decimals); null when a part is unpriced or nothing is held',
  ),
  net_usd: NullableAmount('assets_usd − debt_usd; null when either is null'),
  usd_unavailable_reason: UsdReason,
})
named('UsdTotals', UsdTotalsSchema)

/** The all-protocols totals: the sections' added up, only when they share one valuation ledger. */
export const AllTotalsSchema = Type.Object({
  ...UsdTotalsSchema.properties,
  usd_unavailable_reason: nullableString(
    "Why a total is null although positions exist: valuation_ledgers_differ when the sections were valued at different ledgers (values at different ledgers are never added), else the first unpriced part's reason (price_missing, price_stale, rate_missing); null otherwise",
  ),
  usd_unavailable_hint: nullableString(
    'With valuation_ledgers_differ: the path that values every protocol at one ledger (GET /v1/users/{address}/positions/at/{ledger}); null otherwise',
  ),
})
named('AllTotals', AllTotalsSchema)

/**
 * `GET /v1/users/{address}/positions` and `/positions/at/{ledger}`: one section per protocol, each
 * in its own shape, and the totals.
 */
export function buildAllPositionsSchema(sections: Record<string, { kind: string; dataSchema: TSchema }>) {
  const properties: Record<string, TSchema> = {}
  for (const [name, { kind, dataSchema }] of Object.entries(sections)) {
    properties[name] = Type.Object({
      kind: Type.Literal(kind),
      as_of_ledger: nullableInteger(
        "Ledger of this protocol's snapshot served; null when none at or before the pin",
      ),
      valuation_ledger: nullableInteger(
        "The ledger whose prices value this section: its snapshot's own ledger on the snapshot surface, the pin on /at; null when it values nothing",
      ),
      partial_result: Type.Boolean({ description: 'This section needs what the store does not hold' }),
      oracle_staleness_seconds: Type.Integer({
        description:
          'Close time of the ledger the request is about minus the oldest price timestamp this section used; 0 when none',
      }),
      data: dataSchema,
      totals: UsdTotalsSchema,
    })
    named(`${protocolWord(name)}Section`, properties[name])
  }
  return Type.Object({
    data: Type.Object({
      address: Type.String(),
      protocols: Type.Object(properties, {
        description:
          'Every protocol, keyed by its name: `data` exactly as GET /v1/users/{address}/positions/{protocol} (or its /at/{ledger}) answers it at the same pin',
      }),
      totals: AllTotalsSchema,
    }),
    enrichment: Enrichment,
    meta: Type.Object({
      requested_ledger: RequestedLedger,
      as_of_ledger: nullableInteger("The newest section's as_of_ledger; null when no section has a snapshot"),
      valuation_ledger: nullableInteger(
        'The valuation ledger every section that values something shares; null when none does, or when they differ (each section then states its own)',
      ),
      ...COMMON_META,
      oracle_staleness_seconds: Type.Integer({
        description:
          "The largest section's oracle_staleness_seconds: the ledger the request is about minus the oldest price used; 0 when none",
      }),
    }),
  })
}

/** `GET /v1/users/{address}/positions/{protocol}/history`: snapshots, newest first, each as the snapshot surface shows it. */
export function buildHistorySchema(dataSchema: TSchema) {
  const Item = Type.Object({
    ledger: Type.Integer({ description: 'Ledger of this snapshot: the account changed at it' }),
    closed_at: nullableTimestamp('Close time of that ledger, RFC 3339 in UTC; null when the store lacks it'),
    valuation_ledger: nullableInteger(
      'The ledger whose prices value this item: its own ledger; null when it values nothing',
    ),
    data: dataSchema,
    enrichment: Enrichment,
    oracle_staleness_seconds: Type.Integer({
      description: 'Close time of the snapshot ledger minus the oldest price timestamp used; 0 when none',
    }),
    partial_result: Type.Boolean({ description: 'This snapshot needs protocol state the store never saw' }),
  })
  return Type.Object({
    data: Type.Object({
      address: Type.String(),
      snapshots: Type.Array(Item, {
        description:
          'Newest first. `data` and `enrichment` are byte for byte what the snapshot surface answers with `as_of_ledger` = `ledger`',
      }),
    }),
    enrichment: Type.Object(
      {
        contracts: Type.Record(Type.String(), ContractSchema, {
          description: 'Every contract the page refers to',
        }),
      },
      { title: 'HistoryEnrichment' },
    ),
    meta: Type.Object(
      {
        requested_ledger: Type.Unsafe<number | bigint | null>({
          type: ['integer', 'null'],
          description: '`to_ledger` as given; null when omitted',
        }),
        as_of_ledger: nullableInteger(
          'Ledger of the newest snapshot on this page; null when the page is empty',
        ),
        from_ledger: Type.Unsafe<number | bigint | null>({
          type: ['integer', 'null'],
          description: '`from_ledger` as given (inclusive); null when omitted',
        }),
        to_ledger: Type.Unsafe<number | bigint | null>({
          type: ['integer', 'null'],
          description: '`to_ledger` as given (inclusive); null when omitted',
        }),
        limit: Type.Integer({ description: 'Page size used (1–500, default 100)' }),
        next_cursor: nullableString('Pass as `cursor` for the next (older) page; null at the end'),
        ...COMMON_META,
        oracle_staleness_seconds: Type.Integer({
          description: "The largest oracle_staleness_seconds of the page's snapshots; 0 when none",
        }),
      },
      { title: 'HistoryMeta' },
    ),
  })
}

/** Protocol state at a ledger (pools, reserves, emissions). */
export function buildStateSchema(dataSchema: TSchema) {
  return Type.Object({
    data: dataSchema,
    enrichment: Enrichment,
    meta: Type.Object(
      {
        requested_ledger: RequestedLedger,
        as_of_ledger: nullableInteger(
          'The latest ledger at which a state entry the answer used was written; null when none was',
        ),
        valuation_ledger: nullableInteger(
          'The ledger whose prices value the USD figures: the pin, capped at last_indexed_ledger; null when nothing is indexed',
        ),
        ...COMMON_META,
      },
      { title: 'StateMeta' },
    ),
  })
}
