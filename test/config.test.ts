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
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' })
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379')
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
})
