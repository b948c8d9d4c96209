import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.ts'
import { ENV_VARS, envHelpText, replaceEnvTable } from '../src/config-env.ts'
import { CLI } from './support/process.ts'

const NAMES = Object.keys(ENV_VARS)

/** The names loadConfig looks up in the environment it is given. */
function namesRead(env: Record<string, string> = {}): Set<string> {
  const read = new Set<string>()
  const recording = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key)
      return target[key as string]
    },
  })
  loadConfig(recording)
  return read
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
    return []
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
}

describe('the one list of environment variables', () => {
  it('holds exactly the variables loadConfig reads', () => {
    // With METRICS_PORT set too, so that a variable read only when another is set is seen.
    const read = new Set([...namesRead(), ...namesRead({ METRICS_PORT: '9100' })])
    expect([...read].sort()).toEqual([...NAMES].sort())
  })

  it('names the defaults loadConfig uses: setting a variable to its listed default changes nothing', () => {
    const unset = loadConfig({})
    for (const [name, v] of Object.entries(ENV_VARS)) {
      if (v.default === null) continue
      expect(loadConfig({ [name]: v.default }), name).toEqual(unset)
    }
    // Written out by hand, as an operator reads them.
    expect(ENV_VARS.PORT.default).toBe('3000')
    expect(ENV_VARS.REFRESH_TOKEN_TTL_S.default).toBe('2592000')
    expect(ENV_VARS.BODY_LIMIT_BYTES.default).toBe('65536')
  })

  it('names the bounds loadConfig enforces', () => {
    for (const [name, v] of Object.entries(ENV_VARS)) {
      if (v.min === undefined) continue
      expect(problemsOf({ [name]: String(v.min) }), name).toEqual([])
      if (v.min > 0) expect(problemsOf({ [name]: String(v.min - 1) }).join(), name).toContain(name)
      if (v.max !== undefined) {
        expect(problemsOf({ [name]: String(v.max) }), name).toEqual([])
        expect(problemsOf({ [name]: String(v.max + 1) }).join(), name).toContain(name)
      }
    }
  })

  it('LOG_FORMAT is json or pretty, unset by default (decided by the terminal)', () => {
    expect(loadConfig({}).logFormat).toBeNull()
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json')
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty')
    expect(problemsOf({ LOG_FORMAT: 'yaml' })).toEqual(['LOG_FORMAT must be one of json, pretty, got "yaml"'])
  })

  it("README's configuration table is the list (npm run docs:env rewrites it)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(replaceEnvTable(readme)).toBe(readme)
    for (const name of NAMES) expect(readme).toContain(`| \`${name}\` |`)
  })

  it('strata serve --help prints every variable with its default', () => {
    const help = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' })
    expect(help.status).toBe(0)
    expect(help.stdout).toContain(envHelpText())
    for (const [name, v] of Object.entries(ENV_VARS)) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name}${v.default === null ? '$' : `=${v.default}$`}`, 'm'))
    }
  })
})
