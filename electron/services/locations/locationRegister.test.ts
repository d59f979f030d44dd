import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase } from '../db/deskDatabase';
import { LocationRegister } from './locationRegister';
import { operationOfPointer } from './index';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-register-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

const location = (id: string, referenceId: string) => ({
  id,
  name: `Store ${id}`,
  referenceId,
  contacts: [
    {
      id: `lc-${id}`,
      contactId: 'c1',
      locationId: id,
      isPrimary: true,
      firstName: 'Ann',
      lastName: 'Ng',
      emailAddress: 'a@x.org',
    },
  ],
  tags: [{ _id: 't1', name: 'Region', value: 'West' }],
});

describe('LocationRegister', () => {
  it('keeps locations with their contacts and tags, and reloads them from the database', async () => {
    const path = join(dir, 'locations', 'register.json');
    const register = new LocationRegister(path);
    await Promise.all([
      register.saveLocations([location('1', 'R1')]),
      register.saveLocations([location('2', 'R2')]),
    ]);
    closeDatabase(dir);
    const again = new LocationRegister(path);
    const snapshot = await again.snapshot();
    expect(snapshot.locations.map((l) => l.location.id).sort()).toEqual(['1', '2']);
    expect(snapshot.contacts).toEqual([
      { id: 'c1', firstName: 'Ann', lastName: 'Ng', emailAddress: 'a@x.org' },
    ]);
    expect(snapshot.tags).toEqual([{ id: 't1', name: 'Region', value: 'West' }]);
    expect((await again.byReferenceId('R2'))?.id).toBe('2');
  });

  it('updates copies of a changed contact or tag, and forgets locations', async () => {
    const register = new LocationRegister(join(dir, 'locations', 'register.json'));
    await register.saveLocations([location('1', 'R1')]);
    await register.saveContact({ id: 'c1', firstName: 'Anna', lastName: 'Ng', emailAddress: 'a@x.org' });
    await register.saveTag({ id: 't1', name: 'Region', value: 'East' });
    const l = await register.get('1');
    expect(l?.contacts?.[0]?.firstName).toBe('Anna');
    expect(l?.tags?.[0]?.value).toBe('East');
    expect(await register.forget(['1'])).toBe(1);
    expect(await register.get('1')).toBeNull();
  });

  it('sets an unreadable file aside instead of overwriting it', async () => {
    await mkdir(join(dir, 'locations'), { recursive: true });
    const path = join(dir, 'locations', 'register.json');
    await writeFile(path, '{"version": 1, "locations": [tor');
    const register = new LocationRegister(path);
    expect((await register.snapshot()).locations).toEqual([]);
    await register.saveLocations([location('1', 'R1')]);
    const files = await readdir(join(dir, 'locations'));
    const aside = files.find((f) => f.startsWith('register.json.unreadable-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, 'locations', aside!), 'utf8')).toContain('tor');
  });
});

describe('operationOfPointer', () => {
  it.each<[string | undefined, { index: number; field: string } | null]>([
    [
      '/atomic:operations/3/data/attributes/contacts/0/emailAddress',
      { index: 3, field: 'contacts.0.emailAddress' },
    ],
    ['/atomic:operations/0/data/attributes/address/country', { index: 0, field: 'address.country' }],
    ['/atomic:operations/2/ref/id', { index: 2, field: '' }],
    ['/atomic:operations/5', { index: 5, field: '' }],
    ['/atomic:operations', null],
    ['/data/attributes/name', null],
    [undefined, null],
  ])('%s', (pointer, expected) => {
    expect(operationOfPointer(pointer)).toEqual(expected);
  });
});
