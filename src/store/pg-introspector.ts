/**
 * The migrations' view of a PostgreSQL database: its own schema only. Kysely's migrator asks the
 * dialect's introspector whether its tables exist, and Kysely's PostgreSQL introspector reads every
 * table of every schema of the database to answer (with a `pg_get_serial_sequence` call per
 * column). That read is slow on a database with many schemas, and it fails when another client
 * drops a schema while it runs ("schema … does not exist"), which is what the test suite's files,
 * each in its own schema, do to each other. This introspector reads only `current_schema()`, the
 * schema every connection of a Strata store works in (the `search_path` it sets).
 */
import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely'
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely/migration'

interface ColumnRow {
  table: string
  kind: string
  schema: string
  column: string
  type: string
  type_schema: string
  not_null: boolean
  has_default: boolean
  identity: string
  default_text: string | null
  comment: string | null
}

export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>

  constructor(db: Kysely<unknown>) {
    this.#db = db
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`SELECT current_schema() AS name`.execute(this.#db)
    const name = rows[0]?.name
    return name ? [{ name }] : []
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      SELECT c.relname AS "table", c.relkind AS kind, ns.nspname AS schema, a.attname AS "column",
             typ.typname AS type, tns.nspname AS type_schema, a.attnotnull AS not_null,
             a.atthasdef AS has_default, a.attidentity AS identity,
             pg_get_expr(d.adbin, d.adrelid) AS default_text, col_description(a.attrelid, a.attnum) AS comment
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
      JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      JOIN pg_catalog.pg_type typ ON typ.oid = a.atttypid
      JOIN pg_catalog.pg_namespace tns ON tns.oid = typ.typnamespace
      LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p', 'f')
      ORDER BY c.relname, a.attnum`.execute(this.#db)
    const tables = new Map<string, TableMetadata>()
    for (const row of rows) {
      if (
        !options.withInternalKyselyTables &&
        (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)
      ) {
        continue
      }
      let table = tables.get(row.table)
      if (!table) {
        table = {
          name: row.table,
          schema: row.schema,
          isView: row.kind === 'v',
          isForeign: row.kind === 'f',
          columns: [],
        }
        tables.set(row.table, table)
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.identity !== '' || (row.default_text?.startsWith('nextval(') ?? false),
        ...(row.comment !== null ? { comment: row.comment } : {}),
      })
    }
    return [...tables.values()]
  }
}

/** PostgreSQL as Kysely speaks it, introspecting only the connection's own schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db)
  }
}
