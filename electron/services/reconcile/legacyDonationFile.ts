/*
 * Version 0.1 kept each environment's donations in a JSON file, `<data folder>/reconcile/donations-<env>.json`:
 * imported once into the data folder's database, and kept beside as `.pre-sqlite`.
 */
import { readFile } from 'node:fs/promises';
import { DeskFailure } from '../../../shared/result';
import type { DeskDatabase } from '../db/deskDatabase';
import { importOnce } from '../db/legacyFiles';
import { SumChanges, writeDonation, writeRefresh, writeSingle } from './donationWrites';
import { storeFileSchema } from './storedDonation';

/** Imports the environment's file of version 0.1 into `db`, once; refuses a file it cannot read. */
export async function importLegacyDonationFile(
  db: DeskDatabase,
  environment: string,
  path: string,
): Promise<void> {
  await importOnce(db, `donations:${environment}`, [path], async () => {
    const text = await readFile(path, 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = storeFileSchema.safeParse(json);
    if (!parsed.success) {
      // Refuse rather than start without it: the file may hold the only record of states seen earlier.
      throw new DeskFailure(
        'STORE_UNREADABLE',
        `The donation store ${path} could not be read. It was left untouched; move it aside to start afresh.`,
      );
    }
    return {
      detail: { donations: parsed.data.donations.length, singles: parsed.data.singles.length },
      write: () => {
        const sums = new SumChanges();
        for (const d of parsed.data.donations) writeDonation(db, environment, d, sums);
        sums.apply(db, environment);
        for (const a of parsed.data.singles) writeSingle(db, environment, a.clientRef, a);
        writeRefresh(db, environment, parsed.data.lastRefreshAt);
      },
    };
  });
}
