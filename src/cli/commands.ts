import type { Command } from './command.ts'
import { indexCommand } from './commands/index.ts'

/** Every `strata` command. Each lives in its own file under commands/. */
export const COMMANDS: Record<string, Command> = {
  index: indexCommand,
}
