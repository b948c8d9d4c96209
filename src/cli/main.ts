#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { VERSION } from '../version.ts'
import type { CommandValues } from './command.ts'
import { COMMANDS } from './commands.ts'

/** The `strata` command-line program: `strata <command> [options]`, `strata <command> --help`. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage())
    return name === undefined ? 1 : 0
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`strata ${VERSION}\n`)
    return 0
  }
  const entry = COMMANDS[name]
  if (!entry) {
    process.stderr.write(`strata: unknown command "${name}"\n\n${usage()}`)
    return 1
  }
  const command = await entry.load()
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.help.trim()}\n`)
    return 0
  }
  let values: CommandValues
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values
  } catch (error) {
    process.stderr.write(`strata ${name}: ${(error as Error).message}\n\n${command.help.trim()}\n`)
    return 1
  }
  try {
    return await command.run(values)
  } catch (error) {
    // A command's failure is one line, named after the command: a configuration with one problem
    // too (ConfigError lists several on lines of their own).
    const problems = (error as { problems?: unknown }).problems
    const message =
      Array.isArray(problems) && problems.length === 1
        ? `invalid configuration: ${problems[0]}`
        : error instanceof Error
          ? error.message
          : String(error)
    process.stderr.write(`strata ${name}: ${message}\n`)
    return 1
  }
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  return `Usage: strata <command> [options]\n       strata --version\n\nCommands:\n${lines.join('\n')}\n\nRun "strata <command> --help" for a command's options.\n`
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`strata: ${message}\n`)
    process.exitCode = 1
  },
)
