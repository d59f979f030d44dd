import { readFile } from 'node:fs/promises';
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
import { databaseOf, type DeskDatabase } from '../db/deskDatabase';
import { importOnce } from '../db/legacyFiles';
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
 * The service has no listing endpoint, so this register is the only way to find them again. Kept in
 * the data folder's database (`path` is where version 0.1 kept its JSON file, imported once); each
 * change is one transaction, run one at a time.
 */
export class LocationRegister {
  private db: DeskDatabase | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  private async ready(): Promise<DeskDatabase> {
    if (this.db) return this.db;
    const db = databaseOf(dirname(dirname(this.path)));
    await importOnce(db, 'locations', [this.path], async () => {
      const text = await readFile(this.path, 'utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      const parsed = fileSchema.safeParse(json);
      if (!parsed.success) {
        // Keep what cannot be read for a person to look at; start an empty register.
        await writeFileAtomic(`${this.path}.unreadable-${Date.now()}`, text);
        return null;
      }
      return {
        detail: { locations: parsed.data.locations.length },
        write: () => writeFile(db, parsed.data),
      };
    });
    this.db = db;
    return db;
  }

  /** Runs changes one at a time, each in its own transaction. */
  private change<T>(apply: (db: DeskDatabase) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const db = await this.ready();
      return db.transaction(() => apply(db));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read<T>(query: (db: DeskDatabase) => T): Promise<T> {
    await this.queue;
    return query(await this.ready());
  }

  async snapshot(): Promise<{ locations: RegisteredLocation[]; contacts: Contact[]; tags: Tag[] }> {
    return this.read((db) => ({
      locations: db
        .all<{ body: string; seen_at: string }>('SELECT body, seen_at FROM location ORDER BY rowid')
        .map((r) => ({ location: JSON.parse(r.body) as Location, seenAt: r.seen_at })),
      contacts: db
        .all<{ body: string }>('SELECT body FROM contact ORDER BY rowid')
        .map((r) => JSON.parse(r.body) as Contact),
      tags: db
        .all<{ body: string }>('SELECT body FROM tag ORDER BY rowid')
        .map((r) => JSON.parse(r.body) as Tag),
    }));
  }

  async get(id: string): Promise<Location | null> {
    return this.read((db) => {
      const row = db.get<{ body: string }>('SELECT body FROM location WHERE id = ?', id);
      return row ? (JSON.parse(row.body) as Location) : null;
    });
  }

  async byReferenceId(referenceId: string): Promise<Location | null> {
    return this.read((db) => {
      const row = db.get<{ body: string }>(
        'SELECT body FROM location WHERE reference_id = ? ORDER BY rowid LIMIT 1',
        referenceId,
      );
      return row ? (JSON.parse(row.body) as Location) : null;
    });
  }

  /** Records locations seen in answers, with the contacts and tags they carry. */
  saveLocations(locations: Location[]): Promise<void> {
    return this.change((db) => {
      const seenAt = new Date().toISOString();
      for (const location of locations) {
        putLocation(db, { location, seenAt });
        for (const c of location.contacts ?? []) {
          putContact(db, {
            id: c.contactId,
            firstName: c.firstName ?? '',
            lastName: c.lastName ?? '',
            emailAddress: c.emailAddress ?? '',
          });
        }
        for (const t of location.tags ?? []) putTag(db, { id: t._id, name: t.name, value: t.value });
      }
    });
  }

  forget(ids: string[]): Promise<number> {
    return this.change((db) => {
      let forgotten = 0;
      for (const id of new Set(ids)) forgotten += db.run('DELETE FROM location WHERE id = ?', id).changes;
      return forgotten;
    });
  }

  /** A changed contact also changes its copies inside the registered locations. */
  saveContact(contact: Contact): Promise<void> {
    return this.change((db) => {
      putContact(db, contact);
      for (const registered of allLocations(db)) {
        let changed = false;
        for (const c of registered.location.contacts ?? []) {
          if (c.contactId !== contact.id) continue;
          c.firstName = contact.firstName;
          c.lastName = contact.lastName;
          c.emailAddress = contact.emailAddress;
          changed = true;
        }
        if (changed) putLocation(db, registered);
      }
    });
  }

  saveTag(tag: Tag): Promise<void> {
    return this.change((db) => {
      putTag(db, tag);
      for (const registered of allLocations(db)) {
        let changed = false;
        for (const t of registered.location.tags ?? []) {
          if (t._id !== tag.id) continue;
          t.name = tag.name;
          t.value = tag.value;
          changed = true;
        }
        if (changed) putLocation(db, registered);
      }
    });
  }
}

function allLocations(db: DeskDatabase): RegisteredLocation[] {
  return db
    .all<{ body: string; seen_at: string }>('SELECT body, seen_at FROM location ORDER BY rowid')
    .map((r) => ({ location: JSON.parse(r.body) as Location, seenAt: r.seen_at }));
}

function putLocation(db: DeskDatabase, registered: RegisteredLocation): void {
  db.run(
    `INSERT INTO location (id, reference_id, seen_at, body) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET reference_id = excluded.reference_id, seen_at = excluded.seen_at,
       body = excluded.body`,
    registered.location.id,
    registered.location.referenceId ?? null,
    registered.seenAt,
    JSON.stringify(registered.location),
  );
}

function putContact(db: DeskDatabase, contact: Contact): void {
  db.run(
    'INSERT INTO contact (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
    contact.id,
    JSON.stringify(contact),
  );
}

function putTag(db: DeskDatabase, tag: Tag): void {
  db.run(
    'INSERT INTO tag (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
    tag.id,
    JSON.stringify(tag),
  );
}

function writeFile(db: DeskDatabase, file: RegisterFile): void {
  for (const registered of file.locations) putLocation(db, registered);
  for (const contact of file.contacts) putContact(db, contact);
  for (const tag of file.tags) putTag(db, tag);
}
