import { NUMBER_WIDTH, type GridColumn } from './gridTypes';

/** The header row: "Row", then each column's header with what it is mapped to under it. */
export function GridHeader({
  columns,
  widths,
  totalWidth,
}: {
  columns: readonly GridColumn[];
  widths: readonly number[];
  totalWidth: number;
}) {
  return (
    <div role="rowgroup" className="dg-head" style={{ width: totalWidth }}>
      <div role="row" aria-rowindex={1} className="dg-head-row">
        <div
          role="columnheader"
          aria-colindex={1}
          className="dg-colhead dg-rownum-head"
          style={{ width: NUMBER_WIDTH }}
        >
          Row
        </div>
        {columns.map((c, i) => (
          <div
            key={i}
            role="columnheader"
            aria-colindex={i + 2}
            className="dg-colhead"
            style={{ width: widths[i] }}
          >
            <div className="dg-colhead-title" title={c.header}>
              {c.header}
            </div>
            <div className={c.target ? 'dg-colhead-target' : 'dg-colhead-target dg-unused'}>
              {c.target ?? 'not used'}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
