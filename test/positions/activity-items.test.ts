import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import type { NetworkConfig } from '../../src/chain/network.ts'
import { valueActions } from '../../src/positions/activity-items.ts'
import type { PositionsDeps } from '../../src/protocols/kit/protocol-module.ts'
import type { StoredActivity } from '../../src/store/activities.ts'
import type { PriceRow } from '../../src/store/positions-read.ts'

/** Contract ids for a small hand-made network description. */
const contract = () => StrKey.encodeContract(Keypair.random().rawPublicKey())
const ORACLE = contract()
const FOREX = contract()
const XLM = contract()
const USDX = contract()
const EURX = contract()
const TOKEN6 = contract()
const UNLISTED = contract()
const PAIR = contract()
const ODD_PAIR = contract()
const VAULT = contract()
const FXDAO = contract()
const ACCOUNT = Keypair.random().publicKey()
const LEDGER = 1000
const CLOSE_S = 1_700_000_000

const network = {
  name: 'unit',
  passphrase: 'unit',
  contracts: {
    vaultprotocol: { address: FXDAO },
    oracles: [],
    lendingprotocol: [],
    ammprotocol: [],
    yieldprotocol: [{ address: VAULT, kind: 'defindex-vault', assets: [TOKEN6, XLM] }],
  },
  vaultprotocol: {
    collateral_asset: XLM,
    denominations: {
      USD: { debt_asset: USDX },
      EUR: { debt_asset: EURX },
    },
  },
  ammprotocol: {
    pairs: { [PAIR]: { token_0: XLM, token_1: EURX }, [ODD_PAIR]: { token_0: TOKEN6, token_1: UNLISTED } },
  },
  assets: {
    [XLM]: { id: XLM, symbol: 'XLM', decimals: 7, tags: [], price_feed: { oracle: ORACLE, asset: 'XLM' } },
    // As the network description declares them: USDx pegged, EURx at the forex feed's EUR quote.
    [USDX]: { id: USDX, symbol: 'USDx', decimals: 7, tags: [], price_peg: 'USD' },
    [EURX]: { id: EURX, symbol: 'EURx', decimals: 7, tags: [], price_feed: { oracle: FOREX, asset: 'EUR' } },
    [TOKEN6]: {
      id: TOKEN6,
      symbol: 'T6',
      decimals: 6,
      tags: [],
      price_feed: { oracle: ORACLE, asset: 'T6' },
    },
  },
} as unknown as NetworkConfig

/** Prices at LEDGER, 14 decimals: XLM 0.25 USD, EUR 1.08 USD (fresh), T6 stale by an hour and a second. */
const PRICES: Record<string, PriceRow> = {
  [`${ORACLE}|XLM`]: {
    ledger: 990,
    price: '25000000000000',
    decimals: 14,
    timestamp_ms: (CLOSE_S - 60) * 1000,
  },
  [`${FOREX}|EUR`]: {
    ledger: 995,
    price: '108000000000000',
    decimals: 14,
    timestamp_ms: (CLOSE_S - 30) * 1000,
  },
  [`${ORACLE}|T6`]: {
    ledger: 400,
    price: '100000000000000',
    decimals: 14,
    timestamp_ms: (CLOSE_S - 3601) * 1000,
  },
}

const deps = { network, maxPriceAgeS: 3600, nowS: CLOSE_S } as unknown as PositionsDeps

const row = (
  protocol: string,
  type: string,
  contractId: string,
  details: Record<string, unknown>,
  asset: string | null = null,
  amount: string | null = null,
): StoredActivity => ({
  ledger: LEDGER,
  tx_order: 0,
  event_index: 0,
  protocol,
  tx_hash: 'ab'.repeat(32),
  operation: 0,
  type,
  contract: contractId,
  account: ACCOUNT,
  asset,
  amount,
  details: JSON.stringify(details),
  close_time: CLOSE_S,
})

const value = async (rows: StoredActivity[]) => {
  const asked: string[] = []
  const items = await valueActions(deps, network, rows, {
    pricesAt: (wanted) =>
      wanted.map((w) => {
        asked.push(`${w.oracle}|${w.asset}@${w.ledger}`)
        return PRICES[`${w.oracle}|${w.asset}`] ?? null
      }),
  })
  return { items, asked }
}

describe('activity legs and their USD, on a hand-made description (values worked out by hand)', () => {
  it('a swap of XLM for EURx: both legs, EURx through the EUR forex feed, worth its input', async () => {
    const { items, asked } = await value([
      row('ammprotocol', 'swap', PAIR, {
        amount_0_in: '40000000000',
        amount_0_out: '0',
        amount_1_in: '0',
        amount_1_out: '9250000000',
      }),
    ])
    const [swap] = items
    expect(swap).toMatchObject({
      contract_address: PAIR,
      closed_at: '2023-11-14T22:13:20.000Z',
      // 4000 XLM × 0.25 = 1000 USD.
      amount_usd: '1000.0000000',
      usd_unavailable_reason: null,
      details: {},
    })
    expect(swap!.legs).toEqual([
      {
        role: 'asset',
        direction: 'sent',
        asset: XLM,
        symbol: 'XLM',
        amount_raw: '40000000000',
        amount: '4000.0000000',
        amount_usd: '1000.0000000',
        usd_unavailable_reason: null,
      },
      {
        role: 'asset',
        direction: 'received',
        asset: EURX,
        symbol: 'EURx',
        amount_raw: '9250000000',
        amount: '925.0000000',
        // 925 × 1.08 = 999 USD.
        amount_usd: '999.0000000',
        usd_unavailable_reason: null,
      },
    ])
    // One read per (feed, ledger).
    expect(asked.sort()).toEqual([`${FOREX}|EUR@${LEDGER}`, `${ORACLE}|XLM@${LEDGER}`].sort())
  })

  it('liquidity in a pair with an unlisted token: that leg has no units and no USD, nor has the action', async () => {
    const { items } = await value([
      row('ammprotocol', 'add_liquidity', ODD_PAIR, {
        amount_0: '1500000',
        amount_1: '123',
        liquidity: '4000',
        reserve_0: '3000000',
        reserve_1: '246',
      }),
    ])
    const [add] = items
    expect(
      add!.legs.map((l) => [l.role, l.direction, l.asset, l.amount, l.amount_usd, l.usd_unavailable_reason]),
    ).toEqual([
      // 1.5 T6 at a price an hour and a second old: stale.
      ['asset', 'sent', TOKEN6, '1.500000', null, 'price_stale'],
      ['asset', 'sent', UNLISTED, null, null, 'asset_unknown'],
      ['shares', 'minted', ODD_PAIR, '0.0004000', null, 'protocol_token'],
    ])
    expect(add).toMatchObject({
      amount_usd: null,
      usd_unavailable_reason: 'price_stale',
      details: { reserve_0: '3.000000', reserve_1: null },
    })
  })

  it('a deposit into a vault whose event names no assets: the description gives their order', async () => {
    const { items } = await value([
      row('yieldprotocol', 'deposit', VAULT, {
        amounts: ['0', '20000000'],
        df_tokens_minted: '19990000',
        total_managed_funds_before: null,
        total_supply_before: null,
      }),
    ])
    const [deposit] = items
    expect(deposit!.legs.map((l) => [l.role, l.direction, l.asset, l.amount, l.amount_usd])).toEqual([
      ['asset', 'sent', TOKEN6, '0.000000', null],
      ['asset', 'sent', XLM, '2.0000000', '0.5000000'],
      ['shares', 'minted', VAULT, '1.9990000', null],
    ])
    // The T6 leg (zero, but stale) leaves the deposit unpriced: nothing is added up from part of it.
    expect(deposit).toMatchObject({
      amount_usd: null,
      usd_unavailable_reason: 'price_stale',
      details: { total_supply_before: null, total_managed_funds_before: null },
    })
  })

  it('FxDAO new_vault: XLM sent, USDx received at exactly one dollar; worth the collateral', async () => {
    const { items } = await value([
      row(
        'vaultprotocol',
        'new_vault',
        FXDAO,
        { denomination: 'USD', debt: '1000000000' },
        XLM,
        '80000000000',
      ),
      row('vaultprotocol', 'liquidate', FXDAO, { denomination: 'USD', owners: [] }),
    ])
    const [open, liquidate] = items
    expect(open!.legs.map((l) => [l.direction, l.asset, l.amount, l.amount_usd])).toEqual([
      ['sent', XLM, '8000.0000000', '2000.0000000'],
      ['received', USDX, '100.0000000', '100.0000000'],
    ])
    expect(open).toMatchObject({
      amount_usd: '2000.0000000',
      usd_unavailable_reason: null,
      details: { denomination: 'USD' },
    })
    expect(liquidate).toMatchObject({ legs: [], amount_usd: null, usd_unavailable_reason: 'no_amount' })
  })

  it('a share transfer is worth nothing added up; a claim names BLND without a price', async () => {
    const { items } = await value([
      row('yieldprotocol', 'transfer', VAULT, { to: ACCOUNT }, null, '5000000'),
      row('lendingprotocol', 'claim', contract(), { reserve_token_ids: [1, 3] }, null, '123456789'),
    ])
    const [transfer, claim] = items
    expect(transfer).toMatchObject({
      amount_usd: null,
      usd_unavailable_reason: 'protocol_token',
      details: { to: ACCOUNT },
    })
    expect(transfer!.legs).toMatchObject([
      { role: 'shares', direction: 'sent', asset: VAULT, amount: '0.5000000' },
    ])
    expect(claim!.legs).toEqual([
      {
        role: 'asset',
        direction: 'received',
        asset: null,
        symbol: null,
        amount_raw: '123456789',
        amount: '12.3456789',
        amount_usd: null,
        usd_unavailable_reason: 'asset_unknown',
      },
    ])
    expect(claim).toMatchObject({
      amount_usd: null,
      usd_unavailable_reason: 'asset_unknown',
      details: { reserve_token_ids: [1, 3] },
    })
  })
})
