import { defaultNetworkUrl, loadNetworkConfig } from '../../chain/load-network.ts'
import { loadConfig } from '../../config.ts'
import { createIndexer } from '../../indexer/index.ts'
import { createLogger, resolveLogFormat } from '../../logger.ts'
import { indexedContracts } from '../../protocols/registry.ts'
import { createDatabase } from '../../store/db.ts'
import { migrateToLatest } from '../../store/migrate.ts'
import type { Command } from '../command.ts'
import { createProgressReporter, describeNetwork } from '../indexing-report.ts'
import { checkRpcSource, createStarted, describeStartupError } from '../startup.ts'

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
On PostgreSQL a second indexer waits as a hot standby until the first one stops. An indexer whose
lock connection is lost (a database restart, a failover) takes the lock again and resumes.

It prints the network, the watched contracts and the range it ingests, then its progress: on a
terminal a bar over that range with the current rate and the time left, otherwise a log record
every few seconds. An unreachable RPC, or one serving another network, stops it at start-up.
Environment: DATABASE_URL, STELLAR_RPC_URL, LOG_LEVEL, LOG_FORMAT (strata serve --help lists all).`,
  options: {
    'rpc-url': { type: 'string' },
    'from-ledger': { type: 'string' },
    network: { type: 'string' },
    'batch-size': { type: 'string' },
    datalake: { type: 'string' },
  },
  async run(values) {
    const config = loadConfig()
    const rpcUrl = typeof values['rpc-url'] === 'string' ? values['rpc-url'] : config.stellarRpcUrl
    if (!rpcUrl) {
      process.stderr.write('strata index: --rpc-url (or STELLAR_RPC_URL) is required\n')
      return 1
    }
    const fromLedger = parseLedgerOption(values['from-ledger'], '--from-ledger')
    const batchSize = parseLedgerOption(values['batch-size'], '--batch-size')
    const logger = createLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat))
    const controller = new AbortController()
    const stop = () => controller.abort(new Error('interrupted'))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    const started = createStarted()
    const mode = process.stderr.isTTY === true ? 'bar' : 'log'
    const write = (text: string) => process.stderr.write(text)
    let report: ReturnType<typeof createProgressReporter> | null = null
    try {
      const networkSource = typeof values.network === 'string' ? values.network : defaultNetworkUrl(rpcUrl)
      const network = await loadNetworkConfig(networkSource, controller.signal)
      if (mode === 'bar')
        write(
          describeNetwork(network)
            .map((line) => `indexer: ${line}\n`)
            .join(''),
        )
      else {
        const contracts = indexedContracts(network)
        logger.info(
          {
            rpcUrl,
            network: network.name,
            passphrase: network.passphrase,
            contracts: contracts.length,
            kinds: [...new Set(contracts.map((c) => c.kind))],
          },
          'indexer starting',
        )
      }
      await checkRpcSource(rpcUrl, network, controller.signal)
      const database = createDatabase(config.database)
      started.add(() => database.close())
      await migrateToLatest(database)
      report = createProgressReporter({ mode, logger, rpcUrl, network, write })
      const indexer = createIndexer({
        database,
        logger,
        rpcUrl,
        network,
        ...(fromLedger !== undefined ? { fromLedger } : {}),
        ...(batchSize !== undefined && batchSize > 0 ? { batchSize } : {}),
        ...(typeof values.datalake === 'string' ? { datalake: values.datalake } : {}),
        onStart: report.onStart,
        onProgress: report.onProgress,
      })
      await indexer.run(controller.signal)
      report.finish()
      logger.info({ lastLedger: indexer.lastIndexedLedger() }, 'indexer stopped')
      return 0
    } catch (error) {
      if (controller.signal.aborted) return 0
      report?.finish()
      process.stderr.write(`strata index: ${describeStartupError(error)}\n`)
      return 1
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      await started.stopAll()
    }
  },
}
