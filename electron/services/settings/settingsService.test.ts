import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SecretBox } from '../core/platform';
import { openSettingsFile } from './keyValueStore';
import { SettingsService } from './settingsService';

function fakeBox(backend: string, strong: boolean): SecretBox {
  return {
    backend: () => backend,
    isStrong: () => strong,
    encrypt: (plain) => Buffer.from(`sealed:${plain}`).toString('base64').split('').reverse().join(''),
    decrypt: (sealed) =>
      Buffer.from(sealed.split('').reverse().join(''), 'base64')
        .toString()
        .replace(/^sealed:/, ''),
  };
}

async function tempDir() {
  return mkdtemp(join(tmpdir(), 'desk-settings-'));
}

const sandboxAddresses = {
  baseUrl: 'https://api.sandbox.example.org',
  tokenUrl: 'https://auth.sandbox.example.org/oauth2/token',
  programDomain: 'giving.example.org',
};

describe('SettingsService', () => {
  it('starts on the Offline sandbox with nothing configured', async () => {
    const s = new SettingsService(openSettingsFile(await tempDir()), null);
    const pub = s.publicSettings();
    expect(pub.environment).toBe('offline');
    expect(pub.firstRunDone).toBe(false);
    expect(pub.remotes.sandbox.hasClientSecret).toBe(false);
  });

  it('seals the secret with a strong OS key store and keeps it across a restart', async () => {
    const dir = await tempDir();
    const box = fakeBox('gnome_libsecret', true);
    const s = new SettingsService(openSettingsFile(dir), box);
    s.update({
      environment: 'sandbox',
      remote: {
        id: 'sandbox',
        addresses: sandboxAddresses,
        clientId: 'client-1',
        clientSecret: 'pa55-word',
      },
    });
    const onDisk = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(onDisk).not.toContain('pa55-word');
    expect(onDisk).toContain('sealedSecret');

    const reopened = new SettingsService(openSettingsFile(dir), box);
    expect(reopened.environment()).toBe('sandbox');
    expect(reopened.remoteConfig('sandbox').clientSecret).toBe('pa55-word');
    expect(reopened.publicSettings().remotes.sandbox.secretSource).toBe('encrypted');
  });

  it('refuses to write a secret when only the plain-text backend exists, and says so', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), fakeBox('basic_text', false));
    const pub = s.update({ remote: { id: 'production', clientId: 'c', clientSecret: 'plain-secret' } });
    expect(pub.secretStorage).toBe('session-only');
    expect(pub.secretStorageNote).toMatch(/basic_text/);
    expect(pub.remotes.production.secretSource).toBe('session');
    expect(s.remoteConfig('production').clientSecret).toBe('plain-secret');
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).not.toContain('plain-secret');
    // A restart forgets it.
    const reopened = new SettingsService(openSettingsFile(dir), fakeBox('basic_text', false));
    expect(reopened.remoteConfig('production').clientSecret).toBeNull();
  });

  it('never puts a secret in the public settings', async () => {
    const s = new SettingsService(openSettingsFile(await tempDir()), fakeBox('keychain', true));
    const pub = s.update({ remote: { id: 'custom', clientSecret: 'zz-secret-zz' } });
    expect(JSON.stringify(pub)).not.toContain('zz-secret-zz');
    expect(pub.remotes.custom.hasClientSecret).toBe(true);
  });

  it('forgets a secret when given an empty one', async () => {
    const s = new SettingsService(openSettingsFile(await tempDir()), fakeBox('keychain', true));
    s.update({ remote: { id: 'custom', clientSecret: 'x' } });
    expect(s.update({ remote: { id: 'custom', clientSecret: '' } }).remotes.custom.hasClientSecret).toBe(
      false,
    );
  });

  it('reads credentials and preset addresses from the environment when none are saved', async () => {
    const s = new SettingsService(openSettingsFile(await tempDir()), null, {
      DONATION_DESK_CLIENT_ID: 'env-id',
      DONATION_DESK_CLIENT_SECRET: 'env-secret',
      DONATION_DESK_SANDBOX_BASE_URL: 'https://sandbox.example.org',
    });
    const config = s.remoteConfig('sandbox');
    expect(config).toMatchObject({
      clientId: 'env-id',
      clientSecret: 'env-secret',
      baseUrl: 'https://sandbox.example.org',
    });
    expect(s.publicSettings().remotes.sandbox.secretSource).toBe('environment');
  });
});

describe('SettingsService refuses an environment that cannot work', () => {
  it('refuses to choose Production with no addresses or credentials, saying what is missing, and saves nothing', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), null);
    expect(() => s.update({ environment: 'production' })).toThrow(
      'Production cannot be used yet: enter its service address, token address, client id, client secret first, or choose the Offline sandbox. Nothing was saved.',
    );
    expect(() =>
      s.update({
        environment: 'custom',
        remote: { id: 'custom', addresses: sandboxAddresses, clientId: 'c', clientSecret: '' },
      }),
    ).toThrow(/Custom cannot be used yet: enter its client secret first/);
    expect(s.environment()).toBe('offline');
    expect(s.remoteConfig('custom').baseUrl).toBe('');
  });

  it('takes an environment once everything it needs is there, and then refuses emptying it', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), null);
    s.update({
      environment: 'custom',
      remote: { id: 'custom', addresses: sandboxAddresses, clientId: 'c', clientSecret: 's' },
    });
    expect(s.environment()).toBe('custom');
    // Saving it again without retyping the secret keeps it usable.
    s.update({ environment: 'custom', remote: { id: 'custom', clientId: 'c2' } });
    expect(() => s.update({ remote: { id: 'custom', clientId: '' } })).toThrow(/enter its client id first/);
    expect(s.remoteConfig('custom').clientId).toBe('c2');
    // Another environment's fields may be filled in part while the Offline sandbox is in force.
    s.update({ environment: 'offline' });
    s.update({ remote: { id: 'production', clientId: 'later' } });
    expect(s.remoteConfig('production').clientId).toBe('later');
  });
});

describe('SettingsService run overrides', () => {
  it('applies --env and addresses for this run without saving them', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), null);
    s.overrideForRun({
      environment: 'custom',
      baseUrl: 'https://x.example.org',
      tokenUrl: 'https://x.example.org/t',
    });
    expect(s.environment()).toBe('custom');
    expect(s.remoteConfig('custom').baseUrl).toBe('https://x.example.org');
    const reopened = new SettingsService(openSettingsFile(dir), null);
    expect(reopened.environment()).toBe('offline');
    expect(reopened.remoteConfig('custom').baseUrl).toBe('');
  });
});

describe('SettingsService: the team database', () => {
  const address = 'postgres://bob@db.example.com:5432/desk';

  it('keeps the address in plain and the password sealed, never in the public settings', async () => {
    const dir = await tempDir();
    const box = fakeBox('keychain', true);
    const s = new SettingsService(openSettingsFile(dir), box);
    const pub = s.update({ teamDatabase: { address: 'postgres://bob:hunter2@db.example.com:5432/desk' } });
    expect(pub.teamDatabase).toMatchObject({
      address,
      server: 'db.example.com:5432/desk',
      passwordStored: true,
      source: 'settings',
    });
    expect(JSON.stringify(pub)).not.toContain('hunter2');
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).not.toContain('hunter2');
    const reopened = new SettingsService(openSettingsFile(dir), box);
    expect(reopened.teamDatabaseUrl()).toBe('postgres://bob:hunter2@db.example.com:5432/desk');
  });

  it('keeps the stored password when the same login is saved again without one, forgets it on another', async () => {
    const s = new SettingsService(openSettingsFile(await tempDir()), fakeBox('keychain', true));
    s.update({ teamDatabase: { address, password: 'p@ss:word' } });
    expect(s.teamDatabaseUrl()).toBe('postgres://bob:p%40ss%3Aword@db.example.com:5432/desk');
    s.update({ teamDatabase: { address } });
    expect(s.publicSettings().teamDatabase.passwordStored).toBe(true);
    expect(s.teamDatabaseUrlToTest(address)).toBe('postgres://bob:p%40ss%3Aword@db.example.com:5432/desk');
    // Another login is not given bob's password, neither to test nor to keep.
    expect(s.teamDatabaseUrlToTest('postgres://alice@db.example.com:5432/desk')).toBe(
      'postgres://alice@db.example.com:5432/desk',
    );
    s.update({ teamDatabase: { address: 'postgres://alice@db.example.com:5432/desk' } });
    expect(s.publicSettings().teamDatabase.passwordStored).toBe(false);
  });

  it('keeps the password for this session only without a strong key store', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), null);
    s.update({ teamDatabase: { address, password: 'session-only-pw' } });
    expect(s.teamDatabaseUrl()).toContain('session-only-pw');
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).not.toContain('session-only-pw');
    expect(new SettingsService(openSettingsFile(dir), null).teamDatabaseUrl()).toBe(address);
  });

  it('goes back to working alone on Disconnect, and says when DONATION_DESK_DATABASE_URL wins', async () => {
    const dir = await tempDir();
    const s = new SettingsService(openSettingsFile(dir), fakeBox('keychain', true));
    s.update({ teamDatabase: { address, password: 'x' } });
    const alone = s.update({ teamDatabase: null });
    expect(alone.teamDatabase).toMatchObject({
      address: '',
      server: null,
      passwordStored: false,
      source: 'none',
    });
    expect(s.teamDatabaseUrl()).toBeNull();
    const withVariable = new SettingsService(openSettingsFile(dir), null, {
      DONATION_DESK_DATABASE_URL: 'postgres://carol:secret@10.0.0.5:6543/books',
    });
    const pub = withVariable.publicSettings().teamDatabase;
    expect(pub).toMatchObject({ source: 'environment', server: '10.0.0.5:6543/books' });
    expect(JSON.stringify(pub)).not.toContain('secret');
  });
});
