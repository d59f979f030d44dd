/**
 * Row position by key. Cell edits keep positions, so the map is rebuilt only when rows are added or
 * removed (the count or the first key changes); a stale entry (rows moved without changing count) is
 * caught by checking the key found there.
 */
export class RowPositions {
  private cached: { length: number; firstKey: number | undefined; map: Map<number, number> } | null = null;

  constructor(private readonly rowsNow: () => readonly { key: number }[]) {}

  /** The row's index, or -1 when no row has that key. */
  of(key: number): number {
    const rows = this.rowsNow();
    let cached = this.cached;
    if (!cached || cached.length !== rows.length || cached.firstKey !== rows[0]?.key) {
      cached = { length: rows.length, firstKey: rows[0]?.key, map: new Map(rows.map((r, i) => [r.key, i])) };
      this.cached = cached;
    }
    const at = cached.map.get(key);
    if (at !== undefined && rows[at]?.key === key) return at;
    this.cached = null;
    return rows.findIndex((r) => r.key === key);
  }
}
