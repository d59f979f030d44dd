import { ApiError, errorObject, type ErrorObject, isRecord, notFound, readJson } from './http';
import { type LocationAddress, type LocationRecord, type LocationState, geocode } from './locationStore';
import type { RequestContext } from './router';

/*
 * Reading a location request: the envelope, unknown attributes, emails, addresses and the location
 * fields, each problem kept with its pointer.
 */
export const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE = /^\+?[0-9 ()./-]{3,32}$/;

export class Checker {
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
export async function readAttributes(
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

export function checkUnknown(
  c: Checker,
  attrs: Record<string, unknown>,
  allowed: string[],
  prefix = '',
): void {
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

export function checkEmail(
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

export function parseLocationFields(
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

export function locationOr404(state: LocationState, id: string): LocationRecord {
  const location = state.locations[id];
  if (!location) throw notFound('Location', id);
  return location;
}
