import { StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import type { NetworkConfig } from '../../src/chain/network.ts'
import { renderTvl } from '../../src/positions/tvl.ts'
import type {
  PositionsDeps,
  PositionsReader,
  TvlAsset,
  TvlSurface,
} from '../../src/protocols/kit/protocol-module.ts'

/**
 * TVL's reasons: a row's reason explains that row's null USD values; the top-level reason explains
 * a null `tvl_usd` or `borrowed_usd` and is null whenever both are values. Prices come from the
 * description's source for each asset: a feed's quote, or a declared peg.
 */

const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n))
const ORACLE = contract(2)
const XLM = contract(5)
const USDX = contract(6)
const EURX = contract(7)
const AQUA = contract(8)
const LEDGER = 100
const CLOSE_TIME = 1_700_000_000

const asset = (id: string, symbol: string, source: object) => ({
  id,
  symbol,
  decimals: 7,
  tags: [],
  ...source,
})

const NETWORK = {
  name: 'tvl-reasons',
  passphrase: 'tvl reasons',
  contracts: { oracles: [], lendingprotocol: [], ammprotocol: [], yieldprotocol: [] },
  vaultprotocol: { collateral_asset: XLM, denominations: {} },
  ammprotocol: { pairs: {} },
  assets: {
    [XLM]: asset(XLM, 'XLM', { price_feed: { oracle: ORACLE, asset: XLM } }),
    [USDX]: asset(USDX, 'USDx', { price_peg: 'USD' }),
    [EURX]: asset(EURX, 'EURx', { price_feed: { oracle: ORACLE, asset: 'EUR' } }),
    // Described, but no feed quotes it and nothing declares a peg.
    [AQUA]: asset(AQUA, 'AQUA', {}),
  },
} as unknown as NetworkConfig

/** XLM at 0.25 USD and EUR at 1.10 USD, 14 decimals, stamped at the ledger's close. */
const QUOTES: Record<string, string> = { [XLM]: '25000000000000', EUR: '110000000000000' }

const deps: PositionsDeps = {
  reader: {
    priceAt: (oracle: string, feedAsset: string) =>
      oracle === ORACLE && QUOTES[feedAsset]
        ? { ledger: LEDGER, price: QUOTES[feedAsset]!, decimals: 14, timestamp_ms: CLOSE_TIME * 1000 }
        : null,
  } as unknown as PositionsReader,
  network: NETWORK,
  maxPriceAgeS: 3600,
  nowS: CLOSE_TIME,
}

const render = (assets: TvlAsset[]) => {
  const tvl: TvlSurface = {
    description: 'test',
    lockedAt: async () => ({ assets, asOfLedger: LEDGER, partial: false }),
  }
  return renderTvl(tvl, deps, NETWORK, LEDGER, CLOSE_TIME)
}

describe('TVL reasons explain only the values they null', () => {
  it('every asset priced (a feed, a forex quote, a declared peg): no reason anywhere', async () => {
    const { data, enrichment } = await render([
      { asset: XLM, locked: 40_000_000n, borrowed: null },
      { asset: USDX, locked: null, borrowed: 3_000_000n },
      { asset: EURX, locked: null, borrowed: 10_000_000n },
    ])
    // 4 XLM × 0.25; 0.3 USDx × 1 + 1 EURx × 1.10.
    expect(data.tvl_usd).toBe('1.0000000')
    expect(data.borrowed_usd).toBe('1.4000000')
    expect(data.usd_unavailable_reason).toBeNull()
    expect(data.assets.map((a) => a.usd_unavailable_reason)).toEqual([null, null, null])
    expect(enrichment.assets[USDX]).toMatchObject({ price_usd: '1', price_source: 'peg:USD' })
    expect(enrichment.assets[EURX]).toMatchObject({ price_usd: '1.10000000000000', price_source: ORACLE })
  })

  it('an unpriced borrowed-only asset nulls borrowed_usd and explains it; tvl_usd stays a value', async () => {
    const { data } = await render([
      { asset: XLM, locked: 40_000_000n, borrowed: null },
      { asset: AQUA, locked: null, borrowed: 5n },
    ])
    expect(data.tvl_usd).toBe('1.0000000')
    expect(data.borrowed_usd).toBeNull()
    expect(data.usd_unavailable_reason).toBe('price_missing')
    expect(data.assets[1]).toMatchObject({
      borrowed: '0.0000005',
      borrowed_usd: null,
      usd_unavailable_reason: 'price_missing',
    })
  })

  it('an unpriced locked asset nulls tvl_usd and explains it', async () => {
    const { data } = await render([
      { asset: XLM, locked: 40_000_000n, borrowed: null },
      { asset: AQUA, locked: 7n, borrowed: null },
    ])
    expect(data.tvl_usd).toBeNull()
    expect(data.usd_unavailable_reason).toBe('price_missing')
    expect(data.assets.map((a) => a.usd_unavailable_reason)).toEqual([null, 'price_missing'])
  })

  it('an unpriced row with no amount explains nothing: no reason on it or at the top', async () => {
    const { data } = await render([
      { asset: XLM, locked: 40_000_000n, borrowed: null },
      { asset: AQUA, locked: null, borrowed: null },
    ])
    expect(data.tvl_usd).toBe('1.0000000')
    expect(data.borrowed_usd).toBeNull()
    expect(data.usd_unavailable_reason).toBeNull()
    expect(data.assets[1]!.usd_unavailable_reason).toBeNull()
  })

  it('an asset the description does not list is asset_unknown, on its row and for the total it nulls', async () => {
    const { data } = await render([{ asset: contract(9), locked: 1n, borrowed: null }])
    expect(data.tvl_usd).toBeNull()
    expect(data.usd_unavailable_reason).toBe('asset_unknown')
    expect(data.assets[0]).toMatchObject({ locked: '1', usd_unavailable_reason: 'asset_unknown' })
  })
})
