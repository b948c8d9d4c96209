/**
 * A human API reference rendered on the server from the OpenAPI document: one self-contained
 * HTML page (no scripts, no external assets), so it always says what the running code does.
 */
interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  security?: Array<Record<string, unknown>>
  parameters?: Array<{
    name: string
    in: string
    required?: boolean
    description?: string
    schema?: { pattern?: string }
  }>
  requestBody?: {
    content?: Record<
      string,
      { schema?: { properties?: Record<string, { description?: string }>; required?: string[] } }
    >
  }
  responses?: Record<string, { description?: string }>
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string }
  paths: Record<string, Record<string, Operation>>
}

const CREDENTIALS: Record<string, string> = {
  apiKey: 'API key in <code>x-svc-token</code>',
  bearer: 'Bearer access token in <code>authorization</code>',
  admin: 'Admin token in <code>x-svc-admin-token</code>',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Turns `code` spans of the descriptions into <code> after escaping. */
function prose(text: string | undefined): string {
  return escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>')
}

function renderOperation(method: string, path: string, op: Operation): string {
  const auth = (op.security ?? []).flatMap((s) => Object.keys(s)).map((k) => CREDENTIALS[k] ?? escapeHtml(k))
  const params = (op.parameters ?? []).map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'required' : 'optional'}</td><td>${prose(p.description)}</td></tr>`,
  )
  const body = op.requestBody?.content?.['application/json']?.schema
  const fields = Object.entries(body?.properties ?? {}).map(
    ([name, field]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td>body</td><td>${body?.required?.includes(name) ? 'required' : 'optional'}</td><td>${prose(field.description)}</td></tr>`,
  )
  const responses = Object.entries(op.responses ?? {}).map(
    ([status, r]) => `<li><strong>${escapeHtml(status)}</strong> ${prose(r.description)}</li>`,
  )
  return `<section id="${escapeHtml(`${method}-${path}`)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${prose(op.summary)}</strong></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
<p>Credential: ${auth.length ? auth.join(' or ') : 'none'}</p>
${params.length + fields.length ? `<table><tr><th>name</th><th>in</th><th></th><th>notes</th></tr>${[...params, ...fields].join('')}</table>` : ''}
<ul>${responses.join('')}</ul>
</section>`
}

export function renderReferencePage(doc: OpenApiDocument): string {
  const sections: string[] = []
  const index: string[] = []
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      index.push(
        `<li><a href="#${escapeHtml(`${method}-${path}`)}">${method.toUpperCase()} ${escapeHtml(path)}</a> ${prose(op.summary)}</li>`,
      )
      sections.push(renderOperation(method, path, op))
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em}section{border-top:1px solid #ddd;margin-top:1.5rem}
.method{font-weight:bold;color:#0a5}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}</style>
</head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${prose(doc.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>
<ul>${index.join('')}</ul>
${sections.join('\n')}
</body></html>`
}
