import { beforeEach, describe, expect, it, vi } from 'vitest';
import { join, resolve } from 'node:path';
import { DeskFailure } from '../../shared/result';

const electron = vi.hoisted(() => ({
  shell: { openExternal: vi.fn(async () => undefined) },
  dialog: {
    showSaveDialog: vi.fn(async (..._args: unknown[]): Promise<{ canceled: boolean; filePath?: string }> => ({
      canceled: true,
    })),
  },
}));

vi.mock('electron', () => ({
  app: {
    getVersion: () => '0.1.0',
    isPackaged: false,
    getAppPath: () => '/app',
    getPath: () => '/home/me/Documents',
  },
  BrowserWindow: { getFocusedWindow: () => null },
  dialog: electron.dialog,
  Notification: class {},
  safeStorage: {},
  shell: electron.shell,
}));

const { assetsDirFor, chooseSaveFile, createSecretBox, electronDataDir, openExternalIfAllowed } =
  await import('./platform');

describe('chooseSaveFile', () => {
  const choice = { title: 'Back up', defaultName: 'desk-1.db', extension: 'db' };

  it('offers the documents folder and the name, and gives back the chosen file', async () => {
    electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/media/usb/desk.db' });
    expect(await chooseSaveFile(choice, '/data')).toBe('/media/usb/desk.db');
    expect(electron.dialog.showSaveDialog).toHaveBeenLastCalledWith(
      expect.objectContaining({
        defaultPath: join('/home/me/Documents', 'desk-1.db'),
        filters: [{ name: 'Database backup', extensions: ['db'] }],
      }),
    );
  });

  it('gives null when the dialog is cancelled', async () => {
    electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    expect(await chooseSaveFile(choice, '/data')).toBeNull();
  });
});

function fakeStorage(available: boolean, backend: string) {
  return {
    isEncryptionAvailable: vi.fn(() => available),
    getSelectedStorageBackend: vi.fn(() => backend as 'basic_text'),
    encryptString: vi.fn((plain: string) => Buffer.from(`sealed:${plain}`)),
    decryptString: vi.fn((sealed: Buffer) => sealed.toString().replace(/^sealed:/, '')),
  };
}

describe('createSecretBox', () => {
  it('treats the Linux basic_text backend as not strong and refuses to seal with it', () => {
    const box = createSecretBox(fakeStorage(true, 'basic_text'), 'linux');
    expect(box.backend()).toBe('basic_text');
    expect(box.isStrong()).toBe(false);
    expect(() => box.encrypt('s3cret')).toThrow(DeskFailure);
  });

  it('treats an unknown Linux backend as not strong', () => {
    expect(createSecretBox(fakeStorage(true, 'unknown'), 'linux').isStrong()).toBe(false);
  });

  it.each(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6'])(
    'trusts the Linux %s backend',
    (backend) => {
      expect(createSecretBox(fakeStorage(true, backend), 'linux').isStrong()).toBe(true);
    },
  );

  it.each(['win32', 'darwin'] as const)('trusts %s when encryption is available', (platform) => {
    const storage = fakeStorage(true, 'unknown');
    const box = createSecretBox(storage, platform);
    expect(box.isStrong()).toBe(true);
    // getSelectedStorageBackend exists only on Linux.
    expect(storage.getSelectedStorageBackend).not.toHaveBeenCalled();
  });

  it.each(['win32', 'darwin', 'linux'] as const)(
    'is not strong on %s when encryption is unavailable',
    (platform) => {
      expect(createSecretBox(fakeStorage(false, 'gnome_libsecret'), platform).isStrong()).toBe(false);
    },
  );

  it('round-trips a secret through safeStorage as base64 text', () => {
    const box = createSecretBox(fakeStorage(true, 'gnome_libsecret'), 'linux');
    const sealed = box.encrypt('s3cret');
    expect(sealed).not.toContain('s3cret');
    expect(box.decrypt(sealed)).toBe('s3cret');
  });
});

describe('electronDataDir', () => {
  const userData = resolve('/home/someone/.config/Donation Desk');

  it('uses the user-data folder by default', () => {
    expect(electronDataDir(['electron', '.'], {}, userData)).toEqual({
      dataDir: userData,
      overridden: false,
    });
  });

  it.each([
    [['app', '--data-dir=/tmp/desk'], {}],
    [['app', '--data-dir', '/tmp/desk'], {}],
    [['app'], { DONATION_DESK_HOME: '/tmp/desk' }],
    [['app', '--data-dir', '/tmp/desk'], { DONATION_DESK_HOME: '/elsewhere' }],
  ])('honours %j with %j', (argv, env) => {
    expect(electronDataDir(argv, env, userData)).toEqual({ dataDir: resolve('/tmp/desk'), overridden: true });
  });

  it('makes a relative folder absolute', () => {
    expect(electronDataDir(['app', '--data-dir=desk'], {}, userData).dataDir).toBe(resolve('desk'));
  });
});

describe('assetsDirFor', () => {
  it('uses the resources folder when packaged and the project folder in development', () => {
    expect(assetsDirFor(true, '/opt/Donation Desk/resources', '/x/app.asar')).toBe(
      join('/opt/Donation Desk/resources', 'assets'),
    );
    expect(assetsDirFor(false, '/electron/resources', '/work/project')).toBe(join('/work/project', 'assets'));
  });
});

describe('openExternalIfAllowed', () => {
  beforeEach(() => electron.shell.openExternal.mockClear());
  const program = async () => 'https://giving.example.com';

  it('opens https addresses on the program domain', async () => {
    await openExternalIfAllowed('https://giving.example.com/o/1', program);
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://giving.example.com/o/1');
  });

  it.each([
    'http://giving.example.com/o/1',
    'https://other.example/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'smb://giving.example.com/share',
  ])('refuses %s without calling the shell', async (url) => {
    await expect(openExternalIfAllowed(url, program)).rejects.toMatchObject({ code: 'EXTERNAL_URL_REFUSED' });
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses everything when no program site is configured', async () => {
    await expect(
      openExternalIfAllowed('https://giving.example.com/', async () => null),
    ).rejects.toBeInstanceOf(DeskFailure);
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });
});
