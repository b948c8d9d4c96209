import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Address, Asset, hash, Networks, StrKey, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import {
  loadNetworkConfig,
  NetworkDescriptionError,
  normalizeNetworkConfig,
  SHIPPED_NETWORKS,
} from '../../src/chain/load-network.ts'
import type { NetworkConfig } from '../../src/chain/network.ts'

const FXDAO_ISSUER = 'GAVH5ZWACAY2PHPUG4FL3LHHJIYIHOFPSIUGM2KHK25CJWXHAV6QKDMN'
const SOROSWAP_FACTORY = 'CA4HEQTL2WPEUYKYKCDOHCDNIV4QHNJ7EL4J4NQ6VADP7SYHVRYZ7AW2'
const SOROSWAP_ROUTER = 'CAG5LRYQ5JVEUI5TEID72EYOVX44TTUJT5BQR2J6J77FH65PCCFAJDDH'
/** Reflector's foreign-exchange feed (stellar-docs oracle providers page). */
const FOREX_FEED = 'CBKGPWGKSKZF52CFHMTRR23TBWTPMRDIYZ4O2P5VS65BMHYH4DXMCJZC'
const USDX = new Asset('USDx', FXDAO_ISSUER).contractId(Networks.PUBLIC)
const EURX = new Asset('EURx', FXDAO_ISSUER).contractId(Networks.PUBLIC)

/** The factory's pair address, written again from soroswap/core factory/src/pair.rs with the SDK's own types. */
function soroswapPairFor(factory: string, a: string, b: string): string {
  const [t0, t1] = Buffer.compare(StrKey.decodeContract(a), StrKey.decodeContract(b)) < 0 ? [a, b] : [b, a]
  const salt = hash(
    Buffer.concat([Address.fromString(t0).toScVal().toXDR(), Address.fromString(t1).toScVal().toXDR()]),
  )
  const preimage = xdr.HashIdPreimage.fromXdrObject({
    type: 8,
    contractId: {
      networkId: hash(Buffer.from(Networks.PUBLIC)),
      contractIdPreimage: {
        type: 0,
        fromAddress: { address: Address.fromString(factory).toScAddress().toXdrObject(), salt },
      },
    },
  })
  return StrKey.encodeContract(hash(preimage.toXDR()))
}

describe('the shipped mainnet description (networks/pubnet.json)', () => {
  it('loads by name and names the pubnet passphrase', async () => {
    const network = await loadNetworkConfig('pubnet')
    expect(network.passphrase).toBe(Networks.PUBLIC)
    expect(network.contracts.vaultprotocol).toMatchObject({ kind: 'fxdao-vaults', version: '0.6.0' })
    expect(network.contracts.oracles.every((o) => o.kind === 'reflector')).toBe(true)
  })

  it("lists the asset contracts of XLM and FxDAO's stablecoins as their Stellar asset contract IDs", async () => {
    const network = await loadNetworkConfig('pubnet')
    const xlm = Asset.native().contractId(Networks.PUBLIC)
    expect(network.vaultprotocol.collateral_asset).toBe(xlm)
    expect(network.assets[xlm]?.decimals).toBe(7)
    for (const code of ['USD', 'EUR', 'GBP']) {
      const sac = new Asset(`${code}x`, FXDAO_ISSUER).contractId(Networks.PUBLIC)
      expect(network.vaultprotocol.denominations[code]?.debt_asset).toBe(sac)
      expect(network.assets[sac]?.symbol).toBe(`${code}x`)
    }
  })

  it('prices EURx and GBPx through the forex feed under their currencies, and USDx by its declared USD peg', async () => {
    const network = await loadNetworkConfig('pubnet')
    const sac = (code: string) => new Asset(code, FXDAO_ISSUER).contractId(Networks.PUBLIC)
    expect(network.assets[sac('EURx')]?.price_feed).toEqual({ oracle: FOREX_FEED, asset: 'EUR' })
    expect(network.assets[sac('GBPx')]?.price_feed).toEqual({ oracle: FOREX_FEED, asset: 'GBP' })
    expect(network.assets[sac('USDx')]?.price_peg).toBe('USD')
    expect(network.assets[sac('USDx')]?.price_feed ?? null).toBeNull()
    // A peg is only ever declared: no other asset is pegged, whatever its symbol or tags say.
    const pegged = Object.values(network.assets).filter((a) => a.price_peg)
    expect(pegged.map((a) => a.symbol)).toEqual(['USDx'])
    expect(network.contracts.oracles.map((o) => o.address)).toContain(FOREX_FEED)
  })
})

describe('Soroswap in the shipped mainnet description', () => {
  it('lists the factory, the router and four pairs, each the pair the factory derives for its tokens', async () => {
    const network = await loadNetworkConfig('pubnet')
    const amm = network.contracts.ammprotocol
    expect(amm.filter((c) => c.kind === 'soroswap-factory').map((c) => c.address)).toEqual([SOROSWAP_FACTORY])
    expect(amm.filter((c) => c.kind === 'soroswap-router').map((c) => c.address)).toEqual([SOROSWAP_ROUTER])
    const xlm = Asset.native().contractId(Networks.PUBLIC)
    const usdc = new Asset('USDC', 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN').contractId(
      Networks.PUBLIC,
    )
    const eurc = new Asset('EURC', 'GDHU6WRG4IEQXM5NZ4BMPKOXHW76MZM4Y2IEMFDVXBSDP6SJY4ITNPP2').contractId(
      Networks.PUBLIC,
    )
    const aqua = new Asset('AQUA', 'GBNZILSTVQZ4R7IKQDGHYGY2QXL5QOFJYQMXPKWRRM5PAV7Y4M67AQUA').contractId(
      Networks.PUBLIC,
    )
    // The XLM/USDC pair of the genuine swap in test/fixtures/pubnet (ledger 63092990).
    expect(soroswapPairFor(SOROSWAP_FACTORY, usdc, xlm)).toBe(
      'CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP',
    )
    const expected = [
      [xlm, usdc],
      [xlm, eurc],
      [xlm, aqua],
      [usdc, eurc],
    ].map(([a, b]) => soroswapPairFor(SOROSWAP_FACTORY, a!, b!))
    const pairs = amm.filter((c) => c.kind === 'soroswap-pair')
    expect(pairs.map((p) => p.address)).toEqual(expected)
    for (const p of pairs) {
      expect(p).toMatchObject({ protocol: 'ammprotocol', position_types: ['liquidity'] })
      const { token_0, token_1 } = network.ammprotocol.pairs[p.address]!
      expect(soroswapPairFor(SOROSWAP_FACTORY, token_1, token_0)).toBe(p.address)
      expect(Buffer.compare(StrKey.decodeContract(token_0), StrKey.decodeContract(token_1))).toBe(-1)
      expect(network.assets[token_0]?.decimals).toBe(7)
      expect(network.assets[token_1]?.decimals).toBe(7)
    }
    expect(network.assets[aqua]?.symbol).toBe('AQUA')
  })
})

describe('DeFindex in the shipped mainnet description', () => {
  it('lists the Meru USDC vault with its two Blend strategies, each naming a listed pool and the vault asset', async () => {
    const network = await loadNetworkConfig('pubnet')
    const usdc = new Asset('USDC', 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN').contractId(
      Networks.PUBLIC,
    )
    const vault = network.contracts.yieldprotocol.find((c) => c.kind === 'defindex-vault')!
    expect(vault.address).toBe('CCA2ZJP5BVRXYTQH4FAGHCAUMRYCXVC4CRYC2NXHWMR7TIVX36U7F5HR')
    expect(vault.assets).toEqual([usdc])
    const pools = network.contracts.lendingprotocol.map((p) => p.address)
    for (const address of vault.strategies!) {
      const strategy = network.contracts.yieldprotocol.find((c) => c.address === address)!
      expect(strategy.kind).toBe('defindex-strategy-blend')
      expect(strategy.asset).toBe(usdc)
      expect(pools).toContain(strategy.pool)
    }
  })
})

describe('loadNetworkConfig refuses a bad description with one clear error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-network-'))
  const pubnet = JSON.parse(readFileSync(SHIPPED_NETWORKS.pubnet!, 'utf8'))
  const write = (name: string, body: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body))
    return path
  }
  type Entry = Record<string, unknown>
  const withYield = (edit: (list: Entry[]) => (Entry | undefined)[]) => ({
    ...pubnet,
    contracts: { ...pubnet.contracts, yieldprotocol: edit(pubnet.contracts.yieldprotocol) },
  })

  it.each([
    ['not JSON', '{"name": ', /not JSON/],
    [
      'no oracles',
      { ...pubnet, contracts: { vaultprotocol: pubnet.contracts.vaultprotocol, oracles: [] } },
      /oracles/,
    ],
    [
      'a contract ID with a bad checksum',
      {
        ...pubnet,
        contracts: {
          ...pubnet.contracts,
          vaultprotocol: {
            ...pubnet.contracts.vaultprotocol,
            address: 'CCUN4RXU5VNDHSF4S4RKV4ZJYMX2YWKOH6L4AKEKVNVDQ7HY5QIAO4UA',
          },
        },
      },
      /bad checksum/,
    ],
    [
      'a price feed that is not a listed oracle',
      {
        ...pubnet,
        assets: {
          ...pubnet.assets,
          [EURX]: {
            ...pubnet.assets[EURX],
            price_feed: { oracle: pubnet.contracts.vaultprotocol.address, asset: 'EUR' },
          },
        },
      },
      /not in contracts\.oracles/,
    ],
    [
      'an asset with both a price feed and a peg',
      {
        ...pubnet,
        assets: { ...pubnet.assets, [EURX]: { ...pubnet.assets[EURX], price_peg: 'USD' } },
      },
      /names both a price_feed and a price_peg/,
    ],
    [
      'a peg to a currency other than USD',
      {
        ...pubnet,
        assets: { ...pubnet.assets, [USDX]: { ...pubnet.assets[USDX], price_peg: 'EUR' } },
      },
      /price_peg/,
    ],
    [
      "a denomination's price_asset (no longer read), named with what replaces it",
      {
        ...pubnet,
        vaultprotocol: {
          ...pubnet.vaultprotocol,
          denominations: {
            ...pubnet.vaultprotocol.denominations,
            EUR: { debt_asset: EURX, price_asset: 'EUR' },
          },
        },
      },
      /denominations\.EUR\.price_asset is no longer read: a debt token is priced through its own entry in assets/,
    ],
    ['an unknown field', { ...pubnet, extra: 1 }, /additional properties/],
    [
      'a strategy lending into a pool that is not listed',
      withYield((list) => [list[0], { ...list[1], pool: pubnet.contracts.vaultprotocol.address }, list[2]]),
      /is not in contracts\.lendingprotocol/,
    ],
    [
      'a vault naming a strategy that is not listed',
      withYield((list) => [list[0], list[1]]),
      /is not a listed defindex-strategy-blend/,
    ],
    ['a strategy named by no vault', withYield((list) => [list[1], list[2]]), /named by no vault/],
    [
      'a vault without its assets',
      withYield((list) => [{ ...list[0], assets: undefined }, list[1], list[2]]),
      /must name its assets and strategies/,
    ],
    [
      'a strategy lending an asset its vault does not hold',
      withYield((list) => [
        list[0],
        { ...list[1], asset: 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA' },
        list[2],
      ]),
      /not one of the vault's assets/,
    ],
    [
      'a Blend pool listed under yieldprotocol',
      withYield((list) => [...list, pubnet.contracts.lendingprotocol[0]]),
      /listed as yieldprotocol but says lendingprotocol/,
    ],
    [
      'a negative decimals',
      { ...pubnet, assets: { ...pubnet.assets, [EURX]: { ...pubnet.assets[EURX], decimals: -1 } } },
      /decimals/,
    ],
    ...soroswapRefusals(pubnet),
  ])('%s', async (name, body, message) => {
    const path = write(`${name.replaceAll(' ', '-')}.json`, body)
    const attempt = loadNetworkConfig(path)
    await expect(attempt).rejects.toThrow(NetworkDescriptionError)
    await expect(attempt).rejects.toThrow(message)
  })

  it('reads a description without Soroswap as one with no AMM contracts', async () => {
    const { ammprotocol, ...rest } = pubnet
    const { ammprotocol: ammContracts, ...contracts } = pubnet.contracts
    expect(ammprotocol && ammContracts).toBeTruthy()
    const network = await loadNetworkConfig(write('no-amm.json', { ...rest, contracts }))
    expect(network.contracts.ammprotocol).toEqual([])
    expect(network.ammprotocol).toEqual({ pairs: {} })
  })

  it("carries a stored older description's denomination prices onto its debt tokens", () => {
    // As an earlier indexer stored it: prices on the denominations, an EUR pseudo-asset.
    const plain = (id: string) => {
      const { price_feed: _, price_peg: __, ...rest } = pubnet.assets[id]
      return rest
    }
    const eurFeed = { oracle: FOREX_FEED, asset: 'EUR' }
    const gbpx = new Asset('GBPx', FXDAO_ISSUER).contractId(Networks.PUBLIC)
    const stored = {
      ...pubnet,
      vaultprotocol: {
        ...pubnet.vaultprotocol,
        denominations: {
          USD: { debt_asset: USDX, price_asset: null },
          EUR: { debt_asset: EURX, price_asset: 'EUR' },
          GBP: { debt_asset: gbpx, price_asset: 'GBP' },
        },
      },
      assets: {
        ...pubnet.assets,
        [USDX]: plain(USDX),
        [EURX]: plain(EURX),
        [gbpx]: plain(gbpx),
        EUR: { id: 'EUR', symbol: 'EUR', decimals: 7, tags: [], price_feed: eurFeed },
      },
    } as unknown as NetworkConfig
    const network = normalizeNetworkConfig(stored)
    expect(network.assets[USDX]?.price_peg).toBe('USD')
    expect(network.assets[EURX]?.price_feed).toEqual(eurFeed)
    // GBP named an asset the stored description lacks: nothing to carry, GBPx stays unpriced.
    expect(network.assets[gbpx]?.price_feed ?? network.assets[gbpx]?.price_peg ?? null).toBeNull()
    // A current description is left as it is.
    const current = normalizeNetworkConfig(pubnet as NetworkConfig)
    expect(current.assets).toEqual(pubnet.assets)
  })

  it('names a missing file', async () => {
    await expect(loadNetworkConfig(join(dir, 'absent.json'))).rejects.toThrow(
      /cannot read the network description/,
    )
  })
})

type Description = {
  contracts: Record<string, unknown> & { ammprotocol: { address: string; kind: string; protocol: string }[] }
  ammprotocol: { pairs: Record<string, { token_0: string; token_1: string }> }
  assets: Record<string, unknown>
}

/** Descriptions that get Soroswap wrong, each with the message that names the problem. */
function soroswapRefusals(pubnet: Description): [string, unknown, RegExp][] {
  const amm = pubnet.contracts.ammprotocol
  const pair = amm.find((c) => c.kind === 'soroswap-pair')!
  const tokens = pubnet.ammprotocol.pairs[pair.address]!
  const withPairs = (pairs: Description['ammprotocol']['pairs']) => ({ ...pubnet, ammprotocol: { pairs } })
  const eurc = 'CDTKPWPLOURQA2SGTKTUQOWRCBZEORB4BWBOMJ3D3ZTQQSGE5F6JBQLV'
  const { [pair.address]: _, ...otherPairs } = pubnet.ammprotocol.pairs
  return [
    [
      'a Soroswap pair listed as a lending pool',
      {
        ...pubnet,
        contracts: { ...pubnet.contracts, lendingprotocol: [{ ...pair, protocol: 'lendingprotocol' }] },
      },
      /listed as lendingprotocol but says lendingprotocol\/soroswap-pair/,
    ],
    [
      'a Soroswap pair with a lending kind',
      {
        ...pubnet,
        contracts: {
          ...pubnet.contracts,
          ammprotocol: amm.map((c) => (c === pair ? { ...c, kind: 'blend-pool-v2' } : c)),
        },
      },
      /listed as ammprotocol but says ammprotocol\/blend-pool-v2/,
    ],
    [
      'a Soroswap pair listed twice',
      { ...pubnet, contracts: { ...pubnet.contracts, ammprotocol: [...amm, pair] } },
      /listed twice/,
    ],
    [
      'an unknown contract kind',
      { ...pubnet, contracts: { ...pubnet.contracts, ammprotocol: [{ ...pair, kind: 'soroswap-pool' }] } },
      /kind/,
    ],
    ['a pair without its tokens', withPairs(otherPairs), /has no tokens in ammprotocol\.pairs/],
    [
      'tokens of a pair that is not listed',
      withPairs({ ...pubnet.ammprotocol.pairs, [SOROSWAP_ROUTER]: tokens }),
      /is not a soroswap-pair in contracts\.ammprotocol/,
    ],
    [
      'tokens in the wrong order',
      withPairs({ ...otherPairs, [pair.address]: { token_0: tokens.token_1, token_1: tokens.token_0 } }),
      /token_0 must sort before token_1/,
    ],
    [
      'a token that is not an asset',
      {
        ...withPairs(pubnet.ammprotocol.pairs),
        assets: Object.fromEntries(Object.entries(pubnet.assets).filter(([id]) => id !== tokens.token_1)),
      },
      /token .* is not in assets/,
    ],
    [
      'a wrong token: not the pair the factory derives',
      withPairs({ ...otherPairs, [pair.address]: { token_0: tokens.token_0, token_1: eurc } }),
      /is not the pair the listed factory deploys for its tokens/,
    ],
  ]
}
