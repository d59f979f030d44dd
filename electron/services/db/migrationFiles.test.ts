import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEAM_AUDIT_ORIGIN, TEAM_MIGRATIONS } from '../team/teamSchema';
import { checksum, type Migration } from './migrationRunner';
import { SQLITE_MIGRATIONS } from './schema';

/*
 * The released migrations, file by file, against the committed lock of their SHA-256: editing a
 * released file fails here (add the next file instead), and so does renaming, renumbering or
 * removing one. A new file is listed in its schema's module and added to the lock when released.
 */

const ROOT = join(process.cwd(), 'electron', 'services');

const dialects: Array<[string, string, readonly Migration[]]> = [
  ['SQLite (data folder)', join(ROOT, 'db'), SQLITE_MIGRATIONS],
  ['PostgreSQL (team)', join(ROOT, 'team'), TEAM_MIGRATIONS],
];

describe.each(dialects)('the %s migrations', (_name, folder, migrations) => {
  const lock = JSON.parse(readFileSync(join(folder, 'migrations.lock.json'), 'utf8')) as {
    files: Record<string, string>;
  };
  const onDisk = readdirSync(join(folder, 'migrations')).filter((n) => n.endsWith('.sql'));

  it('are every .sql file of the folder, bundled word for word', () => {
    expect(migrations.map((m) => m.name).sort()).toEqual([...onDisk].sort());
    for (const m of migrations) {
      expect(m.text, m.name).toBe(readFileSync(join(folder, 'migrations', m.name), 'utf8'));
    }
  });

  it('keep every released file exactly as it was released', () => {
    const versioned = onDisk.filter((n) => n.startsWith('V')).sort();
    expect(versioned, 'the released files (add a new one to the lock when it is released)').toEqual(
      Object.keys(lock.files).sort(),
    );
    for (const name of versioned) {
      const now = checksum(readFileSync(join(folder, 'migrations', name), 'utf8'));
      expect(now, `${name} was edited after its release: put the change in a new file`).toBe(
        lock.files[name],
      );
    }
  });

  it('are numbered 1, 2, 3… without a gap, each with a summary', () => {
    const versions = migrations.filter((m) => m.kind === 'versioned').map((m) => m.version);
    expect(versions).toEqual(versions.map((_v, i) => i + 1));
    for (const m of migrations.filter((x) => x.kind === 'versioned')) {
      expect(m.summary, m.name).not.toBe(m.name);
    }
  });
});

it('the team files sign the database’s own audit entries with the origin the app expects', () => {
  const signed = TEAM_MIGRATIONS.filter((m) => m.text.includes('origin, details)')).map((m) => m.name);
  expect(signed.length).toBeGreaterThan(0);
  for (const m of TEAM_MIGRATIONS) {
    for (const origin of m.text.matchAll(/'([a-z-]+-database)'/g)) {
      expect(origin[1], m.name).toBe(TEAM_AUDIT_ORIGIN);
    }
  }
});
