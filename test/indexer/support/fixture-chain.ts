import { Keypair } from '@stellar/stellar-sdk'
import {
  buildLedgerCloseMeta,
  type ChangeSpec,
  instanceChange,
  ledgerHashHex,
  oracleUpdateEvent,
  reflectorInstance,
  reflectorV2Price,
  type TxSpec,
  vaultKey,
  vaultsInfoKey,
  vaultsInfoValue,
  vaultValue,
} from '../../chain/support/ledger-meta-builder.ts'
import { ORACLE_CONTRACT, VAULT_CONTRACT, XLM_CONTRACT } from './test-network.ts'

/** One ledger as an RPC serves it. */
export interface FixtureLedger {
  sequence: number
  hash: string
  closeTime: number
  metadataXdr: string
}

export interface FixtureChainOptions {
  seed: number
  ledgers: number
  accounts: number
  startLedger?: number
}

function createPrng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const DENOMINATIONS = ['USD', 'EUR', 'GBP']

const ORACLE_ASSETS = [XLM_CONTRACT, 'EUR', 'GBP']

/**
 * A deterministic chain for ingestion tests, built with the test's own XDR builder: vaults open,
 * change, get rewritten unchanged and close, each touch rewriting the contract's instance entry
 * (its `VaultsInfo`); the oracle posts every 60 ledgers, alternately as Reflector v3 events and as
 * v2 temporary price entries; some transactions fail; LedgerCloseMeta versions alternate.
 */
export function buildFixtureChain(options: FixtureChainOptions): FixtureLedger[] {
  const random = createPrng(options.seed)
  const start = options.startLedger ?? 1000
  const accounts = Array.from({ length: options.accounts }, (_, i) => {
    const seed = Buffer.alloc(32)
    seed.writeUInt32BE(options.seed, 0)
    seed.writeUInt32BE(i + 1, 4)
    return Keypair.fromRawEd25519Seed(seed).publicKey()
  })
  const open = new Map<string, { collateral: bigint; debt: bigint }>()
  const out: FixtureLedger[] = []
  for (let n = 0; n < options.ledgers; n++) {
    const sequence = start + n
    const transactions: TxSpec[] = []
    const txCount = Math.floor(random() * 4)
    for (let t = 0; t < txCount; t++) {
      const account = accounts[Math.floor(random() * accounts.length)]!
      const denomination = DENOMINATIONS[Math.floor(random() * DENOMINATIONS.length)]!
      const id = `${sequence}-${t}`
      const key = `${account}/${denomination}`
      const current = open.get(key)
      const roll = random()
      const changes: ChangeSpec[] = []
      const failed = roll < 0.05
      changes.push(
        instanceChange(VAULT_CONTRACT, [
          [
            vaultsInfoKey(denomination),
            vaultsInfoValue(denomination, { debt: BigInt(n), col: BigInt(t), vaults: BigInt(open.size) }),
          ],
        ]),
      )
      if (current === undefined || roll < 0.1) {
        const vault = {
          collateral: BigInt(1 + Math.floor(random() * 1e9)),
          debt: BigInt(1 + Math.floor(random() * 1e8)),
        }
        changes.push({
          kind: current === undefined ? 'created' : 'updated',
          contract: VAULT_CONTRACT,
          key: vaultKey(account, denomination),
          val: vaultValue({ account, denomination, ...vault }),
        })
        if (!failed) open.set(key, vault)
      } else if (roll < 0.3) {
        changes.push({ kind: 'removed', contract: VAULT_CONTRACT, key: vaultKey(account, denomination) })
        if (!failed) open.delete(key)
      } else {
        // Half of the remaining touches rewrite the vault with identical values.
        const vault =
          roll < 0.65
            ? current
            : { ...current, collateral: current.collateral + BigInt(Math.floor(random() * 1e6)) }
        changes.push({
          kind: 'updated',
          contract: VAULT_CONTRACT,
          key: vaultKey(account, denomination),
          val: vaultValue({ account, denomination, ...vault }),
        })
        open.set(key, vault)
      }
      transactions.push({ id, successful: !failed, changes })
    }
    if (n % 60 === 0) {
      const ts = BigInt(1_700_000_000_000 + n * 5000)
      const price = (base: number) => BigInt(Math.floor(base * (0.9 + random() * 0.2) * 1e6)) * 100_000_000n
      const prices = [price(0.12), price(1.08), price(1.27)]
      const instance = reflectorInstance(ORACLE_CONTRACT, {
        assets: ORACLE_ASSETS,
        decimals: 14,
        lastTimestampMs: ts,
      })
      transactions.push(
        n % 120 === 0
          ? {
              id: `${sequence}-oracle`,
              changes: [instance],
              events: [
                oracleUpdateEvent(
                  ORACLE_CONTRACT,
                  ts,
                  ORACLE_ASSETS.map((asset, i) => ({ asset, price: prices[i]! })),
                ),
              ],
            }
          : {
              id: `${sequence}-oracle`,
              changes: [instance, ...prices.map((p, i) => reflectorV2Price(ORACLE_CONTRACT, ts, i, p))],
            },
      )
    }
    const closeTime = 1_700_000_000 + n * 5
    const bytes = buildLedgerCloseMeta({ sequence, closeTime, version: n % 3 === 0 ? 1 : 2, transactions })
    out.push({
      sequence,
      hash: ledgerHashHex(sequence),
      closeTime,
      metadataXdr: Buffer.from(bytes).toString('base64'),
    })
  }
  return out
}
