import { join } from 'node:path';
import { z } from 'zod';
import type { ChannelName, Handler } from '../../../shared/contract';
import {
  locationSchema,
  type BatchItem,
  type BatchOutcome,
  type Contact,
  type Location,
  type locationChannels,
  type Tag,
} from '../../../shared/contract/locationChannels';
import { DeskFailure } from '../../../shared/result';
import type { Environments } from '../environments/environments';
import { LocationRegister } from './locationRegister';
import {
  INTERACTIVE_RETRY,
  ServiceClient,
  describeServiceError,
  type ServiceError,
} from '../api/serviceClient';
import { count } from '../../../shared/i18n';

type LocationChannel = keyof typeof locationChannels & ChannelName;

export interface LocationDeps {
  dataDir: string;
  environments: Environments;
  fetchImpl?: typeof fetch;
}

export interface LocationServices {
  handlers: { [C in LocationChannel]: Handler<C> };
  register: LocationRegister;
}

const locationEnvelope = z.object({ data: z.object({ attributes: locationSchema }) });
const contactEnvelope = z.object({
  data: z.object({
    id: z.string(),
    attributes: z.object({ firstName: z.string(), lastName: z.string(), emailAddress: z.string() }),
  }),
});
const tagEnvelope = z.object({
  data: z.object({ id: z.string(), attributes: z.object({ name: z.string(), value: z.string() }) }),
});
const batchAnswer = z.object({
  'atomic:results': z.array(z.object({ data: z.object({ attributes: locationSchema }) })),
});

/** The service takes at most this many operations per batch (the emulator's limit; the spec shows none). */
export const MAX_OPERATIONS = 1000;

const seg = (id: string) => encodeURIComponent(id);

const toContact = (e: z.infer<typeof contactEnvelope>): Contact => ({ id: e.data.id, ...e.data.attributes });
const toTag = (e: z.infer<typeof tagEnvelope>): Tag => ({
  id: e.data.id,
  name: e.data.attributes.name,
  value: e.data.attributes.value,
});

/** `/atomic:operations/3/data/attributes/contacts/0/emailAddress` → [3, "contacts.0.emailAddress"]. */
export function operationOfPointer(pointer: string | undefined): { index: number; field: string } | null {
  const match = /^\/atomic:operations\/(\d+)(\/.*)?$/.exec(pointer ?? '');
  if (!match) return null;
  const rest = match[2] ?? '';
  const attr = /^\/data\/attributes\/(.+)$/.exec(rest);
  return { index: Number(match[1]), field: attr ? attr[1]!.split('/').join('.') : '' };
}

interface PlannedOperation {
  item: number;
  op: 'add' | 'update' | 'remove';
  body: unknown;
}

export function createLocationServices(deps: LocationDeps): LocationServices {
  const api = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    retry: INTERACTIVE_RETRY,
  });
  const register = new LocationRegister(join(deps.dataDir, 'locations', 'register.json'));

  async function afterChange(location: Location): Promise<Location> {
    await register.saveLocations([location]);
    return location;
  }

  async function known(id: string): Promise<Location> {
    const location = await register.get(id);
    if (!location) {
      throw new DeskFailure(
        'NOT_FOUND',
        'This location is not in the app’s register. Import it again or reopen the Locations list.',
      );
    }
    return location;
  }

  async function plan(items: BatchItem[], outcomes: (BatchOutcome | null)[]): Promise<PlannedOperation[]> {
    const planned: PlannedOperation[] = [];
    for (const [i, item] of items.entries()) {
      if (item.action === 'remove') {
        const existing = await register.byReferenceId(item.referenceId);
        if (!existing) {
          outcomes[i] = {
            status: 'failed',
            op: 'remove',
            errors: [
              {
                field: 'referenceId',
                message: `No location with reference id “${item.referenceId}” is in the app’s register, so it cannot be removed from here.`,
              },
            ],
          };
          continue;
        }
        planned.push({
          item: i,
          op: 'remove',
          body: { op: 'remove', ref: { type: 'location', id: existing.id } },
        });
        continue;
      }
      const ref = item.location.referenceId;
      const existing = ref ? await register.byReferenceId(ref) : null;
      planned.push(
        existing
          ? {
              item: i,
              op: 'update',
              body: {
                op: 'update',
                ref: { type: 'location', id: existing.id },
                data: { type: 'location', id: existing.id, attributes: item.location },
              },
            }
          : {
              item: i,
              op: 'add',
              body: { op: 'add', data: { type: 'location', attributes: item.location } },
            },
      );
    }
    return planned;
  }

  /**
   * Sends planned operations as atomic batches. When the service refuses some of them and applyValid
   * is on, the batch is sent again without the refused ones, so valid rows are applied and only the
   * failed ones wait for a fix; each batch the service applies is still all-or-nothing.
   */
  async function send(
    planned: PlannedOperation[],
    outcomes: (BatchOutcome | null)[],
    applyValid: boolean,
  ): Promise<void> {
    let pending = planned;
    for (let round = 0; pending.length > 0 && round < 10; round++) {
      try {
        const answer = await api.get({
          name: `importing ${count(pending.length, 'location')} (POST /locations/batch)`,
          method: 'POST',
          path: '/locations/batch',
          body: { 'atomic:operations': pending.map((p) => p.body) },
          schema: batchAnswer,
        });
        const results = answer['atomic:results'];
        const applied: Location[] = [];
        const removed: string[] = [];
        for (const [n, p] of pending.entries()) {
          const location = results[n]?.data.attributes;
          if (!location) {
            outcomes[p.item] = {
              status: 'failed',
              op: p.op,
              errors: [
                {
                  field: '',
                  message: 'The service gave no result for this row; check it and send it again.',
                },
              ],
            };
            continue;
          }
          outcomes[p.item] = { status: 'applied', op: p.op, location };
          if (p.op === 'remove') removed.push(location.id);
          else applied.push(location);
        }
        await register.saveLocations(applied);
        if (removed.length) await register.forget(removed);
        return;
      } catch (e) {
        const details =
          e instanceof DeskFailure ? (e.details as { errors?: ServiceError[] } | undefined) : undefined;
        const byOperation = new Map<number, { field: string; message: string; code?: string }[]>();
        for (const error of details?.errors ?? []) {
          const where = operationOfPointer(error.pointer);
          if (!where || where.index >= pending.length) continue;
          const list = byOperation.get(where.index) ?? [];
          list.push({
            field: where.field,
            message: describeServiceError(error),
            ...(error.code ? { code: error.code } : {}),
          });
          byOperation.set(where.index, list);
        }
        if (byOperation.size === 0) {
          // Not about particular rows (network, access, the batch as a whole): every pending row failed.
          const message = e instanceof Error ? e.message : String(e);
          for (const p of pending)
            outcomes[p.item] = { status: 'failed', op: p.op, errors: [{ field: '', message }] };
          return;
        }
        for (const [n, errors] of byOperation) {
          const p = pending[n]!;
          outcomes[p.item] = { status: 'failed', op: p.op, errors };
        }
        const rest = pending.filter((_, n) => !byOperation.has(n));
        if (!applyValid) {
          for (const p of rest) outcomes[p.item] = { status: 'notApplied', op: p.op };
          return;
        }
        pending = rest;
      }
    }
  }

  const handlers: LocationServices['handlers'] = {
    'locations.list': () =>
      register.snapshot().then((s) => ({
        ...s,
        locations: s.locations.sort((a, b) => (a.location.name ?? '').localeCompare(b.location.name ?? '')),
      })),
    'locations.batch': async ({ items, applyValid }) => {
      const outcomes: (BatchOutcome | null)[] = items.map(() => null);
      const planned = await plan(items, outcomes);
      for (let at = 0; at < planned.length; at += MAX_OPERATIONS) {
        await send(planned.slice(at, at + MAX_OPERATIONS), outcomes, applyValid);
      }
      return {
        outcomes: outcomes.map(
          (o) => o ?? { status: 'failed' as const, op: null, errors: [{ field: '', message: 'Not sent.' }] },
        ),
      };
    },
    'locations.update': async ({ id, changes }) => {
      await known(id);
      const answer = await api.get({
        name: 'updating a location (PATCH /locations/{id})',
        method: 'PATCH',
        path: `/locations/${seg(id)}`,
        body: { data: { type: 'location', id, attributes: changes } },
        schema: locationEnvelope,
      });
      return afterChange(answer.data.attributes);
    },
    'locations.forget': async ({ id }) => ({ forgotten: (await register.forget([id])) > 0 }),
    'contacts.create': async (fields) => {
      const contact = toContact(
        await api.get({
          name: 'creating a contact (POST /locations/contacts)',
          method: 'POST',
          path: '/locations/contacts',
          body: { data: { type: 'contact', attributes: fields } },
          schema: contactEnvelope,
        }),
      );
      await register.saveContact(contact);
      return contact;
    },
    'contacts.update': async ({ contactId, changes }) => {
      const contact = toContact(
        await api.get({
          name: 'updating a contact (PATCH /locations/contacts/{id})',
          method: 'PATCH',
          path: `/locations/contacts/${seg(contactId)}`,
          body: { data: { type: 'contact', id: contactId, attributes: changes } },
          schema: contactEnvelope,
        }),
      );
      await register.saveContact(contact);
      return contact;
    },
    'contacts.assign': async ({ locationId, contactId, isPrimary }) => {
      const answer = await api.get({
        name: 'assigning a contact to a location (POST /locations/{id}/contacts)',
        method: 'POST',
        path: `/locations/${seg(locationId)}/contacts`,
        body: { contactId, isPrimary },
        schema: locationEnvelope,
      });
      return afterChange(answer.data.attributes);
    },
    'contacts.setPrimary': async ({ locationId, locationContactId, isPrimary }) => {
      const answer = await api.get({
        name: 'changing the primary contact (PATCH /locations/{id}/contacts/{locationContactId})',
        method: 'PATCH',
        path: `/locations/${seg(locationId)}/contacts/${seg(locationContactId)}`,
        body: { isPrimary },
        schema: locationEnvelope,
      });
      return afterChange(answer.data.attributes);
    },
    'contacts.unassign': async ({ locationId, locationContactId }) => {
      const before = await known(locationId);
      await api.request({
        name: 'unassigning a contact (DELETE /locations/{id}/contacts/{locationContactId})',
        method: 'DELETE',
        path: `/locations/${seg(locationId)}/contacts/${seg(locationContactId)}`,
        schema: null,
      });
      // 204 carries no location: the register drops the contact itself.
      return afterChange({
        ...before,
        contacts: (before.contacts ?? []).filter((c) => c.id !== locationContactId),
      });
    },
    'tags.create': async ({ name, value }) => {
      const tag = toTag(
        await api.get({
          name: 'creating a tag (POST /locations/tags)',
          method: 'POST',
          path: '/locations/tags',
          body: { data: { type: 'tag', attributes: { name, value } } },
          schema: tagEnvelope,
        }),
      );
      await register.saveTag(tag);
      return tag;
    },
    'tags.update': async ({ tagId, name, value }) => {
      const tag = toTag(
        await api.get({
          name: 'updating a tag (PATCH /locations/tags/{id})',
          method: 'PATCH',
          path: `/locations/tags/${seg(tagId)}`,
          body: { data: { type: 'tag', id: tagId, attributes: { name, value } } },
          schema: tagEnvelope,
        }),
      );
      await register.saveTag(tag);
      return tag;
    },
    'tags.assign': async ({ locationId, tagId }) => {
      const answer = await api.get({
        name: 'assigning a tag (POST /locations/{id}/tags/{tagId})',
        method: 'POST',
        path: `/locations/${seg(locationId)}/tags/${seg(tagId)}`,
        schema: locationEnvelope,
      });
      return afterChange(answer.data.attributes);
    },
    'tags.remove': async ({ locationId, tagId }) => {
      const before = await known(locationId);
      await api.request({
        name: 'removing a tag (DELETE /locations/{id}/tags/{tagId})',
        method: 'DELETE',
        path: `/locations/${seg(locationId)}/tags/${seg(tagId)}`,
        schema: null,
      });
      return afterChange({ ...before, tags: (before.tags ?? []).filter((t) => t._id !== tagId) });
    },
  };
  return { handlers, register };
}
