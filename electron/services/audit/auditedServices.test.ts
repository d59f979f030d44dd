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
});
