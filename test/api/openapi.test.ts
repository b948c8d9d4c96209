import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, unknown> }

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: { servers?: unknown[]; paths: Record<string, Record<string, Operation>> }
  beforeAll(async () => {
    t = await createTestApp()
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
  })
  afterAll(async () => t.close())

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    )

  it("documents each route's security as the credential the guard enforces", async () => {
    // What the guard answers without a credential tells which one each route takes.
    for (const { key, operation } of operations()) {
      const [method, path] = key.split(' ') as [string, string]
      const url = path
        .replace('{address}', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7')
        .replace(/\{[a-z]+\}/g, '1')
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      })
      if (operation.security?.length === 0) {
        expect(response.statusCode, key).not.toBe(401)
      } else {
        expect(response.statusCode, key).toBe(401)
        const scheme = Object.keys(operation.security?.[0] as object)[0]
        const header = { apiKey: 'x-svc-token', bearer: 'authorization', admin: 'x-svc-admin-token' }[
          scheme as string
        ]
        expect(response.json().error.message, key).toMatch(
          new RegExp(header === 'authorization' ? 'bearer|access token|authorization' : (header ?? '-'), 'i'),
        )
      }
    }
  })

  it('names every operation uniquely, lists a server and a 4xx for each', () => {
    const ids = operations().map(({ operation }) => operation.operationId)
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.servers?.length).toBeGreaterThan(0)
    for (const { key, operation } of operations()) {
      expect(
        Object.keys(operation.responses).some((status) => status.startsWith('4')),
        key,
      ).toBe(true)
    }
  })
})
