import type { Kysely } from 'kysely'
import type { OrganizationsTable, Schema } from './schema.ts'

export type Organization = OrganizationsTable

export async function getOrganization(db: Kysely<Schema>, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function getOrganizationBySlug(
  db: Kysely<Schema>,
  slug: string,
): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst()
}

/** Inserts the organization; returns false when the slug is taken (nothing written). */
export async function insertOrganization(db: Kysely<Schema>, org: Organization): Promise<boolean> {
  const result = await db
    .insertInto('organizations')
    .values(org)
    .onConflict((oc) => oc.column('slug').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
}

export async function updateOrganizationBilling(
  db: Kysely<Schema>,
  id: string,
  changes: { plan?: string; billing_email?: string | null },
): Promise<Organization | undefined> {
  if (Object.keys(changes).length > 0) {
    await db.updateTable('organizations').set(changes).where('id', '=', id).execute()
  }
  return getOrganization(db, id)
}
