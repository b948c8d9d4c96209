import type { Command } from './command.ts'
import { createKeyCommand } from './commands/create-key.ts'
import { createUserCommand } from './commands/create-user.ts'
import { devnetCommand } from './commands/devnet.ts'
import { indexCommand } from './commands/index.ts'
import { migrateCommand } from './commands/migrate.ts'
import { serveCommand } from './commands/serve.ts'

/** Every `strata` command. Each lives in its own file under commands/. */
export const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  'create-key': createKeyCommand,
  'create-user': createUserCommand,
  index: indexCommand,
  devnet: devnetCommand,
}
