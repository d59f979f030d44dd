import { createHash } from 'node:crypto';
import { DeskFailure } from '../../../shared/result';
import { codeOnly, splitStatements, withoutComments } from './sqlText';

/*
 * Schemas as numbered `.sql` files, as Flyway lays them out, for both the data folder's SQLite
 * database and the team's PostgreSQL database:
 *
 *   V001__what_it_does.sql  versioned: applied once, in order; never edited once released
 *   R__what_it_defines.sql  repeatable: (re)applied after the versioned ones whenever its text changes
 *
 * Each file applied is recorded (name, version, SHA-256 of its text) in a history table. Before
 * anything runs, the history is checked against the files: a released file edited, renumbered or
 * removed is refused with a message naming it. A database made before the history existed (its own
 * version marker only: SQLite's user_version, the team's desk.schema_version) is adopted: the files
 * up to its version are recorded as applied, once the objects they create are found there, and
 * none is run again.
 *
 * This module plans; each dialect's adapter (sqliteMigrations.ts, team/teamMigrator.ts) runs the
 * plan in one transaction and keeps the old version marker up to date for older app versions.
 */

export interface MigrationSource {
  /** The file's name, e.g. V002__audit_trail.sql. */
  name: string;
  text: string;
}

export interface Migration extends MigrationSource {
  kind: 'versioned' | 'repeatable';
  /** The number of a versioned file; null for a repeatable one. */
  version: number | null;
  /** From the file's `-- Summary:` line (versioned files), else its name. */
  summary: string;
  checksum: string;
}

/** One row of the history table. */
export interface AppliedMigration {
  name: string;
  version: number | null;
  checksum: string;
}

/** What a database says about itself before anything runs. */
export interface MigrationState {
  /** The history table's rows; null when the database has none yet. */
  history: AppliedMigration[] | null;
  /** The old version marker (0 for an empty database). */
  legacyVersion: number;
}

export interface MigrationStep {
  /** `adopt`: already in the database (made before the history); recorded, not run. */
  action: 'apply' | 'adopt';
  migration: Migration;
}

const VERSIONED = /^V(\d+)__[a-z0-9_]+\.sql$/;
const REPEATABLE = /^R__[a-z0-9_]+\.sql$/;

/** SHA-256 of a file's text, with Windows line ends read as Unix ones (a checkout may convert them). */
export function checksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

function refused(where: string, message: string): DeskFailure {
  return new DeskFailure('SCHEMA_MISMATCH', `${where}: ${message}`);
}

/** The files in the order they apply: versioned by number, then repeatable by name. */
export function loadMigrations(sources: readonly MigrationSource[]): Migration[] {
  const byVersion = new Map<number, string>();
  const migrations = sources.map((source): Migration => {
    const versioned = VERSIONED.exec(source.name);
    if (!versioned && !REPEATABLE.test(source.name)) {
      throw new Error(`${source.name} is not a migration file name (V001__words.sql or R__words.sql).`);
    }
    const version = versioned ? Number(versioned[1]) : null;
    if (version !== null) {
      const twin = byVersion.get(version);
      if (twin) throw new Error(`${twin} and ${source.name} have the same version ${version}.`);
      byVersion.set(version, source.name);
    }
    const summary = /^-- Summary: (.+)$/m.exec(source.text)?.[1]?.trim() ?? source.name;
    return {
      ...source,
      kind: version === null ? 'repeatable' : 'versioned',
      version,
      summary,
      checksum: checksum(source.text),
    };
  });
  return migrations.sort((a, b) =>
    a.version !== null && b.version !== null
      ? a.version - b.version
      : a.version !== null
        ? -1
        : b.version !== null
          ? 1
          : a.name.localeCompare(b.name),
  );
}

/** The highest version among the files. */
export function latestVersion(migrations: readonly Migration[]): number {
  return Math.max(0, ...migrations.map((m) => m.version ?? 0));
}

/**
 * What to do to bring a database to the files, or a refusal naming the file when its history and
 * the files disagree. `where` names the database in messages.
 */
export function planMigrations(
  migrations: readonly Migration[],
  state: MigrationState,
  where: string,
): MigrationStep[] {
  const versioned = migrations.filter((m) => m.kind === 'versioned');
  const repeatable = migrations.filter((m) => m.kind === 'repeatable');
  const steps: MigrationStep[] = [];
  const applied = new Map((state.history ?? []).map((h) => [h.name, h]));

  if (state.history === null) {
    for (const m of versioned) {
      steps.push({ action: m.version! <= state.legacyVersion ? 'adopt' : 'apply', migration: m });
    }
  } else {
    const last = Math.max(0, ...state.history.map((h) => h.version ?? 0));
    for (const h of state.history) {
      if (h.version === null) continue;
      const file = migrations.find((m) => m.name === h.name);
      if (!file) {
        const renamed = versioned.find((m) => m.version === h.version);
        throw refused(
          where,
          renamed
            ? `${h.name} was applied to it, but this Donation Desk has ${renamed.name} as version ${h.version}: a released migration was renamed or renumbered.`
            : `${h.name} was applied to it, but this Donation Desk has no such migration: a released migration was removed or renumbered.`,
        );
      }
      if (file.checksum !== h.checksum) {
        throw refused(
          where,
          `${h.name} was changed after it was applied (SHA-256 ${h.checksum} then, ${file.checksum} now): a released migration is never edited; a new file changes what it did.`,
        );
      }
    }
    for (const m of versioned) {
      if (applied.has(m.name)) continue;
      if (m.version! < last) {
        throw refused(
          where,
          `${m.name} has not been applied, but version ${last} already was: a migration was added below the last one applied, or renumbered.`,
        );
      }
      steps.push({ action: 'apply', migration: m });
    }
  }

  // A repeatable file that a baseline file being adopted already ran word for word is there as it is.
  const adopted = steps.filter((s) => s.action === 'adopt').map((s) => s.migration);
  const adoptedStatements = new Set(adopted.flatMap((m) => splitStatements(m.text).map(normalised)));
  for (const m of repeatable) {
    if (applied.get(m.name)?.checksum === m.checksum) continue;
    const already =
      adopted.length > 0 && splitStatements(m.text).every((s) => adoptedStatements.has(normalised(s)));
    steps.push({ action: already ? 'adopt' : 'apply', migration: m });
  }
  return steps;
}

function normalised(statement: string): string {
  return withoutComments(statement).trim();
}

/**
 * The objects a series of files leaves behind, as `kind:name` keys (`table:desk.upload`,
 * `index:audit_at`, `trigger:…`, `function:desk.decide`, `column:donation.mark`): what adopting
 * them checks is there. Names are as the files write them; dropped ones are taken out again.
 */
export function expectedObjects(migrations: readonly Migration[]): Set<string> {
  const objects = new Set<string>();
  const patterns: Array<[RegExp, (m: RegExpExecArray) => string, boolean]> = [
    [/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)/gi, (m) => `table:${m[1]}`, true],
    [/\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)/gi, (m) => `index:${m[1]}`, true],
    [/\bCREATE\s+TRIGGER\s+([\w.]+)/gi, (m) => `trigger:${m[1]}`, true],
    [/\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([\w.]+)/gi, (m) => `function:${m[1]}`, true],
    [/\bALTER\s+TABLE\s+([\w.]+)\s+ADD\s+COLUMN\s+(\w+)/gi, (m) => `column:${m[1]}.${m[2]}`, true],
    [/\bDROP\s+(TABLE|INDEX|TRIGGER)\s+(?:IF\s+EXISTS\s+)?([\w.]+)/gi, (m) => `${m[1]}:${m[2]}`, false],
  ];
  for (const migration of migrations) {
    const code = codeOnly(migration.text);
    const found: Array<{ at: number; key: string; add: boolean }> = [];
    for (const [pattern, key, add] of patterns) {
      for (const m of code.matchAll(pattern)) found.push({ at: m.index, key: key(m).toLowerCase(), add });
    }
    for (const { key, add } of found.sort((a, b) => a.at - b.at)) {
      if (add) objects.add(key);
      else objects.delete(key);
    }
  }
  return objects;
}

/** Refuses adopting a database that lacks what its version marker says it has. */
export function checkAdopted(
  steps: readonly MigrationStep[],
  existing: ReadonlySet<string>,
  where: string,
  legacyVersion: number,
): void {
  const baseline = steps.filter((s) => s.action === 'adopt' && s.migration.kind === 'versioned');
  if (baseline.length === 0) return;
  const missing = [...expectedObjects(baseline.map((s) => s.migration))].filter((o) => !existing.has(o));
  if (missing.length > 0) {
    const shown =
      missing.slice(0, 8).join(', ') + (missing.length > 8 ? `, and ${missing.length - 8} more` : '');
    throw refused(
      where,
      `it says it is at schema version ${legacyVersion}, but lacks what ${baseline.at(-1)!.migration.name} and the files before it make (${shown}). It was not made by a released Donation Desk; nothing was changed.`,
    );
  }
}
