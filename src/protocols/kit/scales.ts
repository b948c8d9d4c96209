/**
 * The fixed-point scales protocols compute with, each defined once: a value `v` at scale `SCALAR_n`
 * stands for `v / 10^n`.
 */

/** 7 decimals: Blend's factors, utilization and `ir_mod` (pool/src/constants.rs `SCALAR_7`). */
export const SCALAR_7 = 10n ** 7n

/** 12 decimals: Blend's b- and d-token rates (pool/src/constants.rs `SCALAR_12`), as DeFindex's Blend strategy reads them. */
export const SCALAR_12 = 10n ** 12n
