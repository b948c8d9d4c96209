import { hash, verify } from '@node-rs/argon2'

/** `Algorithm.Argon2id` of @node-rs/argon2 (a const enum, which type stripping cannot inline). */
const ARGON2ID = 2

/** OWASP's argon2id recommendation: 19 MiB memory, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export const PASSWORD_MIN_LENGTH = 10
export const PASSWORD_MAX_LENGTH = 256

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

let dummyHash: Promise<string> | null = null

/**
 * Verifies a password. With no stored hash (unknown email) it still runs one argon2 verification
 * against a fixed hash, so an unknown email and a wrong password take the same time.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('strata-timing-equaliser')
    await verify(await dummyHash, password).catch(() => false)
    return false
  }
  try {
    return await verify(storedHash, password)
  } catch {
    return false
  }
}
