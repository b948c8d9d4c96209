import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('configuration', () => {
  it('has working defaults: SQLite, port 3000, 15-minute access tokens, 600 requests a minute', () => {
    const config = loadConfig({})
    expect(config.database).toEqual({ kind: 'sqlite', path: './strata.db' })
    expect(config.port).toBe(3000)
    expect(config.accessTokenTtlS).toBe(900)
    expect(config.refreshTokenTtlS).toBe(30 * 86_400)
    expect(config.rateLimitPerMinute).toBe(600)
    expect(config.redisUrl).toBeNull()
  })

  it('reads PostgreSQL and Redis URLs', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' })
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
      timeouts: { timeoutMs: 5000, writeTimeoutMs: 300_000 },
      poolSize: 10,
    })
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379')
    const small = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', STRATA_DB_POOL_SIZE: '3' })
    expect(small.database).toMatchObject({ kind: 'postgres', poolSize: 3 })
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', STRATA_DB_POOL_SIZE: '0' })).toThrow(
      /STRATA_DB_POOL_SIZE/,
    )
  })

  it('lists every bad variable in one error', () => {
    let error: unknown
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        ACCESS_TOKEN_TTL_S: '0',
        LOG_LEVEL: 'loud',
        REDIS_URL: 'http://x',
        STRATA_JWT_SECRET: 'short',
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems.join('\n')
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'ACCESS_TOKEN_TTL_S',
      'LOG_LEVEL',
      'REDIS_URL',
      'STRATA_JWT_SECRET',
    ]) {
      expect(problems).toContain(name)
    }
    expect((error as ConfigError).problems).toHaveLength(6)
  })

  it('throttles signup per client address (10 per hour by default) and trusts no proxy by default', () => {
    const config = loadConfig({})
    expect(config.signupAttemptsPerWindow).toBe(10)
    expect(config.signupWindowS).toBe(3600)
    expect(config.trustProxy).toBe(false)
    const custom = loadConfig({ SIGNUP_ATTEMPTS_PER_WINDOW: '3', SIGNUP_WINDOW_S: '60' })
    expect([custom.signupAttemptsPerWindow, custom.signupWindowS]).toEqual([3, 60])
  })

  it('reads TRUST_PROXY as Fastify takes it: true, a hop count, or addresses and CIDRs', () => {
    const cases: Array<[string, unknown]> = [
      ['', false],
      ['false', false],
      ['FALSE', false],
      ['true', true],
      ['True', true],
      ['1', 1],
      ['2', 2],
      ['10.0.0.1', ['10.0.0.1']],
      ['10.0.0.0/8, 192.168.1.1 ,fd00::/8', ['10.0.0.0/8', '192.168.1.1', 'fd00::/8']],
      ['loopback,10.1.2.3', ['loopback', '10.1.2.3']],
      ['::1', ['::1']],
    ]
    for (const [value, expected] of cases)
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy, value).toEqual(expected)
  })

  it('names TRUST_PROXY and the signup throttle when they are wrong', () => {
    for (const bad of [
      'yes',
      '0',
      '33',
      '10.0.0.0/33',
      '300.1.1.1',
      '10.0.0.1,',
      'fd00::/129',
      '10.0.0.0/8/1',
    ]) {
      let error: unknown
      try {
        loadConfig({ TRUST_PROXY: bad })
      } catch (e) {
        error = e
      }
      expect(error, bad).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems, bad).toHaveLength(1)
      expect((error as ConfigError).problems[0], bad).toMatch(/^TRUST_PROXY /)
    }
    let error: unknown
    try {
      loadConfig({ SIGNUP_ATTEMPTS_PER_WINDOW: '0', SIGNUP_WINDOW_S: 'hour' })
    } catch (e) {
      error = e
    }
    const problems = (error as ConfigError).problems
    expect(problems).toHaveLength(2)
    expect(problems[0]).toContain('SIGNUP_ATTEMPTS_PER_WINDOW')
    expect(problems[1]).toContain('SIGNUP_WINDOW_S')
  })

  it('reads STRATA_CORS_ORIGINS: off when unset, exact origins, or * alone', () => {
    expect(loadConfig({}).corsOrigins).toBeNull()
    expect(loadConfig({ STRATA_CORS_ORIGINS: '' }).corsOrigins).toBeNull()
    expect(
      loadConfig({ STRATA_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173'])
    expect(loadConfig({ STRATA_CORS_ORIGINS: '*' }).corsOrigins).toBe('*')
  })

  it('names STRATA_CORS_ORIGINS when an entry is not an origin', () => {
    for (const bad of [
      'app.example.com',
      'https://app.example.com/',
      'https://app.example.com/path',
      'ftp://app.example.com',
      'https://App.Example.com',
      '*, https://app.example.com',
    ]) {
      let error: unknown
      try {
        loadConfig({ STRATA_CORS_ORIGINS: bad })
      } catch (e) {
        error = e
      }
      expect(error, bad).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems, bad).toHaveLength(1)
      expect((error as ConfigError).problems[0], bad).toMatch(/^STRATA_CORS_ORIGINS /)
    }
  })

  it('reads STRATA_READY_MAX_LAG_S: 900 s by default, 0 for off', () => {
    expect(loadConfig({}).readyMaxLagS).toBe(900)
    expect(loadConfig({ STRATA_READY_MAX_LAG_S: '0' }).readyMaxLagS).toBe(0)
    expect(() => loadConfig({ STRATA_READY_MAX_LAG_S: 'soon' })).toThrow(/STRATA_READY_MAX_LAG_S/)
  })
})
