import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Networks, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatalakeError, type DatalakeManifest, objectKey, openDatalake } from '../../src/chain/datalake.ts'
import { writeDatalake } from '../../src/devnet/ledger/datalake-writer.ts'
import { createDevnetChain, type DevnetChain } from '../../src/devnet/world/chain.ts'

const PUBNET: DatalakeManifest = {
  networkPassphrase: Networks.PUBLIC,
  version: '1.0',
  compression: 'zstd',
  ledgersPerBatch: 1,
  batchesPerPartition: 64_000,
}

describe('data-lake object keys (SEP-54, as Galexie writes them)', () => {
  it('match the documented pubnet examples', () => {
    expect(objectKey(50_000_000, PUBNET, 'zst')).toBe(
      'FD054DFF--49984000-50047999/FD050F7F--50000000.xdr.zst',
    )
    expect(objectKey(62_448_349, PUBNET, 'zst')).toBe(
      'FC47D9FF--62400000-62463999/FC471D22--62448349.xdr.zst',
    )
    expect(objectKey(2, PUBNET, 'zst')).toBe('FFFFFFFF--0-63999/FFFFFFFD--2.xdr.zst')
  })

  it('name multi-ledger files by their range, and drop the partition folder for one file per partition', () => {
    const eight = { ...PUBNET, ledgersPerBatch: 8, batchesPerPartition: 16 }
    // Partition of 128 ledgers from 896 (0xFFFFFFFF - 896 = 0xFFFFFC7F); file of 8 from 1000 (0xFFFFFC17).
    expect(objectKey(1003, eight, 'zstd')).toBe('FFFFFC7F--896-1023/FFFFFC17--1000-1007.xdr.zstd')
    expect(objectKey(1003, { ...eight, batchesPerPartition: 1 }, 'zst')).toBe('FFFFFC17--1000-1007.xdr.zst')
  })
})

describe('reading a genuine mainnet lake object', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-lake-'))
    writeFileSync(join(dir, '.config.json'), JSON.stringify(PUBNET))
    // An older store: the `.xdr.zstd` extension, found by probing.
    const path = join(dir, objectKey(53_312_000, PUBNET, 'zstd'))
    mkdirSync(dirname(path), { recursive: true })
    copyFileSync(new URL('../fixtures/pubnet/stellar-go__FCD285FF--53312000.xdr.zstd', import.meta.url), path)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('yields ledger 53312000 with its 163 transactions and a header that hashes to its hash', async () => {
    const lake = await openDatalake(dir)
    expect(lake.manifest.networkPassphrase).toBe(Networks.PUBLIC)
    const pages = []
    for await (const page of lake.ledgers(53_312_000, 53_312_000)) pages.push(page)
    expect(pages).toHaveLength(1)
    const [ledger] = pages[0]!
    expect(ledger!.sequence).toBe(53_312_000)
    const lcm = xdr.LedgerCloseMeta.fromXDR(Buffer.from(ledger!.meta))
    if (lcm.type !== 'v1') throw new Error('expected LedgerCloseMeta v1')
    expect(lcm.v1.txProcessing).toHaveLength(163)
    const header = lcm.v1.ledgerHeader
    expect(Buffer.from(header.hash.toXDR()).toString('hex')).toBe(
      createHash('sha256').update(header.header.toXDR()).digest('hex'),
    )
    expect(header.header.ledgerSeq).toBe(53_312_000)
  })

  it('says clearly when a ledger is not there, and when a folder is not a lake', async () => {
    const lake = await openDatalake(dir)
    const read = async () => {
      for await (const _ of lake.ledgers(53_312_000, 53_312_001)) {
        // drain
      }
    }
    await expect(read()).rejects.toThrow(/ledger 53312001 is not in the data lake/)
    await expect(openDatalake(tmpdir())).rejects.toThrow(DatalakeError)
  })
})

describe('a devnet written as a data lake, read over HTTP', () => {
  let chain: DevnetChain
  let dir: string
  let server: Server
  let url: string
  let mode: 'clean' | 'faulty' = 'clean'
  let requests = 0
  const faults = { status500: 0, status429: 0, truncated: 0, slow: 0 }

  beforeAll(async () => {
    chain = createDevnetChain({
      seed: 'lake',
      ledgers: 150,
      accounts: 40,
      startLedger: 1000,
      protocolSwitchLedger: 1070,
    })
    dir = mkdtempSync(join(tmpdir(), 'strata-devnet-lake-'))
    // Eight ledgers per file and four files per partition: the range crosses several partitions.
    await writeDatalake(chain, dir, { ledgersPerFile: 8, filesPerPartition: 4 })
    server = createServer((req, res) => {
      const key = decodeURIComponent((req.url ?? '/').slice(1))
      requests++
      // Every fifth object request fails in one of four ways, deterministically.
      if (mode === 'faulty' && key !== '.config.json' && requests % 5 === 0) {
        const kind = (requests / 5) % 4
        if (kind === 0) {
          faults.status500++
          res.writeHead(500).end('oops')
          return
        }
        if (kind === 1) {
          faults.status429++
          res.writeHead(429, { 'retry-after': '0' }).end()
          return
        }
        if (kind === 2) {
          faults.truncated++
          const body = readFileSync(join(dir, key))
          res.writeHead(200, { 'content-length': body.length })
          res.end(body.subarray(0, Math.floor(body.length / 2)))
          res.socket?.destroy()
          return
        }
        faults.slow++
        setTimeout(() => res.writeHead(500).end(), 400).unref()
        return
      }
      let body: Buffer
      try {
        body = readFileSync(join(dir, key))
      } catch {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  const readAll = async (from: number, to: number, options = {}) => {
    const lake = await openDatalake(url, {
      baseDelayMs: 5,
      maxDelayMs: 20,
      timeoutMs: 200,
      prefetch: 4,
      ...options,
    })
    const seen: { sequence: number; meta: Uint8Array }[] = []
    for await (const page of lake.ledgers(from, to)) seen.push(...page)
    return seen
  }

  it('gives back every ledger, byte for byte and in order, across files and partitions', async () => {
    mode = 'clean'
    const from = 1_005
    const to = 1_140
    const seen = await readAll(from, to)
    expect(seen.map((l) => l.sequence)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i))
    for (const l of seen) expect(Buffer.from(l.meta).equals(chain.ledgerMetaXdr(l.sequence))).toBe(true)
  })

  it('retries 500s, 429s, cut bodies and timeouts and still gives back the same bytes', async () => {
    mode = 'faulty'
    const retries: string[] = []
    const seen = await readAll(1_000, 1_149, {
      onRetry: (info: { error: string }) => retries.push(info.error),
    })
    mode = 'clean'
    expect(seen).toHaveLength(150)
    for (const l of seen) expect(Buffer.from(l.meta).equals(chain.ledgerMetaXdr(l.sequence))).toBe(true)
    expect(Object.values(faults).every((n) => n > 0)).toBe(true)
    expect(retries.length).toBeGreaterThanOrEqual(Object.values(faults).reduce((a, b) => a + b, 0))
  })

  it('refuses a hole in the middle of a bounded range', async () => {
    mode = 'clean'
    const manifest = JSON.parse(readFileSync(join(dir, '.config.json'), 'utf8')) as DatalakeManifest
    const path = join(dir, objectKey(1_040, manifest, 'zst'))
    const saved = readFileSync(path)
    rmSync(path)
    try {
      await expect(readAll(1_000, 1_100)).rejects.toThrow(/ledger 1040 is not in the data lake/)
    } finally {
      writeFileSync(path, saved)
    }
  })
})
