import type pg from 'pg';

/*
 * What the desk schema of a team database is made of, as sorted lines: every function (its whole
 * definition, owner and grants), table, sequence and view (owner and grants), column (type, default,
 * NOT NULL, identity, column grants), constraint, index and trigger, and the schema's own grants.
 * Two databases with the same lines have the same schema and the same rules. The migration history
 * table is left out (a database made before it has none). An ACL left at its default reads as that
 * default (pg_dump does not write one, so a restored copy has none where the original had it spelled out).
 */
export async function deskCatalog(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ line: string }>(
    `WITH rel AS (
       SELECT c.oid, c.relname, c.relkind, c.relacl, c.relowner FROM pg_class c
       WHERE c.relnamespace = 'desk'::regnamespace AND c.relname NOT LIKE 'schema\\_history%')
     SELECT 'schema ' || pg_get_userbyid(nspowner) || ' ' || coalesce(nspacl, acldefault('n', nspowner))::text AS line
       FROM pg_namespace WHERE nspname = 'desk'
     UNION ALL
     SELECT 'function ' || p.oid::regprocedure::text || ' ' || pg_get_userbyid(p.proowner) || ' '
       || coalesce(p.proacl, acldefault('f', p.proowner))::text || E'\\n' || pg_get_functiondef(p.oid)
       FROM pg_proc p WHERE p.pronamespace = 'desk'::regnamespace
     UNION ALL
     SELECT 'relation ' || relname || ' ' || relkind::text || ' ' || pg_get_userbyid(relowner) || ' '
       || coalesce(relacl, acldefault(CASE relkind WHEN 'S' THEN 's' ELSE 'r' END::"char", relowner))::text FROM rel
     UNION ALL
     SELECT 'column ' || r.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || ' ' || a.attidentity::text || ' '
       || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' ' || coalesce(a.attacl::text, '')
       FROM rel r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE r.relkind IN ('r', 'p', 'v')
     UNION ALL
     SELECT 'constraint ' || r.relname || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
       FROM pg_constraint c JOIN rel r ON r.oid = c.conrelid
     UNION ALL
     SELECT 'index ' || pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN rel r ON r.oid = i.indrelid
     UNION ALL
     SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN rel r ON r.oid = t.tgrelid
       WHERE NOT t.tgisinternal
     ORDER BY 1`,
  );
  return rows.map((r) => r.line);
}

/** Every row of every desk table but the history, as JSON, table by table, in a stable order. */
export async function deskRows(client: pg.ClientBase): Promise<Record<string, string[]>> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = 'desk'::regnamespace AND relkind = 'r'
       AND relname <> 'schema_history' ORDER BY 1`,
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await client.query<{ row: string }>(
      `SELECT to_jsonb(t)::text AS row FROM desk.${name} t ORDER BY 1`,
    );
    out[name] = rows.map((r) => r.row);
  }
  return out;
}
