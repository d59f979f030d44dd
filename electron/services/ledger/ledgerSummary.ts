import type { LedgerGroup, LedgerGroupSummary, LedgerPartSummary } from './ledgerShapes';

/**
 * An upload's summary, the record as Reconcile's pages, totals and report read it: each part without
 * its rows' keys, numbers and fingerprints (a few MB per 100,000 rows) and, for an upload that
 * replaces declined donations, with `replacedRowKeys`, the keys of those rows the part holds, in the
 * part's order. Kept as JSON beside the record (`ledger_group.summary`), written in the statement
 * that writes the record; equal to what SUMMARY_SQL makes from the record in SQLite (how the
 * uploads recorded before version 7 got theirs, see V007__ledger_group_summary.sql).
 */
export function summaryOf(group: LedgerGroup): LedgerGroupSummary {
  const replaces: unknown = group.replaces;
  const replaced =
    Array.isArray(replaces) && replaces.length > 0
      ? new Set<unknown>(replaces.map((r: { rowKey?: unknown } | null) => r?.rowKey))
      : null;
  const parts = (group.parts ?? []).map((part): LedgerPartSummary => {
    const { rowKeys, rowNumbers, fingerprints, ...rest } = part;
    void [rowNumbers, fingerprints];
    if (!replaced) return rest;
    const keys = Array.isArray(rowKeys) ? rowKeys : [];
    return { ...rest, replacedRowKeys: keys.filter((k) => k !== null && replaced.has(k)) };
  });
  return { ...group, parts };
}

/** The summary as stored: JSON, as the record is. */
export function summaryText(group: LedgerGroup): string {
  return JSON.stringify(summaryOf(group));
}

/**
 * The same summary made by SQLite from the record `g.body` (version 7's migration fills the column
 * with it): for a row written without one, and for the tests that hold both equal. Which rows a part
 * holds of those the upload replaces is one pass over both lists (a window over their union): an
 * `IN` list per row key would read the whole record again for each row.
 */
export const SUMMARY_SQL = `json_set(g.body, '$.parts', json((
  SELECT json_group_array(json(CASE
    WHEN json_array_length(g.body, '$.replaces') > 0 THEN json_set(
      json_remove(p.value, '$.rowKeys', '$.rowNumbers', '$.fingerprints'), '$.replacedRowKeys',
      json((SELECT json_group_array(u.v ORDER BY u.pos) FROM (
        SELECT x.v, x.pos, x.src, max(x.src) OVER (PARTITION BY x.v) AS held FROM (
          SELECT k.value AS v, k.key AS pos, 0 AS src FROM json_each(p.value, '$.rowKeys') AS k
          UNION ALL
          SELECT r.value ->> 'rowKey', NULL, 1 FROM json_each(g.body, '$.replaces') AS r) AS x) AS u
        WHERE u.src = 0 AND u.held = 1 AND u.v IS NOT NULL)))
    ELSE json_remove(p.value, '$.rowKeys', '$.rowNumbers', '$.fingerprints') END) ORDER BY p.key)
  FROM json_each(g.body, '$.parts') AS p)))`;
