import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { redactUrl } from '../../src/logger.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { signUp } from '../support/factories.ts'

describe('credentials in a logged URL', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('a key, a token or a password put in the query never reaches the logs; the rest of the URL does', async () => {
    const user = await signUp(t.app)
    const key = generateApiKey()
    const secrets = [key, user.access_token, user.refresh_token, 'hunter2-the-password', 'plain-secret-value']
    const urls = [
      // Named like a credential, whatever the value.
      '/v1/health?api_key=plain-secret-value',
      '/v1/health?password=hunter2-the-password&x=1',
      '/v1/health?apiKey=plain-secret-value',
      '/v1/health?ACCESS_TOKEN=plain-secret-value',
      // A credential whatever the parameter is called: a Strata key, a JWT, percent-encoded or not.
      `/v1/health?q=${key}`,
      `/v1/health?q=${encodeURIComponent(`Bearer ${user.access_token}`)}`,
      `/v1/health?r=${user.refresh_token}&as_of_ledger=12`,
      `/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions?key=${key}`,
    ]
    for (const url of urls) {
      const answer = await t.app.inject({ method: 'GET', url })
      // Refused (an undeclared parameter, no credential): the line is still written.
      expect(answer.statusCode).toBeGreaterThanOrEqual(400)
    }
    const logged = t.logs.join('')
    for (const secret of secrets) expect(logged).not.toContain(secret)
    const requestLines = t.logs
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line).url as string)
    expect(requestLines).toEqual(
      expect.arrayContaining([
        '/v1/health?api_key=[redacted]',
        '/v1/health?password=[redacted]&x=1',
        '/v1/health?apiKey=[redacted]',
        '/v1/health?ACCESS_TOKEN=[redacted]',
        '/v1/health?q=[redacted]',
        '/v1/health?r=[redacted]&as_of_ledger=12',
        '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions?key=[redacted]',
      ]),
    )
  })

  it('leaves URLs without a credential as they are', () => {
    for (const url of [
      '/v1/health',
      '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions?as_of_ledger=5&limit=10',
      '/v1/protocols/lendingprotocol/reserves?cursor=eyJ&x=%zz',
      '/v1/health?flag&other=',
    ]) {
      expect(redactUrl(url)).toBe(url)
    }
  })
})
