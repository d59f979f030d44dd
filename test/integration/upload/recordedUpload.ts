import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../../../electron/services/api/serviceClient';
import { TokenClient } from '../../../electron/services/api/tokenClient';
import type { LedgerGroup } from '../../../electron/services/ledger/ledgerShapes';
import { writeFileAtomic } from '../../../electron/services/storage/atomicFile';
import { gzipBulkFile } from '../../../electron/services/upload/compress';
import { fingerprintDonation, type DonationAttributes } from '../../../shared/donation';
import type { Emu } from './harness';

/** The emulator as a service client sees it, to read an intent's or a donation's state there. */
export function serviceClientOf(h: Emu): ServiceClient {
  const tokens = new TokenClient({
    tokenUrl: h.emu.tokenUrl,
    clientId: h.emu.clientId,
    clientSecret: h.emu.clientSecret,
  });
  return new ServiceClient(async () => ({
    info: {
      id: 'offline',
      label: 'Offline',
      baseUrl: h.emu.apiBaseUrl,
      tokenUrl: h.emu.tokenUrl,
      programUrl: '',
      emulated: true,
    },
    tokens,
  }));
}

export interface RecordedUpload {
  group: LedgerGroup;
  /** The gzipped part as written in the ledger's files. */
  gz: Buffer;
  /** Where that part is on disk. */
  path: string;
}

/**
 * An upload of one part as the engine records it just before sending: the gzipped part written
 * into the ledger's files, and its group (not yet put into the ledger). Donation i goes to one of the
 * emulator's causes in good standing, for USD 1000 + i, with `metadata(i)` (which carries `ddRef`).
 */
export async function recordedUpload(
  h: Emu,
  ledgerDir: string,
  options: {
    id: string;
    workspaceName: string;
    count: number;
    metadata(i: number): Record<string, string>;
  },
): Promise<RecordedUpload> {
  const { id, count } = options;
  const donations: DonationAttributes[] = Array.from({ length: count }, (_, i) => ({
    destination: { recipientId: h.recipients[i % h.recipients.length] as string },
    funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode: 'USD', amount: 1000 + i },
    metadata: options.metadata(i),
  }));
  const compressed = await gzipBulkFile(donations);
  const file = join('files', `${id}-0.json.gz`);
  await mkdir(join(ledgerDir, 'files'), { recursive: true });
  await writeFileAtomic(join(ledgerDir, file), compressed.gz);
  const group: LedgerGroup = {
    id,
    workspaceId: `ws-${id}`,
    workspaceName: options.workspaceName,
    createdAt: new Date().toISOString(),
    environment: 'offline',
    baseUrl: h.emu.apiBaseUrl,
    referenceKey: 'ddRef',
    parts: [
      {
        index: 0,
        rowKeys: donations.map((_, i) => i + 1),
        rowNumbers: donations.map((_, i) => i + 2),
        fingerprints: donations.map((d) => fingerprintDonation(d, { ignoreMetadataKeys: ['ddRef'] })),
        totals: [{ currencyCode: 'USD', count, amount: donations.reduce((n, d) => n + d.funds.amount, 0) }],
        fileHash: compressed.sha256,
        fileBytes: compressed.gz.length,
        file,
      },
    ],
    corrects: null,
    replaces: [],
    stopped: null,
  };
  return { group, gz: compressed.gz, path: join(ledgerDir, file) };
}
