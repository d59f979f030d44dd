import { ApiError, notFound, sendJson, sendNoContent } from './http';
import {
  type ContactRecord,
  type LocationRecord,
  type LocationState,
  type TagRecord,
  renderContact,
  renderLocation,
  renderTag,
} from './locationStore';
import { type RequestContext, type Route, route } from './router';
import {
  Checker,
  readAttributes,
  checkUnknown,
  checkEmail,
  parseLocationFields,
  locationOr404,
} from './locationInput';
import { batch } from './locationBatch';

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
