import { latestVersion, loadMigrations } from '../db/migrationRunner';
import auditStamp from './migrations/R__audit_stamp.sql?raw';
import decide from './migrations/R__decide.sql?raw';
import markSent from './migrations/R__mark_sent.sql?raw';
import ruleChanged from './migrations/R__rule_changed.sql?raw';
import unmarkSent from './migrations/R__unmark_sent.sql?raw';
import uploadFiles from './migrations/R__upload_files.sql?raw';

import teamNews from './migrations/R__team_news.sql?raw';
import uploadGuarded from './migrations/R__upload_guarded.sql?raw';
import uploadSubmitted from './migrations/R__upload_submitted.sql?raw';
import v001 from './migrations/V001__uploads_approvals_audit_corrections.sql?raw';
import v002 from './migrations/V002__shared_ledger_and_approver_sends.sql?raw';
import v003 from './migrations/V003__sealed_trail_stored_parts_and_duties.sql?raw';

/*
 * The team database's schema: the files in migrations/, which `donation-desk db init-team` applies
 * (and prints) through teamMigrator.ts. One schema `desk`, three group roles, the tables, and the
 * rules that a modified client cannot skip — grants, triggers, and SECURITY DEFINER functions that
 * are the only way an upload changes state (V001's header says more, with the DD refusal codes).
 *
 * Never edit a released versioned file: add the next one (and list it here). A function redefined
 * over time lives in a repeatable file (R__), re-applied whenever its text changes. Later versions
 * stay additive, so an app one version behind keeps working while the team updates; the app only
 * checks the version (desk.schema_version) on connect.
 */
export const TEAM_MIGRATIONS = loadMigrations([
  { name: 'V001__uploads_approvals_audit_corrections.sql', text: v001 },
  { name: 'V002__shared_ledger_and_approver_sends.sql', text: v002 },
  { name: 'V003__sealed_trail_stored_parts_and_duties.sql', text: v003 },
  { name: 'R__audit_stamp.sql', text: auditStamp },
  { name: 'R__decide.sql', text: decide },
  { name: 'R__mark_sent.sql', text: markSent },
  { name: 'R__rule_changed.sql', text: ruleChanged },
  { name: 'R__unmark_sent.sql', text: unmarkSent },
  { name: 'R__upload_files.sql', text: uploadFiles },

  { name: 'R__team_news.sql', text: teamNews },
  { name: 'R__upload_guarded.sql', text: uploadGuarded },
  { name: 'R__upload_submitted.sql', text: uploadSubmitted },
]);

export const TEAM_SCHEMA_VERSION = latestVersion(TEAM_MIGRATIONS);

/** The desk's group roles: NOLOGIN, granted to each person's own login by the team's admin. */
export const TEAM_ROLES = ['desk_preparer', 'desk_approver', 'desk_admin'] as const;

/** The audit entries the database itself writes (origin 'team-database'). */
export const TEAM_AUDIT_ACTIONS = [
  'submit',
  'approve',
  'reject',
  'void',
  'send',
  'not-sent',
  'release-rows',
  'team-rule',
  'correction-claim',
  'correction-done',
  'correction-abandon',
] as const;
/** Written into the migration files' functions as a literal (a test checks they agree). */
export const TEAM_AUDIT_ORIGIN = 'team-database';
