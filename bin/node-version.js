// The Node.js version check, in plain JavaScript: it must run on the old Node it refuses, before any
// TypeScript source is loaded (an older Node stops at the first .ts with ERR_UNKNOWN_FILE_EXTENSION,
// which never says that the version is the problem). The required version is package.json's
// `engines.node`, the one place it is written.
import { readFileSync } from 'node:fs'

/** Where the README and the error message put Node from the npm registry (CI uses it too). */
export const NODE_CACHE_DIR = '~/.cache/node24'

/** The major version package.json's `engines.node` (">=N") requires. */
export function requiredNodeMajor() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const match = /^\s*>=\s*(\d+)/.exec(pkg.engines?.node ?? '')
  if (!match) throw new Error(`package.json engines.node must read ">=N", got "${pkg.engines?.node}"`)
  return Number(match[1])
}

/**
 * The one command that fetches Node `major` from the npm registry (the official binaries, published
 * as `node-<platform>-<arch>` packages, which need no install script) and puts it first on PATH for
 * this shell.
 * @param {number} major
 * @param {string} platform process.platform
 * @param {string} arch process.arch
 */
export function nodeInstallCommand(major, platform, arch) {
  const pkg = `node-${platform === 'win32' ? 'win' : platform}-${arch}`
  const dir = NODE_CACHE_DIR.replace('~', '$HOME')
  return (
    `npm install --prefix ${NODE_CACHE_DIR} --no-save --no-package-lock ${pkg}@${major} && ` +
    `export PATH="${dir}/node_modules/${pkg}/bin:$PATH"`
  )
}

/**
 * Null when `version` (as process.version prints it) is at least `required`; otherwise the message
 * that names both and the command to get the required one.
 * @param {{ version: string, required: number, platform: string, arch: string, what: string }} options
 * @returns {string | null}
 */
export function nodeVersionProblem({ version, required, platform, arch, what }) {
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0)
  if (major >= required) return null
  return [
    `${what} needs Node.js ${required} or newer; this is Node.js ${version}.`,
    `Get Node.js ${required} from the npm registry and use it in this shell:`,
    `  ${nodeInstallCommand(required, platform, arch)}`,
    'then run the command again.',
    '',
  ].join('\n')
}

/**
 * Checks the running Node; on a too-old one prints the problem on stderr and returns false.
 * @param {string} what what is being run, for the message
 */
export function checkNodeVersion(what) {
  const problem = nodeVersionProblem({
    version: process.version,
    required: requiredNodeMajor(),
    platform: process.platform,
    arch: process.arch,
    what,
  })
  if (problem === null) return true
  process.stderr.write(problem)
  return false
}
