import { describe, expect, it } from 'vitest';
import { dispatch, type Services } from '.';
import { isProgramDomain, programUrlOf, settingsUpdateSchema } from './channels';

/*
 * What Settings accepts for a program domain, and how a refusal reads: Custom may use a service on
 * this computer (the emulator two people share to try team mode), and a refused field is named as
 * the Settings page labels it, never by its path in the request.
 */

const custom = (programDomain: string, baseUrl = 'http://127.0.0.1:4010') => ({
  environment: 'custom' as const,
  remote: {
    id: 'custom' as const,
    addresses: { baseUrl, tokenUrl: `${baseUrl}/oauth2/token`, programDomain },
  },
});

describe('the program domain', () => {
  it('accepts a service on this computer: localhost or 127.0.0.1, with a port', () => {
    for (const d of ['localhost:4010', '127.0.0.1:4010', 'localhost', '127.0.0.1:65535']) {
      expect(settingsUpdateSchema.safeParse(custom(d)).success, d).toBe(true);
    }
    expect(settingsUpdateSchema.safeParse(custom('localhost:4010', 'http://localhost:4010')).success).toBe(
      true,
    );
  });

  it('still accepts a domain, and refuses what is neither', () => {
    expect(isProgramDomain('giving.example.com')).toBe(true);
    for (const d of [
      'https://giving.example.com',
      'localhost:0',
      'localhost:99999',
      '10.0.0.1:4010',
      'giving',
    ]) {
      expect(isProgramDomain(d), d).toBe(false);
    }
  });

  it('opens pages on this computer over http, and every other domain over https', () => {
    expect(programUrlOf('localhost:4010')).toBe('http://localhost:4010');
    expect(programUrlOf('127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(programUrlOf('giving.example.com')).toBe('https://giving.example.com');
    expect(programUrlOf('')).toBe('');
  });
});

describe('a refused field, in plain words', () => {
  const services = { 'settings.save': () => ({}) } as unknown as Services;

  it('names the field as the Settings page labels it', async () => {
    const result = await dispatch(services, 'settings.save', custom('giving'), { transport: 'test' });
    expect(result.ok).toBe(false);
    const message = !result.ok ? result.error.message : '';
    expect(message).toMatch(/^Program domain: Enter a domain such as giving\.example\.com/);
    expect(message).not.toContain('remote.addresses');
  });

  it('says which address is wrong by its label too', async () => {
    const result = await dispatch(services, 'settings.save', custom('localhost:4010', 'ftp://x'), {
      transport: 'test',
    });
    expect(!result.ok && result.error.message).toMatch(/^Service address: /);
  });
});
