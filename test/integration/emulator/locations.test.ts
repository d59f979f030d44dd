import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, type Json, startHarness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.emu.close();
});
beforeEach(async () => {
  await h.control('reset', {});
});

function addOp(referenceId: string, extra: Record<string, unknown> = {}): Json {
  return {
    op: 'add',
    data: {
      type: 'location',
      attributes: {
        name: `Store ${referenceId}`,
        referenceId,
        phoneNumber: '+1 303 555 0100',
        address: {
          addressLine: '1 Main St',
          country: 'US',
          district: 'CO',
          locality: 'Denver',
          postalCode: '80202',
        },
        ...extra,
      },
    },
  };
}

async function batch(operations: Json[]): Promise<Json> {
  return h.api('POST', '/locations/batch', { 'atomic:operations': operations });
}

async function createContact(email: string): Promise<string> {
  const res = await h.api('POST', '/locations/contacts', {
    data: { type: 'contact', attributes: { firstName: 'Sam', lastName: 'Lee', emailAddress: email } },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

describe('POST /locations/batch', () => {
  it('adds locations with tags, contacts and geocoded coordinates, answering atomic:results', async () => {
    const res = await batch([
      addOp('R-1', {
        tags: [{ name: 'region', value: 'west' }],
        contacts: [
          { firstName: 'Ann', lastName: 'Ng', emailAddress: 'ann@example.com', isPrimary: true },
          { firstName: 'Bo', lastName: 'Ek', emailAddress: 'bo@example.com', isPrimary: false },
        ],
      }),
      addOp('R-2', {
        address: {
          addressLine: '2 High St',
          country: 'GB',
          locality: 'London',
          geoCoordinate: { latitude: 51.5, longitude: -0.12 },
        },
      }),
    ]);
    expect(res.status).toBe(200);
    const results = res.body['atomic:results'];
    expect(results).toHaveLength(2);
    const first = results[0].data;
    expect(first.type).toBe('location');
    expect(first.attributes.id).toEqual(expect.any(String));
    expect(first.attributes.tags).toEqual([{ _id: expect.any(String), name: 'region', value: 'west' }]);
    expect(first.attributes.contacts).toEqual([
      expect.objectContaining({
        contactId: expect.any(String),
        locationId: first.attributes.id,
        isPrimary: true,
        emailAddress: 'ann@example.com',
        firstName: 'Ann',
        lastName: 'Ng',
      }),
      expect.objectContaining({ isPrimary: false, emailAddress: 'bo@example.com' }),
    ]);
    const geo = first.attributes.address.geoCoordinate;
    expect(typeof geo.latitude).toBe('number');
    expect(typeof geo.longitude).toBe('number');
    expect(results[1].data.attributes.address.geoCoordinate).toEqual({ latitude: 51.5, longitude: -0.12 });
    // Geocoding is deterministic: the same address gives the same point.
    const again = await batch([addOp('R-3')]);
    expect(again.body['atomic:results'][0].data.attributes.address.geoCoordinate).toEqual(geo);
  });

  it('updates and removes by ref id', async () => {
    const added = await batch([addOp('R-1'), addOp('R-2')]);
    const [a, b] = added.body['atomic:results'].map((r: Json) => r.data.attributes.id as string);
    const res = await batch([
      {
        op: 'update',
        ref: { type: 'location', id: a },
        data: { type: 'location', attributes: { name: 'Renamed', tags: [{ name: 'x', value: 'y' }] } },
      },
      { op: 'remove', ref: { type: 'location', id: b } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body['atomic:results'][0].data.attributes).toMatchObject({
      id: a,
      name: 'Renamed',
      referenceId: 'R-1',
    });
    expect(res.body['atomic:results'][0].data.attributes.tags).toEqual([
      { _id: expect.any(String), name: 'x', value: 'y' },
    ]);
    expect((await h.api('GET', `/locations/${b}`)).status).toBe(404);
    expect((await h.api('GET', '/locations')).body.data).toHaveLength(1);
  });

  it('is atomic: one bad operation applies none and points at it', async () => {
    const res = await batch([
      addOp('R-1'),
      addOp('R-2', { address: { addressLine: '1 St', country: 'USA' } }),
      addOp('R-1'),
    ]);
    expect(res.status).toBe(400);
    const pointers = res.body.errors.map((e: Json) => e.source.pointer);
    expect(pointers).toContain('/atomic:operations/1/data/attributes/address/country');
    expect((await h.api('GET', '/locations')).body.data).toHaveLength(0);
    const dup = await batch([addOp('R-1'), addOp('R-1')]);
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source.pointer).toBe('/atomic:operations/1/data/attributes/referenceId');
    expect((await batch([{ op: 'explode' }])).status).toBe(400);
    expect((await batch([])).status).toBe(400);
    expect((await batch([{ op: 'remove', ref: { type: 'location', id: 'nope' } }])).status).toBe(404);
    const missingName = await batch([
      {
        op: 'add',
        data: {
          type: 'location',
          attributes: { referenceId: 'X', address: { addressLine: 'a', country: 'US' } },
        },
      },
    ]);
    expect(missingName.body.errors[0].source.pointer).toBe('/atomic:operations/0/data/attributes/name');
  });
});

describe('locations, contacts and tags', () => {
  async function oneLocation(): Promise<string> {
    const res = await batch([addOp('R-1')]);
    return res.body['atomic:results'][0].data.attributes.id as string;
  }

  it('PATCH /locations/{id} changes fields and re-geocodes a changed address', async () => {
    const id = await oneLocation();
    const before = (await h.api('GET', `/locations/${id}`)).body.data.attributes;
    const res = await h.api('PATCH', `/locations/${id}`, {
      data: {
        type: 'location',
        attributes: {
          phoneNumber: '+44 20 7946 0000',
          address: { addressLine: '9 Other Rd', country: 'GB' },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.phoneNumber).toBe('+44 20 7946 0000');
    expect(res.body.data.attributes.address).toMatchObject({
      addressLine: '9 Other Rd',
      country: 'GB',
      locality: 'Denver',
    });
    expect(res.body.data.attributes.address.geoCoordinate).not.toEqual(before.address.geoCoordinate);
    const bad = await h.api('PATCH', `/locations/${id}`, {
      data: { type: 'location', attributes: { phoneNumber: 'call me' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/phoneNumber');
    expect((await h.api('PATCH', '/locations/nope', { name: 'x' })).status).toBe(404);
  });

  it('contacts: create, patch, valid and unique email', async () => {
    const id = await createContact('one@example.com');
    const created = await h.api('POST', '/locations/contacts', {
      firstName: 'A',
      lastName: 'B',
      emailAddress: 'ONE@example.com',
    });
    expect(created.status).toBe(409);
    expect(created.body.errors[0].source.pointer).toBe('/emailAddress');
    const invalid = await h.api('POST', '/locations/contacts', {
      data: { type: 'contact', attributes: { firstName: 'A', lastName: 'B', emailAddress: 'not-an-email' } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].source.pointer).toBe('/data/attributes/emailAddress');
    const patched = await h.api('PATCH', `/locations/contacts/${id}`, {
      data: { type: 'contact', attributes: { lastName: 'Changed' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({
      type: 'contact',
      id,
      attributes: { firstName: 'Sam', lastName: 'Changed', emailAddress: 'one@example.com' },
    });
    await createContact('two@example.com');
    expect(
      (await h.api('PATCH', `/locations/contacts/${id}`, { emailAddress: 'two@example.com' })).status,
    ).toBe(409);
    expect(
      (await h.api('PATCH', `/locations/contacts/${id}`, { emailAddress: 'one@example.com' })).status,
    ).toBe(200);
    expect((await h.api('PATCH', '/locations/contacts/nope', { lastName: 'x' })).status).toBe(404);
  });

  it('assigns contacts, moves the primary flag and unassigns with 204', async () => {
    const location = await oneLocation();
    const c1 = await createContact('c1@example.com');
    const c2 = await createContact('c2@example.com');
    const first = await h.api('POST', `/locations/${location}/contacts`, {
      data: { type: 'locationContact', attributes: { contactId: c1, isPrimary: true } },
    });
    expect(first.status).toBe(200);
    const second = await h.api('POST', `/locations/${location}/contacts`, { contactId: c2, isPrimary: true });
    const contacts = second.body.data.attributes.contacts as Json[];
    expect(contacts.map((c) => [c.contactId, c.isPrimary])).toEqual([
      [c1, false],
      [c2, true],
    ]);
    const link1 = contacts[0].id as string;
    const back = await h.api('PATCH', `/locations/${location}/contacts/${link1}`, { isPrimary: true });
    expect(back.body.data.attributes.contacts.map((c: Json) => c.isPrimary)).toEqual([true, false]);
    expect(
      (await h.api('POST', `/locations/${location}/contacts`, { contactId: c1, isPrimary: false })).status,
    ).toBe(409);
    expect((await h.api('POST', `/locations/${location}/contacts`, { contactId: 'nope' })).status).toBe(404);
    expect(
      (await h.api('PATCH', `/locations/${location}/contacts/${link1}`, { isPrimary: 'yes' })).status,
    ).toBe(400);
    const removed = await fetch(`${h.emu.apiBaseUrl}/locations/${location}/contacts/${link1}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    expect(
      (await h.api('GET', `/locations/${location}`)).body.data.attributes.contacts.map(
        (c: Json) => c.contactId,
      ),
    ).toEqual([c2]);
    expect((await h.api('DELETE', `/locations/${location}/contacts/${link1}`)).status).toBe(404);
  });

  it('tags: create, patch, assign and unassign with 204', async () => {
    const location = await oneLocation();
    const created = await h.api('POST', '/locations/tags', {
      data: { type: 'tag', attributes: { name: 'tier', value: 'gold' } },
    });
    expect(created.status).toBe(201);
    const tagId = created.body.data.id as string;
    expect(created.body.data).toEqual({
      type: 'tag',
      id: tagId,
      attributes: { _id: tagId, name: 'tier', value: 'gold' },
    });
    const patched = await h.api('PATCH', `/locations/tags/${tagId}`, {
      data: { type: 'tag', attributes: { value: 'silver' } },
    });
    expect(patched.body.data.attributes).toEqual({ _id: tagId, name: 'tier', value: 'silver' });
    expect((await h.api('POST', '/locations/tags', { name: 'tier' })).status).toBe(400);
    const assigned = await h.api('POST', `/locations/${location}/tags/${tagId}`);
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.attributes.tags).toEqual([{ _id: tagId, name: 'tier', value: 'silver' }]);
    expect((await h.api('POST', `/locations/${location}/tags/nope`)).status).toBe(404);
    expect((await h.api('DELETE', `/locations/${location}/tags/${tagId}`)).status).toBe(204);
    expect((await h.api('GET', `/locations/${location}`)).body.data.attributes.tags).toEqual([]);
    expect((await h.api('DELETE', `/locations/${location}/tags/${tagId}`)).status).toBe(404);
  });

  it('GET /locations (emulator-only) filters by referenceId', async () => {
    await batch([addOp('A'), addOp('B')]);
    const res = await h.api('GET', '/locations?filter[referenceId]=B');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].attributes.referenceId).toBe('B');
    expect(res.body.meta.emulatorOnly).toBe(true);
  });
});
