import type { ParseArgsOptionsConfig } from 'node:util'

/** One `strata` sub-command. `run` resolves to the process exit code. */
export interface Command {
  summary: string
  help: string
  options: ParseArgsOptionsConfig
  run: (values: CommandValues) => Promise<number>
}

export type CommandValues = Record<string, string | boolean | (string | boolean)[] | undefined>
