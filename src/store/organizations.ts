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

export async function updateOrganizationBillingEmail(
  db: Kysely<Schema>,
  id: string,
  billingEmail: string | null,
): Promise<void> {
  await db.updateTable('organizations').set({ billing_email: billingEmail }).where('id', '=', id).execute()
}

/**
 * Sets the plan and the allowed maximum, provided neither moved since `seen` was read. Returns
 * false when another change came first (nothing written).
 */
export async function setOrganizationPlan(
  db: Kysely<Schema>,
  seen: Organization,
  next: { plan: string; max_plan: string },
): Promise<boolean> {
  const result = await db
    .updateTable('organizations')
    .set(next)
    .where('id', '=', seen.id)
    .where('plan', '=', seen.plan)
    .where('max_plan', '=', seen.max_plan)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
