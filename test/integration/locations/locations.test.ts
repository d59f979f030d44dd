import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationInput } from '../../../shared/contract/locationChannels';
import { startDeskHarness, type DeskHarness } from './harness';

let h: DeskHarness;
beforeAll(async () => {
  h = await startDeskHarness();
});
afterAll(async () => {
  await h.close();
});

let counter = 0;
function store(extra: Partial<LocationInput> = {}): LocationInput {
  counter += 1;
  return {
    name: `Store ${counter}`,
    referenceId: `T-${counter}`,
    phoneNumber: '+1 303 555 0100',
    address: { addressLine: `${counter} Main St`, country: 'US', locality: 'Denver', postalCode: '80202' },
    ...extra,
  };
}

async function addOne(extra: Partial<LocationInput> = {}) {
  const { outcomes } = await h.call('locations.batch', {
    items: [{ action: 'save', location: store(extra) }],
  });
  const outcome = outcomes[0]!;
  if (outcome.status !== 'applied') throw new Error(JSON.stringify(outcome));
  return outcome.location;
}

describe('POST /locations/batch through locations.batch', () => {
  it('adds locations with tags and contacts and keeps them in the local register', async () => {
    const location = await addOne({
      tags: [{ name: 'Region', value: 'West' }],
      contacts: [
        { firstName: 'Ann', lastName: 'Ng', emailAddress: 'ann.batch@example.com', isPrimary: true },
        { firstName: 'Bo', lastName: 'Ek', emailAddress: 'bo.batch@example.com', isPrimary: false },
      ],
    });
    expect(location.id).toEqual(expect.any(String));
    expect(location.tags).toEqual([{ _id: expect.any(String), name: 'Region', value: 'West' }]);
    expect(location.contacts?.map((c) => [c.emailAddress, c.isPrimary])).toEqual([
      ['ann.batch@example.com', true],
      ['bo.batch@example.com', false],
    ]);
    // Geocoded by the service when no coordinates are given.
    expect(typeof location.address?.geoCoordinate?.latitude).toBe('number');

    const list = await h.call('locations.list', {});
    expect(list.locations.map((l) => l.location.id)).toContain(location.id);
    expect(list.contacts.map((c) => c.emailAddress)).toEqual(
      expect.arrayContaining(['ann.batch@example.com', 'bo.batch@example.com']),
    );
    expect(list.tags).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Region', value: 'West' })]),
    );
  });

  it('updates when the referenceId is already registered, and removes on request', async () => {
    const first = await addOne();
    const { outcomes } = await h.call('locations.batch', {
      items: [
        { action: 'save', location: { ...store(), referenceId: first.referenceId!, name: 'Renamed store' } },
      ],
    });
    expect(outcomes[0]).toMatchObject({
      status: 'applied',
      op: 'update',
      location: { id: first.id, name: 'Renamed store' },
    });
    const server = await h.raw('GET', `/locations/${first.id}`);
    expect((server.body as { data: { attributes: { name: string } } }).data.attributes.name).toBe(
      'Renamed store',
    );

    const removed = await h.call('locations.batch', {
      items: [{ action: 'remove', referenceId: first.referenceId! }],
    });
    expect(removed.outcomes[0]).toMatchObject({ status: 'applied', op: 'remove' });
    expect((await h.raw('GET', `/locations/${first.id}`)).status).toBe(404);
    const list = await h.call('locations.list', {});
    expect(list.locations.map((l) => l.location.id)).not.toContain(first.id);
  });

  it('refuses to remove a referenceId the register does not know, without calling the service', async () => {
    const { outcomes } = await h.call('locations.batch', {
      items: [{ action: 'remove', referenceId: 'NOPE-1' }],
    });
    expect(outcomes[0]).toMatchObject({ status: 'failed', op: 'remove', errors: [{ field: 'referenceId' }] });
  });

  it('maps service errors back to the row and the cell, and applies the valid rows', async () => {
    const good = store();
    const bad = store({ address: { addressLine: '9 Bad St', country: 'us' } });
    const badEmail = store({
      contacts: [{ firstName: 'X', lastName: 'Y', emailAddress: 'not-an-email', isPrimary: true }],
    });
    const { outcomes } = await h.call('locations.batch', {
      items: [
        { action: 'save', location: good },
        { action: 'save', location: bad },
        { action: 'save', location: badEmail },
      ],
    });
    expect(outcomes[0]).toMatchObject({ status: 'applied', op: 'add' });
    expect(outcomes[1]).toMatchObject({
      status: 'failed',
      errors: [expect.objectContaining({ field: 'address.country' })],
    });
    expect(outcomes[2]).toMatchObject({
      status: 'failed',
      errors: [expect.objectContaining({ field: 'contacts.0.emailAddress' })],
    });
    // Resend only the fixed row.
    const fixed = await h.call('locations.batch', {
      items: [{ action: 'save', location: { ...bad, address: { addressLine: '9 Bad St', country: 'DE' } } }],
    });
    expect(fixed.outcomes[0]).toMatchObject({ status: 'applied', op: 'add' });
  });

  it('with applyValid off, applies nothing when one row is refused (the batch stays atomic)', async () => {
    const good = store();
    const { outcomes } = await h.call('locations.batch', {
      applyValid: false,
      items: [
        { action: 'save', location: good },
        { action: 'save', location: store({ address: { addressLine: '1 X', country: 'us' } }) },
      ],
    });
    expect(outcomes.map((o) => o.status)).toEqual(['notApplied', 'failed']);
    const server = (await h.raw('GET', `/locations?filter[referenceId]=${good.referenceId}`)).body as {
      data: unknown[];
    };
    expect(server.data).toHaveLength(0);
  });

  it('reports a referenceId the service already holds (409) on that row', async () => {
    const ref = `SERVER-ONLY-${Date.now()}`;
    const direct = await h.raw('POST', '/locations/batch', {
      'atomic:operations': [
        { op: 'add', data: { type: 'location', attributes: { ...store(), referenceId: ref } } },
      ],
    });
    expect(direct.status).toBe(200);
    const { outcomes } = await h.call('locations.batch', {
      items: [{ action: 'save', location: store({ referenceId: ref }) }],
    });
    expect(outcomes[0]).toMatchObject({ status: 'failed', op: 'add' });
  });
});

describe('PATCH /locations/{id} through locations.update', () => {
  it('changes the given fields and merges the address', async () => {
    const location = await addOne();
    const updated = await h.call('locations.update', {
      id: location.id,
      changes: { name: 'Patched', phoneNumber: '+49 30 1234', address: { postalCode: '80203' } },
    });
    expect(updated).toMatchObject({
      id: location.id,
      name: 'Patched',
      phoneNumber: '+49 30 1234',
      address: { postalCode: '80203', addressLine: location.address?.addressLine, country: 'US' },
    });
    const list = await h.call('locations.list', {});
    expect(list.locations.find((l) => l.location.id === location.id)?.location.name).toBe('Patched');
  });

  it('names the call and the reason when the service refuses', async () => {
    const location = await addOne();
    const result = await h.attempt('locations.update', {
      id: location.id,
      changes: { address: { country: 'us' } },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/updating a location \(PATCH \/locations\/\{id\}\)/);
  });
});

describe('contacts', () => {
  it('creates, edits, assigns, makes primary (demoting the previous one) and unassigns', async () => {
    const location = await addOne();
    const ann = await h.call('contacts.create', {
      firstName: 'Ann',
      lastName: 'Lee',
      emailAddress: `ann.${counter}@example.com`,
    });
    const bo = await h.call('contacts.create', {
      firstName: 'Bo',
      lastName: 'Berg',
      emailAddress: `bo.${counter}@example.com`,
    });
    expect(ann.id).toEqual(expect.any(String));

    const edited = await h.call('contacts.update', { contactId: bo.id, changes: { lastName: 'Bergman' } });
    expect(edited).toMatchObject({ id: bo.id, lastName: 'Bergman', firstName: 'Bo' });

    let current = await h.call('contacts.assign', {
      locationId: location.id,
      contactId: ann.id,
      isPrimary: true,
    });
    current = await h.call('contacts.assign', {
      locationId: location.id,
      contactId: bo.id,
      isPrimary: false,
    });
    const primaryOf = (l: typeof current) => l.contacts?.filter((c) => c.isPrimary).map((c) => c.contactId);
    expect(primaryOf(current)).toEqual([ann.id]);
    expect(current.contacts?.find((c) => c.contactId === bo.id)?.lastName).toBe('Bergman');

    const boLink = current.contacts!.find((c) => c.contactId === bo.id)!;
    current = await h.call('contacts.setPrimary', {
      locationId: location.id,
      locationContactId: boLink.id,
      isPrimary: true,
    });
    expect(primaryOf(current)).toEqual([bo.id]);

    // Editing a contact updates its copy in the registered location too.
    await h.call('contacts.update', { contactId: ann.id, changes: { firstName: 'Anna' } });
    const listed = await h.call('locations.list', {});
    const copy = listed.locations.find((l) => l.location.id === location.id)!.location;
    expect(copy.contacts?.find((c) => c.contactId === ann.id)?.firstName).toBe('Anna');

    const annLink = current.contacts!.find((c) => c.contactId === ann.id)!;
    current = await h.call('contacts.unassign', { locationId: location.id, locationContactId: annLink.id });
    expect(current.contacts?.map((c) => c.contactId)).toEqual([bo.id]);
    const server = (await h.raw('GET', `/locations/${location.id}`)).body as {
      data: { attributes: { contacts: Array<{ contactId: string }> } };
    };
    expect(server.data.attributes.contacts.map((c) => c.contactId)).toEqual([bo.id]);
  });

  it('reports a duplicate email as a conflict', async () => {
    const email = `dup.${Date.now()}@example.com`;
    await h.call('contacts.create', { firstName: 'A', lastName: 'B', emailAddress: email });
    const again = await h.attempt('contacts.create', {
      firstName: 'C',
      lastName: 'D',
      emailAddress: email.toUpperCase(),
    });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.code).toBe('CONFLICT');
  });
});

describe('tags', () => {
  it('creates, edits, assigns and removes', async () => {
    const location = await addOne();
    const tag = await h.call('tags.create', { name: 'Tier', value: 'Gold' });
    expect(tag).toMatchObject({ id: expect.any(String), name: 'Tier', value: 'Gold' });
    let current = await h.call('tags.assign', { locationId: location.id, tagId: tag.id });
    expect(current.tags).toEqual([{ _id: tag.id, name: 'Tier', value: 'Gold' }]);

    const edited = await h.call('tags.update', { tagId: tag.id, name: 'Tier', value: 'Silver' });
    expect(edited.value).toBe('Silver');
    const listed = await h.call('locations.list', {});
    expect(listed.locations.find((l) => l.location.id === location.id)?.location.tags?.[0]?.value).toBe(
      'Silver',
    );

    current = await h.call('tags.remove', { locationId: location.id, tagId: tag.id });
    expect(current.tags).toEqual([]);
    const server = (await h.raw('GET', `/locations/${location.id}`)).body as {
      data: { attributes: { tags: unknown[] } };
    };
    expect(server.data.attributes.tags).toEqual([]);
    // Removing it again: the service says it is not assigned.
    const again = await h.attempt('tags.remove', { locationId: location.id, tagId: tag.id });
    expect(again.ok).toBe(false);
  });
});

describe('register and tokens', () => {
  it('keeps the register across a restart', async () => {
    const location = await addOne();
    await h.restart();
    const list = await h.call('locations.list', {});
    expect(list.locations.map((l) => l.location.id)).toContain(location.id);
  });

  it('retries once with a fresh token after the service revokes it', async () => {
    await addOne();
    await h.control('faults', { revokeTokens: true });
    const location = await addOne();
    expect(location.id).toEqual(expect.any(String));
  });
});
