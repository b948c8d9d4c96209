// Summarizes a V8 CPU profile (.cpuprofile) of the API server under load: where the busy time of
// the main thread goes, in µs per request, by part (each sample counted once, in the first part
// whose rule matches a frame of its stack) and by function (self time).
//
//   node bench/cpu-profile.ts <file.cpuprofile> <requests served during the profile>

import { readFileSync } from 'node:fs'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  parent?: number
  children?: number[]
}
export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

/** Parts of a request's cost, most specific first: a sample goes to the first part that matches. */
const PARTS: Array<[string, (frame: CallFrame) => boolean]> = [
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['profiler itself', (f) => f.url === 'node:inspector' || f.url.includes('cpu-prof-hook')],
  // The line's building (src/logger.ts) and its write to stdout at the turn's end, which the
  // socket-write rule below would otherwise take for the response.
  [
    'request log line (building, stdout write)',
    (f) => /\/(pino|sonic-boom|pino-std-serializers)\//.test(f.url) || f.url.endsWith('/src/logger.ts'),
  ],
  ['metrics (prom-client)', (f) => f.url.includes('/prom-client/') || f.url.endsWith('/src/api/metrics.ts')],
  ['rate limiter', (f) => f.url.includes('/src/rate-limit/')],
  ['SQL statements (src/store)', (f) => f.url.includes('/src/store/')],
  ['authentication (key, scopes, usage)', (f) => /\/src\/(api\/)?auth\//.test(f.url)],
  ['protocol module (render, valuation)', (f) => f.url.includes('/src/protocols/')],
  [
    'answer cache (lookup, concatenated body)',
    (f) => /\/src\/(positions\/(answer-cache|surface-answer|answer-json)|bounded-cache)\.ts$/.test(f.url),
  ],
  ['point-in-time rules (src/positions)', (f) => f.url.includes('/src/positions/')],
  [
    'address check (StrKey)',
    (f) => /@stellar|stellar-base|@exodus/.test(f.url) || f.url.endsWith('/src/api/params.ts'),
  ],
  ['response serialization', (f) => /fast-json-stringify|\/src\/api\/json\.ts/.test(f.url)],
  ['socket write', (f) => /^write(Utf8|Latin1|Ucs2)String$|^writev$|^writeBuffer$/.test(f.functionName)],
  // What a handler's `reply.send` runs, beyond the socket write above: Fastify's reply and onSend
  // path, Node's header and body writing. Handlers send in the turn they answer, so without this
  // rule it would count as the handler's own time.
  [
    'response writing (reply.send, Node HTTP)',
    (f) => f.functionName === 'Reply.send' && f.url.includes('/fastify/lib/reply.js'),
  ],
  ['app hooks and routes (src/api)', (f) => f.url.includes('/src/api/')],
  ['Fastify', (f) => /\/(fastify|find-my-way|avvio|light-my-request|@fastify)\//.test(f.url)],
  ['Node HTTP', (f) => f.url.startsWith('node:_http') || f.functionName === 'parserOnHeadersComplete'],
  ['promises, microtasks, ticks', (f) => /^(runMicrotasks|processTicksAndRejections)$/.test(f.functionName)],
  ['(program): native, unattributed', (f) => f.functionName === '(program)'],
]

export interface ProfileSummary {
  /** µs of busy main-thread time per request (idle excluded). */
  busyUsPerRequest: number
  parts: Array<{ part: string; usPerRequest: number; share: number }>
  functions: Array<{ name: string; selfUsPerRequest: number }>
}

export function summarizeProfile(profile: CpuProfile, requests: number, top = 15): ProfileSummary {
  const byId = new Map<number, ProfileNode>()
  for (const node of profile.nodes) byId.set(node.id, node)
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child)!.parent = node.id
  const partOf = new Map<number, string>()
  const classify = (id: number): string => {
    const known = partOf.get(id)
    if (known !== undefined) return known
    const stack: CallFrame[] = []
    for (let at: number | undefined = id; at !== undefined; at = byId.get(at)?.parent) {
      stack.push(byId.get(at)!.callFrame)
    }
    let part = 'other'
    for (const [name, matches] of PARTS) {
      if (stack.some(matches)) {
        part = name
        break
      }
    }
    partOf.set(id, part)
    return part
  }
  const partUs = new Map<string, number>()
  const selfUs = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    // A sample's time is the delta to the next sample (the last one's is unknown: the mean).
    const delta = profile.timeDeltas[i + 1] ?? 0
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)') return
    busy += delta
    const part = classify(id)
    partUs.set(part, (partUs.get(part) ?? 0) + delta)
    const where = frame.url
      ? `${frame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${frame.lineNumber + 1}`
      : 'native'
    const name = `${frame.functionName || '(anonymous)'} ${where}`
    selfUs.set(name, (selfUs.get(name) ?? 0) + delta)
  })
  const perRequest = (us: number) => Math.round((us / Math.max(1, requests)) * 10) / 10
  return {
    busyUsPerRequest: perRequest(busy),
    parts: [...partUs]
      .sort((a, b) => b[1] - a[1])
      .map(([part, us]) => ({
        part,
        usPerRequest: perRequest(us),
        share: Math.round((us / busy) * 1000) / 10,
      })),
    functions: [...selfUs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfUsPerRequest: perRequest(us) })),
  }
}

/** The summary as Markdown: parts, then the top functions by self time. */
export function renderProfileSummary(title: string, summary: ProfileSummary): string {
  return [
    `${title}: ${summary.busyUsPerRequest} µs of busy main-thread time per request.`,
    '',
    '| part | µs/request | share |',
    '|---|---|---|',
    ...summary.parts.map((p) => `| ${p.part} | ${p.usPerRequest} | ${p.share}% |`),
    '',
    '| function (self time) | µs/request |',
    '|---|---|',
    ...summary.functions.map((f) => `| \`${f.name}\` | ${f.selfUsPerRequest} |`),
  ].join('\n')
}

if (import.meta.filename === process.argv[1]) {
  const [file, requests] = process.argv.slice(2)
  if (!file || !requests) {
    process.stderr.write('usage: node bench/cpu-profile.ts <file.cpuprofile> <requests>\n')
    process.exit(2)
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  process.stdout.write(`${renderProfileSummary(file, summarizeProfile(profile, Number(requests)))}\n`)
}
