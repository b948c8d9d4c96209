import { defaultNetworkUrl, loadNetworkConfig } from '../../chain/load-network.ts'
import { loadConfig } from '../../config.ts'
import { createIndexer, type IndexerProgress } from '../../indexer/index.ts'
import { createLogger, type Logger } from '../../logger.ts'
import { createDatabase } from '../../store/db.ts'
import { migrateToLatest } from '../../store/migrate.ts'
import type { Command } from '../command.ts'

const PROGRESS_LOG_INTERVAL_MS = 5000
const PROGRESS_BAR_WIDTH = 30

function formatProgressBar(p: IndexerProgress, rate: number): string {
  const lag = Math.max(0, p.latestLedger - p.lastLedger)
  const done = p.latestLedger > 0 ? Math.min(1, p.lastLedger / p.latestLedger) : 0
  const filled = Math.round(done * PROGRESS_BAR_WIDTH)
  const bar = `${'#'.repeat(filled)}${'-'.repeat(PROGRESS_BAR_WIDTH - filled)}`
  return `ledger ${p.lastLedger} [${bar}] ${p.ingestedLedgers} ledgers, ${Math.round(rate)} ledgers/s, lag ${lag}`
}

/** A progress bar on a terminal; otherwise a JSON log line every few seconds. */
function createProgressReporter(logger: Logger): (p: IndexerProgress) => void {
  const tty = process.stderr.isTTY === true
  let lastShown = 0
  return (p) => {
    const now = Date.now()
    const rate = p.elapsedMs > 0 ? (p.ingestedLedgers * 1000) / p.elapsedMs : 0
    if (tty) {
      process.stderr.write(`\r${formatProgressBar(p, rate)}\x1b[K`)
      return
    }
    if (now - lastShown < PROGRESS_LOG_INTERVAL_MS) return
    lastShown = now
    logger.info(
      {
        lastLedger: p.lastLedger,
        latestLedger: p.latestLedger,
        lag: Math.max(0, p.latestLedger - p.lastLedger),
        ingestedLedgers: p.ingestedLedgers,
        ledgersPerSecond: Math.round(rate),
      },
      'indexer progress',
    )
  }
}

function parseLedgerOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new Error(`${name} must be a ledger sequence number`)
  return Number(value)
}

export const indexCommand: Command = {
  help: `
Usage: strata index --rpc-url URL [--from-ledger L] [--network pubnet|FILE|URL] [--batch-size N]
                    [--datalake URL_OR_DIR]

Reads ledgers with getLedgers from a Stellar RPC (or the devnet), writes snapshots, rates, prices
and the checkpoint to DATABASE_URL, then follows the head until interrupted. A restart resumes
from the checkpoint. --from-ledger applies to an empty store only (default: the RPC's oldest ledger).
--network names the network description: "pubnet" (Stellar mainnet, shipped in networks/), a JSON
file or a URL (default: <rpc-url origin>/network.json, as the devnet serves it). The RPC must serve
the described network, and a store keeps the one network it was first filled from.
--datalake names a ledger data lake (SEP-54, as Galexie writes it: a directory or an http(s) URL):
ledgers older than the RPC's oldest are read from it, so --from-ledger can reach back before the
RPC's window (to a contract's first ledger); ingestion then hands over to the RPC without a gap.
On PostgreSQL a second indexer waits as a hot standby until the first one stops.`,
  options: {
    'rpc-url': { type: 'string' },
    'from-ledger': { type: 'string' },
    network: { type: 'string' },
    'batch-size': { type: 'string' },
    datalake: { type: 'string' },
  },
  async run(values) {
    const rpcUrl = typeof values['rpc-url'] === 'string' ? values['rpc-url'] : loadConfig().stellarRpcUrl
    if (!rpcUrl) {
      process.stderr.write('strata index: --rpc-url (or STELLAR_RPC_URL) is required\n')
      return 1
    }
    const fromLedger = parseLedgerOption(values['from-ledger'], '--from-ledger')
    const batchSize = parseLedgerOption(values['batch-size'], '--batch-size')
    const config = loadConfig()
    const logger = createLogger(config.logLevel)
    const networkSource = typeof values.network === 'string' ? values.network : defaultNetworkUrl(rpcUrl)
    const network = await loadNetworkConfig(networkSource)
    const database = createDatabase(config.database)
    const controller = new AbortController()
    const stop = () => controller.abort(new Error('interrupted'))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    try {
      await migrateToLatest(database)
      logger.info({ rpcUrl, network: network.name }, 'indexer starting')
      const indexer = createIndexer({
        database,
        logger,
        rpcUrl,
        network,
        ...(fromLedger !== undefined ? { fromLedger } : {}),
        ...(batchSize !== undefined && batchSize > 0 ? { batchSize } : {}),
        ...(typeof values.datalake === 'string' ? { datalake: values.datalake } : {}),
        onProgress: createProgressReporter(logger),
      })
      await indexer.run(controller.signal)
      if (process.stderr.isTTY) process.stderr.write('\n')
      logger.info({ lastLedger: indexer.lastIndexedLedger() }, 'indexer stopped')
      return 0
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      await database.close()
    }
  },
}
