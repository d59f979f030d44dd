import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DeskFailure } from '../../../shared/result';
import { checkWorkspace, parseWorkspaceMapping } from '../../../shared/workspace';
import type { Workspace } from '../../../shared/contract';

const gzipAsync = promisify(gzip);

/**
 * The bulk file exactly as an upload would send it (top-level `data` only), for audit. Main checks
 * every row again with the shared rules: what the renderer showed is not trusted.
 */
export async function exportBulkFile(workspace: Workspace): Promise<{
  fileName: string;
  bytes: Buffer;
  donations: number;
  skipped: number;
}> {
  const mapping = parseWorkspaceMapping(workspace.mapping);
  if (!mapping) {
    throw new DeskFailure(
      'NO_MAPPING',
      'This workspace has no usable column mapping yet. Match the columns first.',
    );
  }
  const check = checkWorkspace(workspace.id, workspace.headers, mapping, workspace.rows);
  const data = check.results.flatMap((r) => (r.ok ? [{ type: 'donations', attributes: r.donation }] : []));
  if (data.length === 0) {
    throw new DeskFailure('NOTHING_VALID', 'No row is valid yet, so there is nothing to put in a bulk file.');
  }
  const bytes = await gzipAsync(Buffer.from(JSON.stringify({ data })));
  const safeName =
    workspace.name
      .replace(/[^A-Za-z0-9 _-]+/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'donations';
  return { fileName: `${safeName}.json.gz`, bytes, donations: data.length, skipped: check.counts.invalid };
}
