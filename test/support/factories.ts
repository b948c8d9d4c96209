import { randomBytes } from 'node:crypto'
import type { App } from '../../src/api/app.ts'
import type { CreatedApiKey } from '../../src/auth/create-api-key.ts'
import { ADMIN_TOKEN } from './app.ts'

export function uniqueSlug(prefix = 'org'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`
}

/** The key creation result as JSON carries it: `expires_at` is RFC 3339 text. */
export type CreatedKey = Omit<CreatedApiKey, 'expires_at'> & { expires_at: string | null }

/** Creates an organization (or reuses the slug) and a key through the admin endpoint. */
export async function createKey(
  app: App,
  body: {
    organization_slug?: string
    organization_name?: string
    key_name?: string
    scopes?: string[]
    expires_at?: string | null
    /** Needed to give a key to an organization made by `signUp`. */
    reuse_signup_organization?: boolean
  } = {},
): Promise<CreatedKey> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/org/api-keys',
    headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
    payload: {
      organization_name: body.organization_name ?? 'Test Org',
      organization_slug: body.organization_slug ?? uniqueSlug(),
      key_name: body.key_name ?? 'test key',
      ...(body.scopes ? { scopes: body.scopes } : {}),
      ...(body.expires_at !== undefined ? { expires_at: body.expires_at } : {}),
      ...(body.reuse_signup_organization !== undefined
        ? { reuse_signup_organization: body.reuse_signup_organization }
        : {}),
    },
  })
  if (response.statusCode !== 201) throw new Error(`createKey: ${response.statusCode} ${response.body}`)
  return response.json() as CreatedKey
}

export interface SignedUp {
  organization_id: string
  organization_slug: string
  user_id: string
  access_token: string
  refresh_token: string
  expires_in: number
  /** The organization's first key, made by signup. */
  api_key: CreatedKey
  email: string
  password: string
}

export async function signUp(app: App, slug = uniqueSlug()): Promise<SignedUp> {
  const email = `${slug}@example.com`
  const password = `pw-${randomBytes(8).toString('hex')}`
  const response = await app.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    headers: { 'content-type': 'application/json' },
    payload: { organization_name: `Org ${slug}`, organization_slug: slug, email, password },
  })
  if (response.statusCode !== 201) throw new Error(`signUp: ${response.statusCode} ${response.body}`)
  return { ...(response.json() as Omit<SignedUp, 'email' | 'password'>), email, password }
}

/** Another key for an organization made by `signUp`, through the admin endpoint. */
export function createKeyFor(
  app: App,
  user: SignedUp,
  body: Omit<Parameters<typeof createKey>[1], 'organization_slug'> = {},
): Promise<CreatedKey> {
  return createKey(app, {
    ...body,
    organization_slug: user.organization_slug,
    reuse_signup_organization: true,
  })
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
export const apiKey = (key: string) => ({ 'x-svc-token': key })
