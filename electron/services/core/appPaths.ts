import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the plain-Node builds (out/bridge, out/cli, out/emulator) find the project's files: the
 * bundles sit two levels below the package root.
 */
export function packageRoot(fromDir: string): string {
  return join(fromDir, '..', '..');
}

export function packageVersion(root: string): string {
  try {
    const parsed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
