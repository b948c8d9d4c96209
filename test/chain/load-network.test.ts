import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Asset, Networks } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { loadNetworkConfig, NetworkDescriptionError, SHIPPED_NETWORKS } from '../../src/chain/load-network.ts'

const FXDAO_ISSUER = 'GAVH5ZWACAY2PHPUG4FL3LHHJIYIHOFPSIUGM2KHK25CJWXHAV6QKDMN'

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
          EUR: {
            ...pubnet.assets.EUR,
            price_feed: { oracle: pubnet.contracts.vaultprotocol.address, asset: 'EUR' },
          },
        },
      },
      /not in contracts\.oracles/,
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
      { ...pubnet, assets: { ...pubnet.assets, EUR: { ...pubnet.assets.EUR, decimals: -1 } } },
      /decimals/,
    ],
  ])('%s', async (name, body, message) => {
    const path = write(`${name.replaceAll(' ', '-')}.json`, body)
    const attempt = loadNetworkConfig(path)
    await expect(attempt).rejects.toThrow(NetworkDescriptionError)
    await expect(attempt).rejects.toThrow(message)
  })

  it('names a missing file', async () => {
    await expect(loadNetworkConfig(join(dir, 'absent.json'))).rejects.toThrow(
      /cannot read the network description/,
    )
  })
})
