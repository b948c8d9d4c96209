import { buildInstanceKey } from '../ledger/contract-layout.ts'
import { compareScVal } from '../ledger/scval.ts'
import type { SimulatedProtocol } from '../simulated-protocol.ts'
import { ORACLE_INTERVAL_LEDGERS, type SimTx } from '../world/world-state.ts'
import { deployVaultsTx, simulateAccountAction, simulateLiquidation, simulateRedeem } from './calls.ts'
import { evictExpired } from './entry-changes.ts'
import { buildVaultEntry, buildVaultIndexEntry, buildVaultInstanceEntry, vaultMapKey } from './state.ts'

/** Redeems happen now and then, on the lowest vault of a denomination. */
const REDEEM_CHANCE = 0.01

/**
 * FxDAO's vaults: deployed in the first ledger; after each price update the liquidations; now and
 * then a redeem; and the population's accounts acting on their vaults. Its state is the world's
 * (`WorldState.denoms`, `vaults`) and it draws from the world's own random stream.
 */
export function createFxdaoProtocol(startLedger: number, activity: number): SimulatedProtocol {
  return {
    name: 'fxdao',
    actsInDeployLedger: true,
    deployTxs: (w) => [deployVaultsTx(w)],
    evictExpired,
    ledgerTxs: (w) => {
      const { rng, accounts } = w
      const offset = w.sequence - startLedger
      const txs: SimTx[] = []
      if (offset % ORACLE_INTERVAL_LEDGERS === 0) {
        for (let denom = 0; denom < w.denoms.length; denom++) {
          const tx = simulateLiquidation(w, denom)
          if (tx) txs.push(tx)
        }
      }
      if (offset > 0 && rng.chance(REDEEM_CHANCE)) {
        const tx = simulateRedeem(w, rng.nextInt(w.denoms.length))
        if (tx) txs.push(tx)
      }
      const expected = accounts * activity * (0.5 + rng.nextFloat())
      const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
      for (let i = 0; i < picks; i++) {
        const account = rng.nextInt(accounts)
        if (w.dormantUntil[account]! > w.sequence) continue
        txs.push(simulateAccountAction(w, account))
        if (rng.chance(0.15)) w.dormantUntil[account] = w.sequence + rng.nextRange(100, 10_000)
      }
      return txs
    },
    lookupEntry: (w, id, scKey, durability, accountOf) => {
      if (!id.equals(w.ids.vaultContract)) return undefined
      if (durability !== 1) return null
      if (compareScVal(scKey, buildInstanceKey()) === 0 && scKey.type === 20)
        return buildVaultInstanceEntry(w)
      const parts = scKey.type === 16 ? scKey.vec : null
      const tag = parts?.[0]
      if (parts?.length !== 2 || tag?.type !== 15) return null
      const arg = parts[1]!
      const name = tag.sym.toString()
      let account: number | undefined
      let denomination: string | undefined
      if (name === 'Vault' && arg.type === 16 && arg.vec?.length === 2 && arg.vec[1]?.type === 15) {
        account = accountOf(arg.vec[0])
        denomination = arg.vec[1].sym.toString()
      } else if (name === 'VaultIndex' && arg.type === 17) {
        for (const entry of arg.map ?? []) {
          const field = entry.key.type === 15 ? entry.key.sym.toString() : ''
          if (field === 'user') account = accountOf(entry.val)
          if (field === 'denomination' && entry.val.type === 15) denomination = entry.val.sym.toString()
        }
      }
      const denom = w.denoms.findIndex((d) => d.name === denomination)
      const vault = account === undefined || denom < 0 ? undefined : w.vaults.get(vaultMapKey(account, denom))
      if (!vault) return null
      // An archived entry is not live: the RPC answers for live entries only.
      if (name === 'Vault') return vault.vaultArchived ? null : buildVaultEntry(w, vault)
      return vault.indexArchived ? null : buildVaultIndexEntry(w, vault)
    },
  }
}
