import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { teamAddressSchema } from '../../../shared/contract/teamChannels';
import { DeskFailure } from '../../../shared/result';
import { teamFailure } from './teamErrors';
import { encryptionInWords } from '../../../shared/team/encryptionWords';
import { isLocalServer, teamTlsPlan } from './teamTls';

/* What the sslmode and sslrootcert people type mean here, and the one address the driver is then given. */

const base = 'postgres://alice:s3cret@db.example.com:5432/desk';
const paramsOf = (address: string) => Object.fromEntries(new URL(address).searchParams);

describe('teamTlsPlan', () => {
  it('is plaintext without sslmode, and says so to the driver so that PGSSLMODE of the process cannot change it', () => {
    const plan = teamTlsPlan(base);
    expect(plan).toMatchObject({ asked: 'plaintext', rootCert: null });
    expect(paramsOf(plan.address)).toEqual({ sslmode: 'disable' });
    expect(new URL(plan.address).password).toBe('s3cret');
  });

  it('checks certificate and host name for require, prefer and allow, as for verify-full', () => {
    for (const mode of ['require', 'prefer', 'allow', 'verify-full', 'VERIFY-FULL']) {
      const plan = teamTlsPlan(`${base}?sslmode=${mode}&sslrootcert=/etc/team/ca.crt`);
      expect(plan.asked).toBe('verify-full');
      expect(paramsOf(plan.address)).toEqual({ sslmode: 'verify-full', sslrootcert: '/etc/team/ca.crt' });
    }
  });

  it('gives verify-ca its libpq meaning (the driver is told so), and wants a CA file for it', () => {
    const plan = teamTlsPlan(`${base}?sslmode=verify-ca&sslrootcert=/etc/team/ca.crt`);
    expect(paramsOf(plan.address)).toEqual({
      sslmode: 'verify-ca',
      uselibpqcompat: 'true',
      sslrootcert: '/etc/team/ca.crt',
    });
    expect(() => teamTlsPlan(`${base}?sslmode=verify-ca`)).toThrow(
      /verify-ca checks the certificate only against a CA file/,
    );
  });

  it('takes a CA file alone, or ssl=true, as verify-full; sslrootcert=system as the built-in list', () => {
    expect(teamTlsPlan(`${base}?sslrootcert=/etc/team/ca.crt`).asked).toBe('verify-full');
    expect(paramsOf(teamTlsPlan(`${base}?ssl=true`).address)).toEqual({ sslmode: 'verify-full' });
    const system = teamTlsPlan(`${base}?sslmode=verify-full&sslrootcert=system`);
    expect(system.rootCert).toBeNull();
    expect(paramsOf(system.address)).toEqual({ sslmode: 'verify-full' });
  });

  it('drops the driver’s own switch (uselibpqcompat) that would weaken require', () => {
    const plan = teamTlsPlan(`${base}?sslmode=require&uselibpqcompat=true&application_name=x`);
    expect(paramsOf(plan.address)).toEqual({ application_name: 'x', sslmode: 'verify-full' });
  });

  it('reads PGSSLMODE and PGSSLROOTCERT only when the address says nothing', () => {
    const env = { PGSSLMODE: 'verify-full', PGSSLROOTCERT: '~/team-ca.crt' };
    expect(teamTlsPlan(base, env)).toMatchObject({
      asked: 'verify-full',
      rootCert: `${homedir()}/team-ca.crt`,
    });
    expect(teamTlsPlan(`${base}?sslmode=disable`, env).asked).toBe('plaintext');
  });

  it('refuses no-verify, modes it does not know, and a CA file that is no full path', () => {
    expect(() => teamTlsPlan(`${base}?sslmode=no-verify`)).toThrow(DeskFailure);
    expect(() => teamTlsPlan(`${base}?sslmode=on`)).toThrow(/sslmode=on is not one Donation Desk knows/);
    expect(() => teamTlsPlan(`${base}?sslmode=verify-full&sslrootcert=ca.crt`)).toThrow(
      /must be a full path/,
    );
  });
});

describe('isLocalServer and the words for encryption', () => {
  it('knows loopback and sockets from servers across a network', () => {
    expect(isLocalServer('postgres://a@127.0.0.1/desk')).toBe(true);
    expect(isLocalServer('postgres://a@localhost:5433/desk')).toBe(true);
    expect(isLocalServer('postgres://a@[::1]/desk')).toBe(true);
    expect(isLocalServer('postgres://a@db.example.com/desk?host=%2Fvar%2Frun%2Fpostgresql')).toBe(true);
    expect(isLocalServer('postgres://a@db.example.com/desk')).toBe(false);
    expect(isLocalServer('postgres://a@10.0.0.5/desk')).toBe(false);
  });

  it('warns of plaintext only for a server across a network', () => {
    expect(encryptionInWords({ encrypted: true, protocol: 'TLSv1.3' }, false)).toBe('encrypted (TLSv1.3)');
    expect(encryptionInWords({ encrypted: false, protocol: null }, true)).toBe(
      'not encrypted (the server is on this computer)',
    );
    expect(encryptionInWords({ encrypted: false, protocol: null }, false)).toMatch(
      /^not encrypted: anyone on the network between here and the server could read what is sent/,
    );
  });
});

describe('teamFailure for certificates out of date', () => {
  // The TLS test cluster's certificate is always current; Node's code for one that is not is this.
  it('says an expired certificate is for the admin to renew', () => {
    const e = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    const failure = teamFailure(e, 'db.example.com:5432/desk');
    expect(failure).toMatchObject({ code: 'TEAM_UNREACHABLE', details: { tls: 'expired' } });
    expect(failure.message).toBe(
      "The team database's certificate (db.example.com:5432/desk) has expired: ask your admin to renew it, and check this computer's date and time.",
    );
  });
});

describe('the address Settings and Test take (zod, before main sees it)', () => {
  it('refuses an sslmode it does not know, no-verify, and a CA file that is no full path', () => {
    const ok = (address: string) => teamAddressSchema.safeParse(address).success;
    const why = (address: string) => teamAddressSchema.safeParse(address).error?.issues[0]?.message;
    expect(ok('postgres://alice@db.example.com/desk?sslmode=verify-full&sslrootcert=/etc/team/ca.crt')).toBe(
      true,
    );
    expect(ok('postgres://alice@db.example.com/desk?sslmode=verify-ca&sslrootcert=C:\\Team\\ca.crt')).toBe(
      true,
    );
    expect(ok('postgres://alice@db.example.com/desk?sslmode=require&sslrootcert=system')).toBe(true);
    expect(why('postgres://alice@db.example.com/desk?sslmode=yes')).toMatch(
      /sslmode=yes is not one Donation Desk knows/,
    );
    expect(why('postgres://alice@db.example.com/desk?sslmode=no-verify')).toMatch(
      /no-verify is not accepted/,
    );
    expect(why('postgres://alice@db.example.com/desk?sslrootcert=ca.crt')).toMatch(/must be a full path/);
  });
});
