import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../scripts/openapi-document.ts'
import { collectExamples, comparable } from '../../scripts/openapi-examples.ts'
import { loadOperationExamples, type OperationExample } from '../../src/api/examples/load.ts'

/**
 * The OpenAPI document's examples are answers of the demo network (src/api/examples, written by
 * `npm run openapi:examples`): asked again here, every answer must be what its example shows, and
 * every example must be valid against the schema it illustrates.
 */

describe("the OpenAPI document's examples", () => {
  let asked: Record<string, OperationExample>
  const kept = loadOperationExamples()

  beforeAll(async () => {
    asked = await collectExamples()
  }, 180_000)

  it('holds an example of every operation of the demo server, each asked again', () => {
    expect(Object.keys(kept).sort()).toEqual(Object.keys(asked).sort())
    expect(Object.keys(kept).length).toBeGreaterThan(40)
  })

  it('shows what the demo network answers today, status by status (run `npm run openapi:examples` after a change)', () => {
    for (const [id, example] of Object.entries(asked)) {
      const expected = kept[id]
      expect(Object.keys(expected?.responses ?? {}).sort(), id).toEqual(Object.keys(example.responses).sort())
      for (const [status, body] of Object.entries(example.responses)) {
        expect(comparable(body), `${id} ${status}`).toEqual(comparable(expected?.responses[status]))
      }
      expect(comparable(example.variants ?? {}), id).toEqual(comparable(expected?.variants ?? {}))
    }
  })

  it('has each example valid against the schema it illustrates, parameters too', async () => {
    const document = (await buildOpenApiDocument()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string
            parameters?: Array<{ name: string; schema: object; example?: unknown }>
            requestBody?: { content: Record<string, { schema: object; example?: unknown }> }
            responses: Record<
              string,
              {
                content?: Record<
                  string,
                  { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> }
                >
              }
            >
          }
        >
      >
      components: { schemas: Record<string, object> }
    }
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addFormat('slug', true)
    ajv.addFormat('int64', true)
    ajv.addSchema({ $id: 'doc', components: document.components })
    const validate = (schema: object, value: unknown, where: string) => {
      const check = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')),
      )
      expect(check(value), `${where}: ${ajv.errorsText(check.errors)}`).toBe(true)
    }
    let checked = 0
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const at = `${method.toUpperCase()} ${path}`
        for (const parameter of operation.parameters ?? []) {
          validate(parameter.schema, parameter.example, `${at} ${parameter.name}`)
          checked++
        }
        for (const media of Object.values(operation.requestBody?.content ?? {})) {
          validate(media.schema, media.example, `${at} body`)
          checked++
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          const media = response.content?.['application/json']
          if (!media) continue
          const values = media.examples ? Object.values(media.examples).map((e) => e.value) : [media.example]
          for (const value of values) {
            validate(media.schema, value, `${at} ${status}`)
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(400)
  }, 60_000)
})
