import { describe, expect, it, vi } from 'vitest';
import { DeskFailure } from '../result';
import { channelNames, dispatch, type Services } from './index';

function services(overrides: Partial<Services> = {}): Services {
  const base = Object.fromEntries(channelNames.map((c) => [c, vi.fn()])) as unknown as Services;
  return { ...base, ...overrides };
}

const settings = {
  environment: 'offline',
  remotes: Object.fromEntries(
    ['sandbox', 'production', 'custom'].map((id) => [
      id,
      {
        addresses: { baseUrl: '', tokenUrl: '', programDomain: '' },
        clientId: '',
        hasClientSecret: false,
        secretSource: 'none',
      },
    ]),
  ),
  secretStorage: 'session-only',
  secretStorageNote: 'n',
  firstRunDone: false,
  teamDatabase: { address: '', server: null, passwordStored: false, source: 'none', passwordNote: 'n' },
};

describe('dispatch', () => {
  it('refuses an unknown channel', async () => {
    const r = await dispatch(services(), 'fs.readEverything', {}, { transport: 'test' });
    expect(r).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
  });

  it('validates the input before the handler runs', async () => {
    const save = vi.fn();
    const r = await dispatch(
      services({ 'settings.save': save }),
      'settings.save',
      { environment: 'moon' },
      { transport: 'test' },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('INVALID_INPUT');
      expect(r.error.message).toMatch(/^Environment: /);
    }
    expect(save).not.toHaveBeenCalled();
    const extra = await dispatch(
      services({ 'settings.save': save }),
      'settings.save',
      { sneaky: 1 },
      { transport: 'test' },
    );
    expect(extra.ok).toBe(false);
  });

  it('validates the output too', async () => {
    const onUnexpected = vi.fn();
    const r = await dispatch(
      services({
        'settings.get': (() => ({ environment: 'offline' })) as unknown as Services['settings.get'],
      }),
      'settings.get',
      {},
      { transport: 'test' },
      onUnexpected,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
    expect(onUnexpected).toHaveBeenCalled();
  });

  it('passes a deliberate failure through and hides an unexpected one', async () => {
    const failing = await dispatch(
      services({
        'settings.get': () => {
          throw new DeskFailure('NOT_CONFIGURED', 'Enter the client id.');
        },
      }),
      'settings.get',
      {},
      { transport: 'test' },
    );
    expect(failing).toEqual({
      ok: false,
      error: { code: 'NOT_CONFIGURED', message: 'Enter the client id.' },
    });
    const crashing = await dispatch(
      services({
        'settings.get': () => {
          throw new Error('ENOENT /home/someone/secret-path');
        },
      }),
      'settings.get',
      {},
      { transport: 'test' },
    );
    expect(crashing.ok).toBe(false);
    expect(JSON.stringify(crashing)).not.toContain('secret-path');
  });

  it('returns the parsed value on success', async () => {
    const r = await dispatch(
      services({ 'settings.get': () => settings as never }),
      'settings.get',
      undefined,
      { transport: 'test' },
    );
    expect(r).toEqual({ ok: true, value: settings });
  });
});
