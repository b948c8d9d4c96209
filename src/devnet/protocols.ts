import { createBlend } from './blend/protocol.ts'
import { createDefindex } from './defindex/protocol.ts'
import { createFxdaoProtocol } from './fxdao/protocol.ts'
import { createReflectorProtocol } from './reflector/protocol.ts'
import type { SimulatedProtocol } from './simulated-protocol.ts'
import { createSoroswap } from './soroswap/protocol.ts'
import type { DevnetIdentities } from './world/identities.ts'

/** What the protocols are built from: the world's identities and size, and each one's activity. */
export interface ProtocolsContext {
  ids: DevnetIdentities
  accounts: number
  startLedger: number
  /** The oracle is Reflector v3 from this ledger on, v2 before; null: v3 throughout. */
  reflectorV3Ledger: number | null
  /** Chance that an account acts on its FxDAO vaults in a ledger. */
  activity: number
  /** Per protocol; 0 leaves it out. */
  lendingActivity: number
  ammActivity: number
  yieldActivity: number
}

/**
 * The registry: the simulated protocols, in the order their transactions enter every ledger.
 * Creating one draws from its own random stream only, so leaving one out changes no other's.
 */
export function createProtocols(ctx: ProtocolsContext): SimulatedProtocol[] {
  const { ids, accounts } = ctx
  const protocols: SimulatedProtocol[] = [
    createReflectorProtocol(ids, ctx.startLedger, ctx.reflectorV3Ledger),
    createFxdaoProtocol(ctx.startLedger, ctx.activity),
  ]
  const blend = ctx.lendingActivity > 0 ? createBlend(ids, accounts, { activity: ctx.lendingActivity }) : null
  if (blend) protocols.push(blend)
  // DeFindex strategies lend into the Blend pools, so the vaults exist only with the pools.
  if (blend && ctx.yieldActivity > 0)
    protocols.push(createDefindex(ids, accounts, blend, { activity: ctx.yieldActivity }))
  if (ctx.ammActivity > 0) protocols.push(createSoroswap(ids, accounts, { activity: ctx.ammActivity }))
  return protocols
}
