import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { StrKey } from '@stellar/stellar-sdk'
import { type Static, Type } from 'typebox'
import Value from 'typebox/value'
import { CONTRACT_KINDS, type NetworkConfig, PRICE_PEGS } from './network.ts'
import { deriveSoroswapPairId } from './soroswap-address.ts'

/** Where a network's description lives when none is named: the RPC server's own `/network.json`. */
export function defaultNetworkUrl(rpcUrl: string): string {
  return new URL('/network.json', new URL(rpcUrl).origin).toString()
}

/** Descriptions shipped with the project, by name (`--network pubnet`). */
export const SHIPPED_NETWORKS: Record<string, string> = {
  pubnet: fileURLToPath(new URL('../../networks/pubnet.json', import.meta.url)),
}

const ContractId = Type.String({ pattern: '^C[A-Z2-7]{55}$' })
const PriceFeed = Type.Object(
  { oracle: ContractId, asset: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
)
const Contract = Type.Object(
  {
    address: ContractId,
    protocol: Type.String({ minLength: 1 }),
    kind: Type.Union(CONTRACT_KINDS.map((k) => Type.Literal(k))),
    name: Type.String({ minLength: 1 }),
    version: Type.String({ minLength: 1 }),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('deprecated')]),
    position_types: Type.Array(Type.String()),
    start_ledger: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    reserves: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]{1,2}$' }), ContractId)),
  },
  { additionalProperties: false },
)
const YieldContract = Type.Object(
  {
    ...Contract.properties,
    assets: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    strategies: Type.Optional(Type.Array(ContractId, { minItems: 1 })),
    pool: Type.Optional(ContractId),
    asset: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)
const NetworkSchema = Type.Object(
  {
    $comment: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1 }),
    passphrase: Type.String({ minLength: 1 }),
    contracts: Type.Object(
      {
        vaultprotocol: Contract,
        oracles: Type.Array(Contract, { minItems: 1 }),
        lendingprotocol: Type.Optional(Type.Array(Contract)),
        ammprotocol: Type.Optional(Type.Array(Contract)),
        yieldprotocol: Type.Optional(Type.Array(YieldContract)),
      },
      { additionalProperties: false },
    ),
    vaultprotocol: Type.Object(
      {
        collateral_asset: Type.String({ minLength: 1 }),
        denominations: Type.Record(
          Type.String(),
          Type.Object({ debt_asset: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    ammprotocol: Type.Optional(
      Type.Object(
        {
          pairs: Type.Record(
            Type.String(),
            Type.Object({ token_0: ContractId, token_1: ContractId }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    assets: Type.Record(
      Type.String(),
      Type.Object(
        {
          id: Type.String({ minLength: 1 }),
          symbol: Type.String({ minLength: 1 }),
          decimals: Type.Integer({ minimum: 0, maximum: 38 }),
          tags: Type.Array(Type.String()),
          price_feed: Type.Optional(Type.Union([PriceFeed, Type.Null()])),
          price_peg: Type.Optional(Type.Union([...PRICE_PEGS.map((p) => Type.Literal(p)), Type.Null()])),
          $comment: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

/** A network description that fails its schema or its cross-references: one readable message. */
export class NetworkDescriptionError extends Error {
  constructor(source: string, problems: string[]) {
    super(`${source} is not a valid network description: ${problems.join('; ')}`)
    this.name = 'NetworkDescriptionError'
  }
}

/** Checks shape (schema), StrKey checksums and that every reference names something described. */
export function parseNetworkConfig(value: unknown, source: string): NetworkConfig {
  const retired = retiredFields(value)
  if (retired.length > 0) throw new NetworkDescriptionError(source, retired)
  if (!Value.Check(NetworkSchema, value)) {
    const problems = [...Value.Errors(NetworkSchema, value)]
      .filter((e) => e.keyword !== 'boolean')
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
    throw new NetworkDescriptionError(source, problems)
  }
  const config = value as Static<typeof NetworkSchema>
  const problems: string[] = []
  const lending = config.contracts.lendingprotocol ?? []
  const amm = config.contracts.ammprotocol ?? []
  const yieldContracts = config.contracts.yieldprotocol ?? []
  const contracts = [
    config.contracts.vaultprotocol,
    ...config.contracts.oracles,
    ...lending,
    ...amm,
    ...yieldContracts,
  ]
  for (const c of contracts) {
    if (!StrKey.isValidContract(c.address)) problems.push(`contract ${c.address} has a bad checksum`)
  }
  const expectedKinds: Array<[ContractInfoLike[], string, string[]]> = [
    [[config.contracts.vaultprotocol], 'vaultprotocol', ['fxdao-vaults']],
    [config.contracts.oracles, 'oracle', ['reflector']],
    [lending, 'lendingprotocol', ['blend-pool-v2']],
    [amm, 'ammprotocol', ['soroswap-factory', 'soroswap-router', 'soroswap-pair']],
  ]
  for (const [list, protocol, kinds] of expectedKinds) {
    for (const c of list) {
      if (c.protocol !== protocol || !kinds.includes(c.kind))
        problems.push(`contract ${c.address} is listed as ${protocol} but says ${c.protocol}/${c.kind}`)
    }
  }
  problems.push(...checkYieldContracts(yieldContracts, lending, config.assets))
  const seen = new Set<string>()
  for (const c of contracts) {
    if (seen.has(c.address)) problems.push(`contract ${c.address} is listed twice`)
    seen.add(c.address)
  }
  const oracles = new Set(config.contracts.oracles.map((o) => o.address))
  for (const [id, asset] of Object.entries(config.assets)) {
    if (asset.id !== id) problems.push(`assets.${id}.id is ${asset.id}`)
    if (asset.price_feed && !oracles.has(asset.price_feed.oracle)) {
      problems.push(
        `assets.${id}.price_feed names ${asset.price_feed.oracle}, which is not in contracts.oracles`,
      )
    }
    if (asset.price_feed && asset.price_peg)
      problems.push(`assets.${id} names both a price_feed and a price_peg: one price source per asset`)
  }
  problems.push(...checkSoroswapPairs(config.passphrase, config.assets, config.ammprotocol?.pairs ?? {}, amm))
  const vault = config.vaultprotocol
  if (!config.assets[vault.collateral_asset])
    problems.push(`collateral asset ${vault.collateral_asset} is not in assets`)
  for (const [name, d] of Object.entries(vault.denominations)) {
    if (!config.assets[d.debt_asset])
      problems.push(`denomination ${name}: debt asset ${d.debt_asset} is not in assets`)
  }
  if (problems.length > 0) throw new NetworkDescriptionError(source, problems)
  return normalizeNetworkConfig(config as NetworkConfig)
}

type ContractInfoLike = { address: string; protocol: string; kind: string }

/**
 * Fields earlier descriptions had and this one no longer reads, each with what replaces it: named
 * plainly rather than as the schema's "additional property".
 */
function retiredFields(value: unknown): string[] {
  const denominations = (value as { vaultprotocol?: { denominations?: unknown } } | null)?.vaultprotocol
    ?.denominations
  if (typeof denominations !== 'object' || denominations === null) return []
  return Object.entries(denominations as Record<string, unknown>).flatMap(([name, d]) =>
    typeof d === 'object' && d !== null && 'price_asset' in d
      ? [
          `vaultprotocol.denominations.${name}.price_asset is no longer read: a debt token is priced through its own entry in assets (a price_feed naming its currency's feed, or price_peg "USD")`,
        ]
      : [],
  )
}

/**
 * Soroswap cross-references: each listed pair has its tokens in `ammprotocol.pairs` and the other
 * way round, both tokens are described assets in the factory's order, and when a factory is listed
 * the pair's address is the one that factory deploys for those tokens (a wrong token is caught).
 */
function checkSoroswapPairs(
  passphrase: string,
  assets: Record<string, unknown>,
  pairs: NetworkConfig['ammprotocol']['pairs'],
  amm: ContractInfoLike[],
): string[] {
  const problems: string[] = []
  const listed = new Set(amm.filter((c) => c.kind === 'soroswap-pair').map((c) => c.address))
  const factories = amm.filter((c) => c.kind === 'soroswap-factory').map((c) => c.address)
  for (const address of listed) {
    if (!pairs[address]) problems.push(`pair ${address} has no tokens in ammprotocol.pairs`)
  }
  for (const [address, { token_0, token_1 }] of Object.entries(pairs)) {
    if (!listed.has(address)) {
      problems.push(`ammprotocol.pairs.${address} is not a soroswap-pair in contracts.ammprotocol`)
      continue
    }
    const tokens = [token_0, token_1]
    if (!tokens.every((t) => StrKey.isValidContract(t))) {
      problems.push(`pair ${address}: a token has a bad checksum`)
      continue
    }
    for (const token of tokens) {
      if (!assets[token]) problems.push(`pair ${address}: token ${token} is not in assets`)
    }
    const [t0, t1] = tokens.map((t) => StrKey.decodeContract(t)) as [Buffer, Buffer]
    if (Buffer.compare(t0, t1) >= 0) problems.push(`pair ${address}: token_0 must sort before token_1`)
    else if (
      factories.length > 0 &&
      !factories.some(
        (f) =>
          StrKey.isValidContract(f) &&
          StrKey.encodeContract(
            Buffer.from(deriveSoroswapPairId(passphrase, StrKey.decodeContract(f), t0, t1)),
          ) === address,
      )
    )
      problems.push(`pair ${address} is not the pair the listed factory deploys for its tokens`)
  }
  return problems
}

/** A vault names its assets and strategies, a strategy its pool and asset; every name must resolve. */
function checkYieldContracts(
  list: Static<typeof YieldContract>[],
  lending: ContractInfoLike[],
  assets: Record<string, unknown>,
): string[] {
  const problems: string[] = []
  const pools = new Set(lending.map((p) => p.address))
  const strategies = new Map(
    list.filter((c) => c.kind === 'defindex-strategy-blend').map((c) => [c.address, c]),
  )
  const named = new Set<string>()
  for (const c of list) {
    if (
      c.protocol !== 'yieldprotocol' ||
      (c.kind !== 'defindex-vault' && c.kind !== 'defindex-strategy-blend')
    ) {
      problems.push(`contract ${c.address} is listed as yieldprotocol but says ${c.protocol}/${c.kind}`)
      continue
    }
    if (c.kind === 'defindex-vault') {
      if (!c.assets || !c.strategies || c.pool !== undefined || c.asset !== undefined) {
        problems.push(`vault ${c.address} must name its assets and strategies (and no pool or asset)`)
        continue
      }
      for (const asset of c.assets)
        if (!assets[asset]) problems.push(`vault ${c.address}: asset ${asset} is not in assets`)
      for (const address of c.strategies) {
        const strategy = strategies.get(address)
        named.add(address)
        if (!strategy)
          problems.push(`vault ${c.address}: strategy ${address} is not a listed defindex-strategy-blend`)
        else if (strategy.asset !== undefined && !c.assets.includes(strategy.asset))
          problems.push(
            `vault ${c.address}: strategy ${address} lends ${strategy.asset}, not one of the vault's assets`,
          )
      }
    } else {
      if (
        c.pool === undefined ||
        c.asset === undefined ||
        c.assets !== undefined ||
        c.strategies !== undefined
      ) {
        problems.push(`strategy ${c.address} must name its pool and asset (and no assets or strategies)`)
        continue
      }
      if (!pools.has(c.pool))
        problems.push(`strategy ${c.address}: pool ${c.pool} is not in contracts.lendingprotocol`)
      if (!assets[c.asset]) problems.push(`strategy ${c.address}: asset ${c.asset} is not in assets`)
    }
  }
  for (const address of strategies.keys()) {
    if (!named.has(address)) problems.push(`strategy ${address} is named by no vault`)
  }
  return problems
}

/** Fills what older descriptions (and stores written before a protocol existed) leave out. */
export function normalizeNetworkConfig(config: NetworkConfig): NetworkConfig {
  return {
    ...config,
    assets: carryDenominationPrices(config),
    contracts: {
      ...config.contracts,
      lendingprotocol: config.contracts.lendingprotocol ?? [],
      ammprotocol: config.contracts.ammprotocol ?? [],
      yieldprotocol: config.contracts.yieldprotocol ?? [],
    },
    ammprotocol: config.ammprotocol ?? { pairs: {} },
  }
}

/**
 * A description stored before debt tokens named their own price source said it on the
 * denomination (`price_asset`: an asset whose feed prices it, or null for exactly one dollar).
 * That declaration is carried onto the debt token, so a store bound by an older indexer prices
 * vault debt as before; a debt token that already names a source keeps it.
 */
function carryDenominationPrices(config: NetworkConfig): NetworkConfig['assets'] {
  const assets = { ...config.assets }
  for (const d of Object.values(config.vaultprotocol.denominations) as Array<{
    debt_asset: string
    price_asset?: string | null
  }>) {
    const token = assets[d.debt_asset]
    if (!token || d.price_asset === undefined || token.price_feed || token.price_peg) continue
    const feed = d.price_asset === null ? null : (assets[d.price_asset]?.price_feed ?? null)
    if (d.price_asset === null) assets[d.debt_asset] = { ...token, price_peg: 'USD' }
    else if (feed) assets[d.debt_asset] = { ...token, price_feed: feed }
  }
  return assets
}

/** Reads a NetworkConfig from an http(s) URL, a JSON file, or the name of a shipped description. */
export async function loadNetworkConfig(source: string, signal?: AbortSignal): Promise<NetworkConfig> {
  if (/^https?:\/\//.test(source)) {
    const timeout = AbortSignal.timeout(10_000)
    let response: Response
    let body: unknown
    try {
      response = await fetch(source, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      body = await response.json()
    } catch (error) {
      if (signal?.aborted) throw error
      // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause.
      const code = (error as Error & { cause?: { code?: string } }).cause?.code
      // The cause is kept: a caller that fetched the RPC's own description names the RPC instead.
      throw new Error(
        `cannot fetch the network description ${source}: ${code ? `cannot reach ${new URL(source).host} (${code})` : (error as Error).message}`,
        { cause: error },
      )
    }
    return parseNetworkConfig(body, source)
  }
  const path = SHIPPED_NETWORKS[source] ?? source
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the network description ${source}: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new NetworkDescriptionError(source, [`not JSON (${(error as Error).message})`])
  }
  return parseNetworkConfig(json, source)
}
