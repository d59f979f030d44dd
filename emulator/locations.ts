import type { Core } from './core';
import {
  ApiError,
  errorObject,
  type ErrorObject,
  isRecord,
  notFound,
  readJson,
  sendJson,
  sendNoContent,
} from './http';
import {
  type ContactRecord,
  type LocationAddress,
  type LocationRecord,
  type LocationState,
  type TagRecord,
  geocode,
  renderContact,
  renderLocation,
  renderTag,
} from './locationStore';
import { type RequestContext, type Route, route } from './router';

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE = /^\+?[0-9 ()./-]{3,32}$/;

class Checker {
  readonly errors: ErrorObject[] = [];
  constructor(readonly base: string) {}

  fail(path: string, code: string, title: string, detail: string, status = 400): void {
    this.errors.push(errorObject(status, code, title, detail, { pointer: `${this.base}${path}` }));
  }

  string(value: unknown, path: string, required: boolean, max = 200): string | undefined {
    if (value === undefined || value === null) {
      if (required)
        this.fail(path, 'REQUIRED', 'Missing required attribute', `${path.slice(1)} is required.`);
      return undefined;
    }
    if (typeof value !== 'string' || value.trim().length === 0 || value.length > max) {
      this.fail(
        path,
        'INVALID_VALUE',
        'Invalid attribute',
        `${path.slice(1)} must be a non-empty string of at most ${max} characters.`,
      );
      return undefined;
    }
    return value;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new ApiError(Number(this.errors[0]?.status ?? 400), this.errors);
  }
}

/** Location endpoints accept a JSON:API envelope ({data: {type, attributes}}) or the bare attributes. */
async function readAttributes(
  ctx: RequestContext,
  type: string,
  optional = false,
): Promise<{ attrs: Record<string, unknown>; base: string }> {
  const body = await readJson(ctx.req);
  if (body === undefined && optional) return { attrs: {}, base: '' };
  if (!isRecord(body)) {
    throw ApiError.single(400, 'INVALID_BODY', 'Invalid request body', 'The body must be a JSON object.', {
      pointer: '',
    });
  }
  const data = body['data'];
  if (isRecord(data)) {
    if (data['type'] !== undefined && data['type'] !== type) {
      throw ApiError.single(400, 'INVALID_TYPE', 'Invalid resource type', `data.type must be "${type}".`, {
        pointer: '/data/type',
      });
    }
    const attributes = data['attributes'];
    if (!isRecord(attributes)) {
      throw ApiError.single(400, 'REQUIRED', 'Missing attributes', 'data.attributes must be an object.', {
        pointer: '/data/attributes',
      });
    }
    return { attrs: attributes, base: '/data/attributes' };
  }
  return { attrs: body, base: '' };
}

function checkUnknown(c: Checker, attrs: Record<string, unknown>, allowed: string[], prefix = ''): void {
  for (const key of Object.keys(attrs)) {
    if (!allowed.includes(key))
      c.fail(
        `${prefix}/${key}`,
        'UNKNOWN_ATTRIBUTE',
        'Unknown attribute',
        `${key} is not a known attribute.`,
      );
  }
}

function checkEmail(
  c: Checker,
  state: LocationState,
  value: unknown,
  path: string,
  exceptId?: string,
): string | undefined {
  const email = c.string(value, path, true, 254);
  if (email === undefined) return undefined;
  if (!EMAIL.test(email)) {
    c.fail(path, 'INVALID_EMAIL', 'Invalid email address', `"${email}" is not a valid email address.`);
    return undefined;
  }
  const taken = Object.values(state.contacts).find(
    (contact) => contact.emailAddress.toLowerCase() === email.toLowerCase() && contact.id !== exceptId,
  );
  if (taken) {
    c.fail(path, 'EMAIL_IN_USE', 'Email address in use', `Another contact already uses ${email}.`, 409);
    return undefined;
  }
  return email;
}

function parseAddress(
  c: Checker,
  value: unknown,
  path: string,
  current?: LocationAddress,
): LocationAddress | undefined {
  if (!isRecord(value)) {
    c.fail(path, current ? 'INVALID_VALUE' : 'REQUIRED', 'Invalid address', 'address must be an object.');
    return undefined;
  }
  checkUnknown(
    c,
    value,
    ['addressLine', 'country', 'district', 'locality', 'postalCode', 'geoCoordinate'],
    path,
  );
  const merged: Record<string, unknown> = { ...(current ?? {}), ...value };
  const addressLine = c.string(merged['addressLine'], `${path}/addressLine`, true);
  const country = c.string(merged['country'], `${path}/country`, true);
  if (country !== undefined && !/^[A-Z]{2}$/.test(country)) {
    c.fail(
      `${path}/country`,
      'INVALID_COUNTRY',
      'Invalid country',
      'country must be an ISO 3166 alpha-2 code such as US.',
    );
  }
  const district = c.string(merged['district'], `${path}/district`, false);
  const locality = c.string(merged['locality'], `${path}/locality`, false);
  const postalCode = c.string(merged['postalCode'], `${path}/postalCode`, false, 32);
  let geo: LocationAddress['geoCoordinate'] | undefined;
  const rawGeo = value['geoCoordinate'];
  if (rawGeo !== undefined && rawGeo !== null) {
    const lat = isRecord(rawGeo) ? rawGeo['latitude'] : undefined;
    const lon = isRecord(rawGeo) ? rawGeo['longitude'] : undefined;
    if (
      typeof lat !== 'number' ||
      lat < -90 ||
      lat > 90 ||
      typeof lon !== 'number' ||
      lon < -180 ||
      lon > 180
    ) {
      c.fail(
        `${path}/geoCoordinate`,
        'INVALID_COORDINATES',
        'Invalid coordinates',
        'latitude (-90..90) and longitude (-180..180) must be numbers.',
      );
    } else geo = { latitude: lat, longitude: lon };
  }
  if (addressLine === undefined || country === undefined) return undefined;
  const base = {
    addressLine,
    country,
    ...(district !== undefined ? { district } : {}),
    ...(locality !== undefined ? { locality } : {}),
    ...(postalCode !== undefined ? { postalCode } : {}),
  };
  // A changed street address without new coordinates is geocoded again, as the batch import would.
  const addressChanged =
    !current || ['addressLine', 'country', 'locality', 'postalCode'].some((k) => k in value);
  return {
    ...base,
    geoCoordinate: geo ?? (addressChanged ? geocode(base) : (current?.geoCoordinate ?? geocode(base))),
  };
}

interface LocationFields {
  name?: string;
  referenceId?: string;
  phoneNumber?: string;
  address?: LocationAddress;
}

function parseLocationFields(
  c: Checker,
  state: LocationState,
  attrs: Record<string, unknown>,
  current: LocationRecord | undefined,
  extraAllowed: string[],
): LocationFields {
  checkUnknown(c, attrs, ['name', 'referenceId', 'phoneNumber', 'address', ...extraAllowed]);
  const required = current === undefined;
  const out: LocationFields = {};
  if (required || 'name' in attrs) out.name = c.string(attrs['name'], '/name', true);
  if (required || 'referenceId' in attrs) {
    out.referenceId = c.string(attrs['referenceId'], '/referenceId', true, 100);
    const clash = Object.values(state.locations).find(
      (l) => l.referenceId === out.referenceId && l.id !== current?.id,
    );
    if (out.referenceId !== undefined && clash) {
      c.fail(
        '/referenceId',
        'REFERENCE_ID_IN_USE',
        'Reference id in use',
        `Location ${clash.id} already has referenceId "${out.referenceId}".`,
        409,
      );
    }
  }
  if ('phoneNumber' in attrs) {
    const phone = c.string(attrs['phoneNumber'], '/phoneNumber', false, 32);
    if (phone !== undefined && !PHONE.test(phone)) {
      c.fail(
        '/phoneNumber',
        'INVALID_PHONE',
        'Invalid phone number',
        'phoneNumber may hold digits, spaces, + ( ) . / - only.',
      );
    } else if (phone !== undefined) out.phoneNumber = phone;
  }
  if (required || 'address' in attrs)
    out.address = parseAddress(c, attrs['address'], '/address', current?.address);
  return out;
}

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

function locationOr404(state: LocationState, id: string): LocationRecord {
  const location = state.locations[id];
  if (!location) throw notFound('Location', id);
  return location;
}

async function batch(ctx: RequestContext): Promise<void> {
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

async function patchLocation(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const location = locationOr404(state, ctx.params['id'] ?? '');
  const { attrs, base } = await readAttributes(ctx, 'location');
  const c = new Checker(base);
  const fields = parseLocationFields(c, state, attrs, location, []);
  c.throwIfAny();
  if (fields.name !== undefined) location.name = fields.name;
  if (fields.referenceId !== undefined) location.referenceId = fields.referenceId;
  if (fields.phoneNumber !== undefined) location.phoneNumber = fields.phoneNumber;
  if (fields.address !== undefined) location.address = fields.address;
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderLocation(state, location));
}

function setPrimary(location: LocationRecord, linkId: string, isPrimary: boolean): void {
  for (const link of location.contacts) {
    if (link.id === linkId) link.isPrimary = isPrimary;
    else if (isPrimary) link.isPrimary = false;
  }
}

function readIsPrimary(c: Checker, attrs: Record<string, unknown>, required: boolean): boolean {
  const value = attrs['isPrimary'];
  if (value === undefined && !required) return false;
  if (typeof value !== 'boolean') {
    c.fail(
      '/isPrimary',
      value === undefined ? 'REQUIRED' : 'INVALID_VALUE',
      'Invalid isPrimary',
      'isPrimary must be a boolean.',
    );
    return false;
  }
  return value;
}

async function assignContact(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const location = locationOr404(state, ctx.params['id'] ?? '');
  const { attrs, base } = await readAttributes(ctx, 'locationContact');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['contactId', 'isPrimary']);
  const contactId = c.string(attrs['contactId'], '/contactId', true);
  const isPrimary = readIsPrimary(c, attrs, false);
  c.throwIfAny();
  if (!state.contacts[contactId as string]) {
    throw ApiError.single(
      404,
      'NOT_FOUND',
      'Contact not found',
      `No contact has the id "${contactId ?? ''}".`,
      {
        pointer: `${base}/contactId`,
      },
    );
  }
  if (location.contacts.some((l) => l.contactId === contactId)) {
    throw ApiError.single(
      409,
      'ALREADY_ASSIGNED',
      'Contact already assigned',
      'This contact is already assigned to the location.',
      {
        pointer: `${base}/contactId`,
      },
    );
  }
  const link = { id: ctx.core.nextId('location-contact'), contactId: contactId as string, isPrimary: false };
  location.contacts.push(link);
  setPrimary(location, link.id, isPrimary);
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderLocation(state, location));
}

function linkOr404(location: LocationRecord, linkId: string): LocationRecord['contacts'][number] {
  const link = location.contacts.find((l) => l.id === linkId);
  if (!link) throw notFound('Location contact', linkId);
  return link;
}

async function patchLocationContact(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const location = locationOr404(state, ctx.params['id'] ?? '');
  const link = linkOr404(location, ctx.params['linkId'] ?? '');
  const { attrs, base } = await readAttributes(ctx, 'locationContact');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['isPrimary']);
  const isPrimary = readIsPrimary(c, attrs, true);
  c.throwIfAny();
  setPrimary(location, link.id, isPrimary);
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderLocation(state, location));
}

function unassignContact(ctx: RequestContext): void {
  const location = locationOr404(ctx.core.locations, ctx.params['id'] ?? '');
  const link = linkOr404(location, ctx.params['linkId'] ?? '');
  location.contacts = location.contacts.filter((l) => l !== link);
  ctx.core.markDirty();
  sendNoContent(ctx.res);
}

function tagOr404(state: LocationState, id: string): TagRecord {
  const tag = state.tags[id];
  if (!tag) throw notFound('Tag', id);
  return tag;
}

function assignTag(ctx: RequestContext): void {
  const state = ctx.core.locations;
  const location = locationOr404(state, ctx.params['id'] ?? '');
  const tag = tagOr404(state, ctx.params['tagId'] ?? '');
  if (!location.tagIds.includes(tag.id)) location.tagIds.push(tag.id);
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderLocation(state, location));
}

function unassignTag(ctx: RequestContext): void {
  const state = ctx.core.locations;
  const location = locationOr404(state, ctx.params['id'] ?? '');
  const tagId = ctx.params['tagId'] ?? '';
  if (!location.tagIds.includes(tagId)) throw notFound('Tag assignment', tagId);
  location.tagIds = location.tagIds.filter((id) => id !== tagId);
  ctx.core.markDirty();
  sendNoContent(ctx.res);
}

async function createContact(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const { attrs, base } = await readAttributes(ctx, 'contact');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['firstName', 'lastName', 'emailAddress']);
  const firstName = c.string(attrs['firstName'], '/firstName', true);
  const lastName = c.string(attrs['lastName'], '/lastName', true);
  const emailAddress = checkEmail(c, state, attrs['emailAddress'], '/emailAddress');
  c.throwIfAny();
  const contact: ContactRecord = {
    id: ctx.core.nextId('contact'),
    firstName: firstName as string,
    lastName: lastName as string,
    emailAddress: emailAddress as string,
  };
  state.contacts[contact.id] = contact;
  ctx.core.markDirty();
  sendJson(ctx.res, 201, renderContact(contact));
}

async function patchContact(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const id = ctx.params['contactId'] ?? '';
  const contact = state.contacts[id];
  if (!contact) throw notFound('Contact', id);
  const { attrs, base } = await readAttributes(ctx, 'contact');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['firstName', 'lastName', 'emailAddress']);
  const firstName = 'firstName' in attrs ? c.string(attrs['firstName'], '/firstName', true) : undefined;
  const lastName = 'lastName' in attrs ? c.string(attrs['lastName'], '/lastName', true) : undefined;
  const email =
    'emailAddress' in attrs ? checkEmail(c, state, attrs['emailAddress'], '/emailAddress', id) : undefined;
  c.throwIfAny();
  if (firstName !== undefined) contact.firstName = firstName;
  if (lastName !== undefined) contact.lastName = lastName;
  if (email !== undefined) contact.emailAddress = email;
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderContact(contact));
}

async function createTag(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const { attrs, base } = await readAttributes(ctx, 'tag');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['name', 'value']);
  const name = c.string(attrs['name'], '/name', true);
  const value = c.string(attrs['value'], '/value', true);
  c.throwIfAny();
  const tag: TagRecord = { id: ctx.core.nextId('tag'), name: name as string, value: value as string };
  state.tags[tag.id] = tag;
  ctx.core.markDirty();
  sendJson(ctx.res, 201, renderTag(tag));
}

async function patchTag(ctx: RequestContext): Promise<void> {
  const state = ctx.core.locations;
  const tag = tagOr404(state, ctx.params['tagId'] ?? '');
  const { attrs, base } = await readAttributes(ctx, 'tag');
  const c = new Checker(base);
  checkUnknown(c, attrs, ['name', 'value', '_id']);
  const name = 'name' in attrs ? c.string(attrs['name'], '/name', true) : undefined;
  const value = 'value' in attrs ? c.string(attrs['value'], '/value', true) : undefined;
  c.throwIfAny();
  if (name !== undefined) tag.name = name;
  if (value !== undefined) tag.value = value;
  ctx.core.markDirty();
  sendJson(ctx.res, 200, renderTag(tag));
}

/** Emulator-only: the real service shows no way to read or list locations. */
function listLocations(ctx: RequestContext): void {
  const state = ctx.core.locations;
  const referenceId = ctx.url.searchParams.get('filter[referenceId]');
  const data = Object.values(state.locations)
    .filter((l) => referenceId === null || l.referenceId === referenceId)
    .map((l) => (renderLocation(state, l) as { data: unknown }).data);
  sendJson(ctx.res, 200, { data, meta: { count: data.length, emulatorOnly: true } });
}

function getLocation(ctx: RequestContext): void {
  const state = ctx.core.locations;
  sendJson(ctx.res, 200, renderLocation(state, locationOr404(state, ctx.params['id'] ?? '')));
}

export const locationRoutes: Route[] = [
  route('POST', '/locations/batch', batch),
  route('POST', '/locations/contacts', createContact),
  route('PATCH', '/locations/contacts/:contactId', patchContact),
  route('POST', '/locations/tags', createTag),
  route('PATCH', '/locations/tags/:tagId', patchTag),
  route('GET', '/locations', listLocations),
  route('GET', '/locations/:id', getLocation),
  route('PATCH', '/locations/:id', patchLocation),
  route('POST', '/locations/:id/contacts', assignContact),
  route('PATCH', '/locations/:id/contacts/:linkId', patchLocationContact),
  route('DELETE', '/locations/:id/contacts/:linkId', unassignContact),
  route('POST', '/locations/:id/tags/:tagId', assignTag),
  route('DELETE', '/locations/:id/tags/:tagId', unassignTag),
];
