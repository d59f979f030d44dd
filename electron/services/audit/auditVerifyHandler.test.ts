import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase } from '../db/deskDatabase';
import { createAuditServices } from './index';
import type { AuditSharing, SharedAuditTrail, TrailCheck } from './auditSharing';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dd-audit-verify-'));
});
afterEach(async () => {
  closeDatabase(dataDir);
  await rm(dataDir, { recursive: true, force: true });
});

const teamCheck: TrailCheck = {
  trail: 'team',
  whole: false,
  entries: 40,
  firstBroken: {
    seq: 12,
    at: '2026-11-03T14:22:00.000Z',
    reason: 'its content was changed after it was written',
  },
};
const someTrail = {} as SharedAuditTrail;

function services(sharing?: AuditSharing) {
  const audit = createAuditServices({
    dataDir,
    identity: { person: () => 'ana', computer: () => 'PC' },
    environment: () => 'offline',
    ...(sharing ? { sharing } : {}),
  });
  audit.trail.record('settings', {}, { changes: [] });
  audit.trail.record('dismiss', { donationId: 'd1' }, { reason: 'duplicate' });
  return audit.handlers;
}

describe('audit.verify', () => {
  it('checks the data folder’s trail alone', async () => {
    expect(await services()['audit.verify']()).toEqual([{ trail: 'folder', whole: true, entries: 2 }]);
  });

  it('adds the team’s check while a team trail is in force and the sharing can check it', async () => {
    let inForce = true;
    const sharing: AuditSharing = {
      schedule: () => undefined,
      sharedTrail: async () => (inForce ? someTrail : null),
      verifyTeamTrail: async () => teamCheck,
    };
    const handlers = services(sharing);
    expect(await handlers['audit.verify']()).toEqual([
      { trail: 'folder', whole: true, entries: 2 },
      teamCheck,
    ]);
    inForce = false;
    expect(await handlers['audit.verify']()).toEqual([{ trail: 'folder', whole: true, entries: 2 }]);
  });

  it('checks the folder’s alone when the sharing cannot check its trail', async () => {
    const sharing: AuditSharing = { schedule: () => undefined, sharedTrail: async () => someTrail };
    expect(await services(sharing)['audit.verify']()).toEqual([{ trail: 'folder', whole: true, entries: 2 }]);
  });
});
