import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import {
  contactSchema,
  registeredLocationSchema,
  tagSchema,
  type Contact,
  type Location,
  type RegisteredLocation,
  type Tag,
} from '../../../shared/contract/locationChannels';
import { writeFileAtomic } from '../storage/atomicFile';

const fileSchema = z.object({
  version: z.literal(1),
  locations: z.array(registeredLocationSchema),
  contacts: z.array(contactSchema),
  tags: z.array(tagSchema),
});
type RegisterFile = z.infer<typeof fileSchema>;

/**
 * The locations, contacts and tags this app has created or changed, as last seen in a service answer.
 * The service has no listing endpoint, so this file is the only way to find them again. Writes are
 * atomic and serialised; a damaged file is set aside rather than overwritten.
 */
export class LocationRegister {
  private state: RegisterFile | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  private async load(): Promise<RegisterFile> {
    if (this.state) return this.state;
    let text: string | null = null;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      text = null;
    }
    if (text !== null) {
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      const parsed = fileSchema.safeParse(json);
      if (parsed.success) {
        this.state = parsed.data;
        return this.state;
      }
      // Keep what cannot be read for a person to look at; start an empty register.
      await writeFileAtomic(`${this.path}.unreadable-${Date.now()}`, text);
    }
    this.state = { version: 1, locations: [], contacts: [], tags: [] };
    return this.state;
  }

  /** Runs changes one at a time and saves after each. */
  private change<T>(apply: (state: RegisterFile) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const state = await this.load();
      const result = apply(state);
      await mkdir(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, JSON.stringify(state, null, 1));
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async snapshot(): Promise<{ locations: RegisteredLocation[]; contacts: Contact[]; tags: Tag[] }> {
    await this.queue;
    const s = await this.load();
    return structuredClone({ locations: s.locations, contacts: s.contacts, tags: s.tags });
  }

  async get(id: string): Promise<Location | null> {
    await this.queue;
    return structuredClone((await this.load()).locations.find((l) => l.location.id === id)?.location ?? null);
  }

  async byReferenceId(referenceId: string): Promise<Location | null> {
    await this.queue;
    const found = (await this.load()).locations.find((l) => l.location.referenceId === referenceId);
    return found ? structuredClone(found.location) : null;
  }

  /** Records locations seen in answers, with the contacts and tags they carry. */
  saveLocations(locations: Location[]): Promise<void> {
    return this.change((s) => {
      const seenAt = new Date().toISOString();
      for (const location of locations) {
        const at = s.locations.findIndex((l) => l.location.id === location.id);
        if (at >= 0) s.locations[at] = { location, seenAt };
        else s.locations.push({ location, seenAt });
        for (const c of location.contacts ?? []) {
          upsert(s.contacts, {
            id: c.contactId,
            firstName: c.firstName ?? '',
            lastName: c.lastName ?? '',
            emailAddress: c.emailAddress ?? '',
          });
        }
        for (const t of location.tags ?? []) upsert(s.tags, { id: t._id, name: t.name, value: t.value });
      }
    });
  }

  forget(ids: string[]): Promise<number> {
    return this.change((s) => {
      const before = s.locations.length;
      s.locations = s.locations.filter((l) => !ids.includes(l.location.id));
      return before - s.locations.length;
    });
  }

  /** A changed contact also changes its copies inside the registered locations. */
  saveContact(contact: Contact): Promise<void> {
    return this.change((s) => {
      upsert(s.contacts, contact);
      for (const { location } of s.locations) {
        for (const c of location.contacts ?? []) {
          if (c.contactId !== contact.id) continue;
          c.firstName = contact.firstName;
          c.lastName = contact.lastName;
          c.emailAddress = contact.emailAddress;
        }
      }
    });
  }

  saveTag(tag: Tag): Promise<void> {
    return this.change((s) => {
      upsert(s.tags, tag);
      for (const { location } of s.locations) {
        for (const t of location.tags ?? []) {
          if (t._id !== tag.id) continue;
          t.name = tag.name;
          t.value = tag.value;
        }
      }
    });
  }
}

function upsert<T extends { id: string }>(list: T[], item: T): void {
  const at = list.findIndex((x) => x.id === item.id);
  if (at >= 0) list[at] = item;
  else list.push(item);
}
