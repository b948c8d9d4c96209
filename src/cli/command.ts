import type { ParseArgsOptionsConfig } from 'node:util'

/**
 * One `strata` sub-command. `run` resolves to the process exit code. Its one-line summary lives in
 * the COMMANDS table, so `strata --help` loads no command module.
 */
export interface Command {
  help: string
  options: ParseArgsOptionsConfig
  run: (values: CommandValues) => Promise<number>
}

export type CommandValues = Record<string, string | boolean | (string | boolean)[] | undefined>
