import type { Command } from './command.ts'

interface CommandEntry {
  summary: string
  /** Loaded only when run, so `strata --help` and light commands start fast. */
  load: () => Promise<Command>
}

/** Every `strata` command. Each lives in its own file under commands/. */
export const COMMANDS: Record<string, CommandEntry> = {
  serve: {
    summary: 'run the HTTP API (with --demo: a simulated network and its indexer too)',
    load: async () => (await import('./commands/serve.ts')).serveCommand,
  },
  index: {
    summary: 'ingest ledgers from a Stellar RPC endpoint into the database',
    load: async () => (await import('./commands/index.ts')).indexCommand,
  },
  devnet: {
    summary: 'run a deterministic simulated Stellar network with a Stellar-RPC-compatible endpoint',
    load: async () => (await import('./commands/devnet.ts')).devnetCommand,
  },
  migrate: {
    summary: 'apply pending database migrations',
    load: async () => (await import('./commands/migrate.ts')).migrateCommand,
  },
  'create-key': {
    summary: 'create an organization (or reuse one by slug) and an API key',
    load: async () => (await import('./commands/create-key.ts')).createKeyCommand,
  },
  'set-plan': {
    summary: "set an organization's plan and the highest plan it may choose itself",
    load: async () => (await import('./commands/set-plan.ts')).setPlanCommand,
  },
  'create-user': {
    summary: 'give an organization a login (email and password)',
    load: async () => (await import('./commands/create-user.ts')).createUserCommand,
  },
}
