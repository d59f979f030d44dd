import { describe, expect, it } from 'vitest';
import type { LedgerGroup, LedgerIntent } from './ledgerShapes';
import { sentFingerprints } from './duplicateGuard';

function upload(id: string, environment: string, baseUrl: string, fingerprints: string[]): LedgerGroup {
  return {
    id,
    workspaceId: 'ws-12345678',
    workspaceName: 'Gifts',
    createdAt: '2026-11-22T05:00:00.000Z',
    environment,
    baseUrl,
    referenceKey: 'ddRef',
    parts: [
      {
        index: 0,
        rowKeys: fingerprints.map((_, i) => i),
        rowNumbers: fingerprints.map((_, i) => i + 2),
        fingerprints,
        totals: [],
        fileHash: 'ab',
        fileBytes: 10,
        file: `files/${id}-0.json.gz`,
      },
    ],
    corrects: null,
    replaces: [],
    stopped: null,
  };
}

function processed(groupId: string): LedgerIntent {
  return {
    attemptId: `a-${groupId}`,
    serviceId: `svc-${groupId}`,
    groupId,
    part: 0,
    state: 'PROCESSED',
    createdAt: '2026-11-22T05:00:01.000Z',
    updatedAt: '2026-11-22T05:00:01.000Z',
    expiresAt: null,
    timeline: [],
    counts: {},
    error: null,
    donationRowKeys: null,
    correctedByUpload: null,
  };
}

const groups = [
  upload('tried-offline', 'offline', 'http://127.0.0.1:4100/v1', ['a']),
  upload('tried-sandbox', 'sandbox', 'https://sandbox.example/v1', ['b']),
  upload('real', 'production', 'https://api.example/v1', ['c']),
  upload('other-custom', 'custom', 'https://one.example/v1', ['d']),
];
const intents = groups.map((g) => processed(g.id));

describe('duplicate guard', () => {
  it('counts only rows sent to the environment in use', () => {
    const production = { id: 'production', baseUrl: 'https://api.example/v1/', emulated: false };
    expect([...sentFingerprints(groups, intents, production).keys()]).toEqual(['c']);
    const sandbox = { id: 'sandbox', baseUrl: 'https://sandbox.example/v1', emulated: false };
    expect([...sentFingerprints(groups, intents, sandbox).keys()]).toEqual(['b']);
  });

  it('tells two custom services apart by their address', () => {
    const another = { id: 'custom', baseUrl: 'https://two.example/v1', emulated: false };
    expect(sentFingerprints(groups, intents, another).size).toBe(0);
  });

  it('knows the Offline sandbox across launches, whose address changes each time', () => {
    const offline = { id: 'offline', baseUrl: 'http://127.0.0.1:5123/v1', emulated: true };
    expect([...sentFingerprints(groups, intents, offline).keys()]).toEqual(['a']);
  });
});
