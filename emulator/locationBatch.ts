import type { Core } from './core';
import { ApiError, type ErrorObject, isRecord, readJson, sendJson } from './http';
import {
  type LocationAddress,
  type LocationRecord,
  type LocationState,
  renderLocation,
} from './locationStore';
import type { RequestContext } from './router';
import { EMAIL, Checker, parseLocationFields } from './locationInput';

/* POST /locations/batch: JSON:API atomic operations on locations, with their tags and contacts. */
function applyBatchTags(core: Core, state: LocationState, c: Checker, raw: unknown): string[] {
  if (!Array.isArray(raw)) {
    c.fail('/tags', 'INVALID_VALUE', 'Invalid tags', 'tags must be an array of {name, value}.');
    return [];
  }
  const ids: string[] = [];
  raw.forEach((item, i) => {
    const name = c.string(isRecord(item) ? item['name'] : undefined, `/tags/${i}/name`, true);
    const value = c.string(isRecord(item) ? item['value'] : undefined, `/tags/${i}/value`, true);
    if (name === undefined || value === undefined) return;
    let tag = Object.values(state.tags).find((t) => t.name === name && t.value === value);
    if (!tag) {
      tag = { id: core.nextId('tag'), name, value };
      state.tags[tag.id] = tag;
    }
    if (!ids.includes(tag.id)) ids.push(tag.id);
  });
  return ids;
}

function applyBatchContacts(
  core: Core,
  state: LocationState,
  c: Checker,
  raw: unknown,
): LocationRecord['contacts'] {
  if (!Array.isArray(raw)) {
    c.fail('/contacts', 'INVALID_VALUE', 'Invalid contacts', 'contacts must be an array.');
    return [];
  }
  const links: LocationRecord['contacts'] = [];
  let primaries = 0;
  raw.forEach((item, i) => {
    const record = isRecord(item) ? item : {};
    const email = c.string(record['emailAddress'], `/contacts/${i}/emailAddress`, true, 254);
    const firstName = c.string(record['firstName'], `/contacts/${i}/firstName`, true);
    const lastName = c.string(record['lastName'], `/contacts/${i}/lastName`, true);
    const isPrimary = record['isPrimary'] === true;
    if (record['isPrimary'] !== undefined && typeof record['isPrimary'] !== 'boolean') {
      c.fail(
        `/contacts/${i}/isPrimary`,
        'INVALID_VALUE',
        'Invalid isPrimary',
        'isPrimary must be a boolean.',
      );
    }
    if (isPrimary) primaries += 1;
    if (email === undefined || firstName === undefined || lastName === undefined) return;
    if (!EMAIL.test(email)) {
      c.fail(
        `/contacts/${i}/emailAddress`,
        'INVALID_EMAIL',
        'Invalid email address',
        `"${email}" is not a valid email address.`,
      );
      return;
    }
    // An email already known identifies the same person: the existing contact is assigned, not duplicated.
    let contact = Object.values(state.contacts).find(
      (x) => x.emailAddress.toLowerCase() === email.toLowerCase(),
    );
    if (!contact) {
      contact = { id: core.nextId('contact'), firstName, lastName, emailAddress: email };
      state.contacts[contact.id] = contact;
    }
    if (!links.some((l) => l.contactId === contact.id)) {
      links.push({ id: core.nextId('location-contact'), contactId: contact.id, isPrimary });
    }
  });
  if (primaries > 1)
    c.fail(
      '/contacts',
      'MULTIPLE_PRIMARY',
      'More than one primary contact',
      'At most one contact can be primary.',
    );
  return links;
}

export async function batch(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx.req);
  const operations = isRecord(body) ? body['atomic:operations'] : undefined;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw ApiError.single(
      400,
      'INVALID_BODY',
      'Invalid batch',
      'The body must be {"atomic:operations": [ ... ]} with at least one operation.',
      {
        pointer: '/atomic:operations',
      },
    );
  }
  if (operations.length > 1000) {
    throw ApiError.single(
      400,
      'TOO_MANY_OPERATIONS',
      'Too many operations',
      'A batch holds at most 1000 operations.',
      {
        pointer: '/atomic:operations',
      },
    );
  }
  const core = ctx.core;
  // Work on a copy: a batch is atomic, so one bad operation leaves the stored locations untouched.
  const state = structuredClone(core.locations);
  const results: unknown[] = [];
  const errors: ErrorObject[] = [];
  operations.forEach((operation, index) => {
    const base = `/atomic:operations/${index}`;
    const c = new Checker(base);
    if (!isRecord(operation)) {
      c.fail('', 'INVALID_OPERATION', 'Invalid operation', 'Each operation must be an object.');
      errors.push(...c.errors);
      return;
    }
    const op = operation['op'];
    const data = isRecord(operation['data']) ? operation['data'] : undefined;
    const ref = isRecord(operation['ref']) ? operation['ref'] : undefined;
    const targetId =
      typeof ref?.['id'] === 'string' ? ref['id'] : typeof data?.['id'] === 'string' ? data['id'] : undefined;
    if (op === 'add' || op === 'update') {
      if (!data || data['type'] !== 'location' || !isRecord(data['attributes'])) {
        c.fail(
          '/data',
          'INVALID_OPERATION',
          'Invalid operation data',
          'data must be {"type": "location", "attributes": {...}}.',
        );
        errors.push(...c.errors);
        return;
      }
      const attrs = data['attributes'];
      const attrChecker = new Checker(`${base}/data/attributes`);
      let location: LocationRecord | undefined;
      if (op === 'update') {
        location = targetId ? state.locations[targetId] : undefined;
        if (!location) {
          c.fail(
            '/ref/id',
            'NOT_FOUND',
            'Location not found',
            `No location has the id "${targetId ?? ''}".`,
            404,
          );
          errors.push(...c.errors);
          return;
        }
      }
      const fields = parseLocationFields(attrChecker, state, attrs, location, ['tags', 'contacts']);
      const tagIds = 'tags' in attrs ? applyBatchTags(core, state, attrChecker, attrs['tags']) : undefined;
      const contacts =
        'contacts' in attrs ? applyBatchContacts(core, state, attrChecker, attrs['contacts']) : undefined;
      if (attrChecker.errors.length > 0) {
        errors.push(...attrChecker.errors);
        return;
      }
      if (!location) {
        location = {
          id: core.nextId('location'),
          name: fields.name as string,
          referenceId: fields.referenceId as string,
          address: fields.address as LocationAddress,
          tagIds: [],
          contacts: [],
        };
        state.locations[location.id] = location;
      }
      if (fields.name !== undefined) location.name = fields.name;
      if (fields.referenceId !== undefined) location.referenceId = fields.referenceId;
      if (fields.phoneNumber !== undefined) location.phoneNumber = fields.phoneNumber;
      if (fields.address !== undefined) location.address = fields.address;
      if (tagIds) location.tagIds = tagIds;
      if (contacts) location.contacts = contacts;
      results.push(renderLocation(state, location));
      return;
    }
    if (op === 'remove') {
      const location = targetId ? state.locations[targetId] : undefined;
      if (!location) {
        c.fail(
          '/ref/id',
          'NOT_FOUND',
          'Location not found',
          `No location has the id "${targetId ?? ''}".`,
          404,
        );
        errors.push(...c.errors);
        return;
      }
      results.push(renderLocation(state, location));
      delete state.locations[location.id];
      return;
    }
    c.fail('/op', 'INVALID_OPERATION', 'Invalid operation', 'op must be "add", "update" or "remove".');
    errors.push(...c.errors);
  });
  if (errors.length > 0) {
    const status = errors.every((e) => e.status === errors[0]?.status) ? Number(errors[0]?.status) : 400;
    throw new ApiError(status, errors);
  }
  core.locations = state;
  core.markDirty();
  sendJson(ctx.res, 200, { 'atomic:results': results });
}
