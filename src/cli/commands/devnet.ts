import { writeFile } from 'node:fs/promises'
import { startDevnet } from '../../devnet/devnet.ts'
import { writeDatalake } from '../../devnet/ledger/datalake-writer.ts'
import { LEDGER_INTERVAL_S } from '../../devnet/world/world-state.ts'
import type { Command, CommandValues } from '../command.ts'
import { describeStartupError } from '../startup.ts'

export const devnetCommand: Command = {
  help: `
Usage: strata devnet [--port 8000] [--host 127.0.0.1] [--seed 1] [--ledgers 2000]
                     [--close-interval-ms M] [--accounts 200] [--activity 0.02] [--start-ledger 1000]
                     [--fault-rate 0] [--fault-timeout-ms 2500] [--protocol-switch-ledger L]
                     [--reflector-v3-ledger L] [--vault-ttl-ledgers N] [--write-network FILE]
                     [--write-datalake DIR] [--rpc-retention-ledgers N] [--lending-activity P]
                     [--genesis-time EPOCH_S|RFC3339]
                     [--amm-activity P]
                     [--yield-activity P]

Generates --ledgers ledgers from --seed, then
serves JSON-RPC 2.0 on POST / (getHealth, getNetwork, getLatestLedger, getLedgers, getEvents,
getLedgerEntries, getTransaction) and the watched contracts on GET /network.json.
With --close-interval-ms, one more ledger closes every M milliseconds.
--activity is the chance that an account acts in a ledger; --fault-rate makes that share of
JSON-RPC calls fail (HTTP 500, timeout, truncated body, HTTP 429); ledgers below
--protocol-switch-ledger are protocol 22 (LedgerCloseMeta v1); below --reflector-v3-ledger the
oracle is Reflector v2 (prices in storage, no events); vault entries idle for --vault-ttl-ledgers
(default 28 days) are archived. --write-datalake writes the generated ledgers as a SEP-54 data
lake (one ledger per file, as the public lake); --rpc-retention-ledgers makes the RPC serve only the
latest N ledgers, as Stellar RPC keeps about 7 days. --lending-activity is the chance that a
lending account submits to its Blend pool in a ledger (default: --activity); 0 deploys no pools.
Ledgers close ${LEDGER_INTERVAL_S} s apart and the last generated one closes now, so data staleness reads as on a
live network. --genesis-time fixes the first ledger's close time instead (epoch seconds or an
RFC 3339 date, e.g. 2025-01-01T00:00:00Z): with it, the same seed and options give byte-identical
ledgers on every run.

--amm-activity is the chance that an account acts on Soroswap in a ledger (default: --activity);
0 deploys no Soroswap.

--yield-activity is the chance that a DeFindex vault holder acts in a ledger (default: --activity);
0 deploys no vaults (they lend into the Blend pools, so none without them either).
The contracts' layouts: docs/devnet.md.
Stops on Ctrl-C.`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    ledgers: { type: 'string' },
    'close-interval-ms': { type: 'string' },
    accounts: { type: 'string' },
    activity: { type: 'string' },
    'start-ledger': { type: 'string' },
    'fault-rate': { type: 'string' },
    'fault-timeout-ms': { type: 'string' },
    'protocol-switch-ledger': { type: 'string' },
    'reflector-v3-ledger': { type: 'string' },
    'vault-ttl-ledgers': { type: 'string' },
    'write-network': { type: 'string' },
    'write-datalake': { type: 'string' },
    'rpc-retention-ledgers': { type: 'string' },
    'lending-activity': { type: 'string' },
    'genesis-time': { type: 'string' },
    'amm-activity': { type: 'string' },
    'yield-activity': { type: 'string' },
  },
  async run(values) {
    const problems: string[] = []
    const whole = (name: string, fallback?: number) => readNumber(values, name, fallback, true, problems)
    const fraction = (name: string, fallback: number) => readNumber(values, name, fallback, false, problems)
    const options = {
      seed: typeof values.seed === 'string' ? values.seed : '1',
      port: whole('port', 8000),
      host: typeof values.host === 'string' ? values.host : '127.0.0.1',
      ledgers: whole('ledgers', 2000) ?? 2000,
      closeIntervalMs: whole('close-interval-ms') ?? null,
      accounts: whole('accounts', 200),
      activity: fraction('activity', 0.02),
      startLedger: whole('start-ledger', 1000),
      faultRate: fraction('fault-rate', 0),
      faultTimeoutMs: whole('fault-timeout-ms', 2500),
      protocolSwitchLedger: whole('protocol-switch-ledger') ?? null,
      reflectorV3Ledger: whole('reflector-v3-ledger') ?? null,
      ...(values['vault-ttl-ledgers'] !== undefined ? { vaultTtlLedgers: whole('vault-ttl-ledgers') } : {}),
      ...(values['rpc-retention-ledgers'] !== undefined
        ? { rpcRetentionLedgers: whole('rpc-retention-ledgers') }
        : {}),
      ...(values['lending-activity'] !== undefined
        ? { lendingActivity: fraction('lending-activity', 0.02) }
        : {}),
      ...(values['amm-activity'] !== undefined ? { ammActivity: fraction('amm-activity', 0.02) } : {}),
      ...(values['yield-activity'] !== undefined ? { yieldActivity: fraction('yield-activity', 0.02) } : {}),
    }
    const genesis = readGenesisTime(values['genesis-time'], problems)
    if (problems.length > 0) {
      process.stderr.write(`strata devnet: ${problems.join('; ')}\n`)
      return 1
    }
    // Without --genesis-time the history ends now, as the demo's does (a fixed 2025 date would
    // make every staleness figure read hundreds of days).
    const genesisCloseTimeS =
      genesis ?? Math.floor(Date.now() / 1000) - (options.ledgers - 1) * LEDGER_INTERVAL_S
    const started = performance.now()
    let devnet: Awaited<ReturnType<typeof startDevnet>>
    try {
      devnet = await startDevnet({ ...options, genesisCloseTimeS })
    } catch (error) {
      const portNames = options.port ? { [options.port]: '--port' } : {}
      process.stderr.write(`strata devnet: ${describeStartupError(error, portNames)}\n`)
      return 1
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const lakeDir = values['write-datalake']
    if (typeof lakeDir === 'string') {
      const { files } = await writeDatalake(devnet.chain, lakeDir)
      process.stdout.write(`devnet: wrote ${files} data-lake objects to ${lakeDir}\n`)
    }
    const networkFile = values['write-network']
    if (typeof networkFile === 'string') {
      await writeFile(networkFile, `${JSON.stringify(devnet.network, null, 2)}\n`)
    }
    process.stdout.write(
      `devnet: ${options.ledgers} ledgers generated in ${seconds}s (latest ${devnet.latestLedger()})\n` +
        `devnet: ledgers close from ${isoTime(genesisCloseTimeS)} to ${isoTime(genesisCloseTimeS + (options.ledgers - 1) * LEDGER_INTERVAL_S)}${genesis === null ? ' (now; --genesis-time fixes it)' : ''}\n` +
        `devnet: JSON-RPC on ${devnet.url}, contracts on ${devnet.url}/network.json\n` +
        `devnet: an account with an open vault: ${devnet.sampleVaultHolder()}\n`,
    )
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    await devnet.close()
    return 0
  },
}

function readNumber(
  values: CommandValues,
  name: string,
  fallback: number | undefined,
  integer: boolean,
  problems: string[],
): number | undefined {
  const raw = values[name]
  if (typeof raw !== 'string') return fallback
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    problems.push(`--${name} must be a ${integer ? 'whole number' : 'number'} >= 0, got "${raw}"`)
    return fallback
  }
  return value
}

const isoTime = (epochS: number) => new Date(epochS * 1000).toISOString().replace('.000Z', 'Z')

/** --genesis-time as epoch seconds: a whole number, or an RFC 3339 date with its offset. */
function readGenesisTime(raw: unknown, problems: string[]): number | null {
  if (typeof raw !== 'string') return null
  if (/^\d+$/.test(raw)) return Number(raw)
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i
  const ms = rfc3339.test(raw) ? Date.parse(raw) : Number.NaN
  if (Number.isNaN(ms) || ms < 0) {
    problems.push(
      `--genesis-time must be epoch seconds or an RFC 3339 date (2025-01-01T00:00:00Z), got "${raw}"`,
    )
    return null
  }
  return Math.floor(ms / 1000)
}
