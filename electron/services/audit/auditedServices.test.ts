import { describe, expect, it } from 'vitest';
import type { PublicSettings } from '../../../shared/contract';
import { settingsChanges } from './auditedServices';

const remote = (over: Partial<PublicSettings['remotes']['sandbox']> = {}) => ({
  addresses: { baseUrl: '', tokenUrl: '', programDomain: '' },
  clientId: '',
  hasClientSecret: false,
  secretSource: 'none' as const,
  ...over,
});
const settings = (over: Partial<PublicSettings> = {}): PublicSettings => ({
  environment: 'offline',
  remotes: { sandbox: remote(), production: remote(), custom: remote() },
  secretStorage: 'session-only',
  secretStorageNote: '',
  firstRunDone: true,
  teamDatabase: { address: '', server: null, passwordStored: false, source: 'none', passwordNote: '' },
  ...over,
});

describe('settingsChanges', () => {
  it('lists the environment and addresses from → to, and a secret only as replaced or removed', () => {
    const before = settings();
    const after = settings({
      environment: 'production',
      remotes: {
        ...before.remotes,
        production: remote({
          addresses: { baseUrl: 'https://api.example.org', tokenUrl: '', programDomain: '' },
          hasClientSecret: true,
          secretSource: 'session',
        }),
      },
    });
    const changes = settingsChanges(before, after, {
      environment: 'production',
      remote: { id: 'production', clientSecret: 's3cret' },
    });
    expect(changes).toEqual([
      { setting: 'environment', from: 'offline', to: 'production' },
      { setting: 'production.baseUrl', from: '', to: 'https://api.example.org' },
      { setting: 'production.clientSecret', change: 'replaced' },
    ]);
    expect(JSON.stringify(changes)).not.toContain('s3cret');
    expect(settingsChanges(after, after, { remote: { id: 'production', clientSecret: '' } })).toEqual([
      { setting: 'production.clientSecret', change: 'removed' },
    ]);
    expect(settingsChanges(after, after, {})).toEqual([]);
  });

  it('lists the team database address from → to, and its password only as replaced or removed', () => {
    const alone = settings();
    const team = settings({
      teamDatabase: {
        address: 'postgres://bob@db.example.com:5432/desk',
        server: 'db.example.com:5432/desk',
        passwordStored: true,
        source: 'settings',
        passwordNote: '',
      },
    });
    const changes = settingsChanges(alone, team, {
      teamDatabase: { address: 'postgres://bob:hunter2@db.example.com:5432/desk' },
    });
    expect(changes).toEqual([
      { setting: 'teamDatabase.address', from: '', to: 'postgres://bob@db.example.com:5432/desk' },
      { setting: 'teamDatabase.password', change: 'replaced' },
    ]);
    expect(JSON.stringify(changes)).not.toContain('hunter2');
    expect(settingsChanges(team, alone, { teamDatabase: null })).toEqual([
      { setting: 'teamDatabase.address', from: 'postgres://bob@db.example.com:5432/desk', to: '' },
      { setting: 'teamDatabase.password', change: 'removed' },
    ]);
  });
});
