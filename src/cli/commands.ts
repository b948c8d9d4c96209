import type { Command } from './command.ts'

/** Every `strata` command. Each lives in its own file under commands/. */
export const COMMANDS: Record<string, Command> = {}
