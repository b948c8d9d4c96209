/**
 * The explorer's address check against the Stellar SDK's own StrKey: every account and contract
 * address the SDK encodes passes, and a change of one character, a seed, a muxed account, a wrong
 * length or alphabet is refused with a sentence saying why.
 */
import { randomBytes } from 'node:crypto'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { addressProblem } from '../../console/src/explorer-address.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

describe("the explorer's address check", () => {
  it('accepts what the SDK encodes as an account or a contract, surrounding spaces included', () => {
    for (let i = 0; i < 50; i++) {
      const account = Keypair.random().publicKey()
      const contract = StrKey.encodeContract(randomBytes(32))
      expect(addressProblem(account)).toBeNull()
      expect(addressProblem(` ${contract}\n`)).toBeNull()
    }
  })

  it('refuses every one-character change the SDK refuses', () => {
    const account = Keypair.random().publicKey()
    let checked = 0
    for (let position = 1; position < account.length; position += 5) {
      for (const char of ALPHABET) {
        if (char === account[position]) continue
        const changed = `${account.slice(0, position)}${char}${account.slice(position + 1)}`
        const valid = StrKey.isValidEd25519PublicKey(changed)
        expect(addressProblem(changed) === null, changed).toBe(valid)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(300)
  })

  it('says in words what is wrong', () => {
    const account = Keypair.random()
    expect(addressProblem('')).toMatch(/^Enter an address/)
    expect(addressProblem('XABC')).toMatch(/starts with G .* or C/)
    expect(addressProblem(account.publicKey().slice(0, 40))).toBe(
      'An address has 56 characters; this one has 40.',
    )
    expect(addressProblem(account.publicKey().toLowerCase().replace(/^g/, 'G'))).toMatch(/capital letters/)
    // A secret seed (S…) and a muxed account (M…, 69 characters) are not addresses to look up.
    expect(addressProblem(account.secret())).not.toBeNull()
    expect(addressProblem(StrKey.encodeMed25519PublicKey(randomBytes(40)))).not.toBeNull()
    // A G… whose payload is a contract's version byte: 56 valid characters, the wrong kind.
    const contractBody = StrKey.encodeContract(randomBytes(32))
    expect(addressProblem(`G${contractBody.slice(1)}`)).not.toBeNull()
  })
})
