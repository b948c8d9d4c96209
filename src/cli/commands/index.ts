import { loadConfig, RPC_URL_PROTOCOLS, urlProblem } from '../../config.ts'
import { createIndexer } from '../../indexer/index.ts'
import { createLogger, resolveLogFormat } from '../../logger.ts'
import { indexedContracts } from '../../protocols/registry.ts'
import { getCheckpoint } from '../../store/ledger-data.ts'
import type { Command } from '../command.ts'
import { createProgressReporter, describeNetwork } from '../indexing-report.ts'
import { announceDatabase, openStore, stringOption } from '../runtime.ts'
import { checkRpcSource, createStarted, describeStartupError, loadNetworkFor } from '../startup.ts'

/** A whole number of 1 or more, or why not, naming the option: `--batch-size 0` is refused, not ignored. */
function parsePositiveOption(value: unknown, name: string, what: string): number | undefined {
  if (value === undefined) return undefined
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(number) || number < 1)
    throw new Error(`${name} must be ${what} (1 or more), got "${value}"`)
  return number
}

export const indexCommand: Command = {
  help: `
Usage: strata index --rpc-url URL [--from-ledger L] [--network pubnet|FILE|URL] [--batch-size N]
                    [--datalake URL_OR_DIR]

Reads ledgers with getLedgers from a Stellar RPC (or the devnet), writes snapshots, rates, prices
and the checkpoint to DATABASE_URL, then follows the head until interrupted. A restart resumes
from the checkpoint. --from-ledger applies to an empty store only (default: the RPC's oldest ledger);
on a store that has a checkpoint it is ignored, and a line says so and where indexing resumes.
--network names the network description: "pubnet" (Stellar mainnet, shipped in networks/), a JSON
file or a URL (default: <rpc-url origin>/network.json, as the devnet serves it). The RPC must serve
the described network, and a store keeps the one network it was first filled from.
--datalake names a ledger data lake (SEP-54, as Galexie writes it: a directory or an http(s) URL):
ledgers older than the RPC's oldest are read from it, so --from-ledger can reach back before the
RPC's window (to a contract's first ledger); ingestion then hands over to the RPC without a gap.
On PostgreSQL a second indexer waits as a hot standby until the first one stops. An indexer whose
lock connection is lost (a database restart, a failover) takes the lock again and resumes.

Its first line names the database (DATABASE_URL). It prints the network, the watched contracts
and the range it ingests, then its progress: on a terminal a bar over that range with the current
rate and the time left, otherwise a log record every few seconds. An unreachable RPC, or one
serving another network, stops it at start-up with one line naming --rpc-url or STELLAR_RPC_URL.
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
    const rpcOption = stringOption(values['rpc-url'])
    const rpcUrl = rpcOption ?? config.stellarRpcUrl
    // Where the RPC URL came from: the setting an unreachable or wrong RPC is blamed on.
    const rpcSetting = rpcOption !== undefined ? '--rpc-url' : 'STELLAR_RPC_URL'
    if (!rpcUrl) {
      process.stderr.write('strata index: --rpc-url (or STELLAR_RPC_URL) is required\n')
      return 1
    }
    // STELLAR_RPC_URL is checked by loadConfig; --rpc-url by the same rule (ftp://... is refused here).
    const rpcProblem = urlProblem(rpcSetting, rpcUrl, RPC_URL_PROTOCOLS)
    if (rpcProblem) {
      process.stderr.write(`strata index: ${rpcProblem}\n`)
      return 1
    }
    const fromLedger = parsePositiveOption(values['from-ledger'], '--from-ledger', 'a ledger sequence number')
    const batchSize = parsePositiveOption(values['batch-size'], '--batch-size', 'a whole number of ledgers')
    announceDatabase('index', config.database)
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
      const network = await loadNetworkFor(
        rpcUrl,
        rpcSetting,
        stringOption(values.network),
        controller.signal,
      )
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
      await checkRpcSource(rpcUrl, network, controller.signal, rpcSetting)
      const { database } = await openStore(config.database)
      started.add(() => database.close())
      const checkpoint = await getCheckpoint(database)
      if (fromLedger !== undefined && checkpoint !== null && fromLedger !== checkpoint + 1) {
        // Not refused: a service restarted with the command line it was first started with resumes.
        write(
          `strata index: --from-ledger ${fromLedger} is ignored: this store's checkpoint is ledger ${checkpoint}, so indexing resumes from ${checkpoint + 1} (--from-ledger applies to an empty store only)\n`,
        )
      }
      report = createProgressReporter({ mode, logger, rpcUrl, network, write })
      const indexer = createIndexer({
        database,
        logger,
        rpcUrl,
        network,
        ...(fromLedger !== undefined ? { fromLedger } : {}),
        ...(batchSize !== undefined ? { batchSize } : {}),
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
