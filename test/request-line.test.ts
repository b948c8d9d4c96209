import { describe, expect, it } from 'vitest'
import { createLogger, writeRequestLine } from '../src/logger.ts'

function capture(level: 'info' | 'warn' = 'info') {
  const lines: string[] = []
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) })
  return { lines, logger }
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":""')

describe('the request log line', () => {
  it('is byte for byte the line pino writes for the same fields, escapes included', () => {
    const { lines, logger } = capture()
    const request = logger.child({ reqId: 'id "quoted"' })
    const cases = [
      { method: 'GET', url: '/v1/users/G/positions/x?as_of_ledger=5', status: 200, ms: 0.52, org: 'org_1' },
      { method: 'DELETE', url: '/v1/a?q="\\\u0001é"', status: 401, ms: 12, org: undefined },
    ]
    for (const fields of cases) {
      request.info(fields, 'request')
      writeRequestLine(request, fields)
    }
    expect(lines).toHaveLength(4)
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!))
    expect(withoutTime(lines[3]!)).toBe(withoutTime(lines[2]!))
    expect(JSON.parse(lines[3]!)).toMatchObject({ level: 30, service: 'strata', status: 401, msg: 'request' })
    expect(JSON.parse(lines[1]!).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('is not written when the level is above info', () => {
    const { lines, logger } = capture('warn')
    writeRequestLine(logger.child({ reqId: 'r' }), {
      method: 'GET',
      url: '/',
      status: 200,
      ms: 1,
      org: undefined,
    })
    expect(lines).toEqual([])
  })
})
