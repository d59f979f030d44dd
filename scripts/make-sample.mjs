// Writes assets/sample-donations.xlsx: the spreadsheet a newcomer practises with on the Offline
// sandbox. Its recipients come from the emulator's seeded directory (seed 42, the default), so it
// shows a whole month-end: three mistakes the app's own checks find in the grid; one well-formed
// cause id the service does not know (two digits swapped), which the Offline sandbox refuses when it
// validates the bulk file, so the repair path appears; and one cause not in good standing, which the
// service accepts and declines a few minutes later, so a correction appears. The rest succeed.
// Run after `npm run build`: node scripts/make-sample.mjs
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';

const require = createRequire(import.meta.url);
const { startEmulator } = require('../out/emulator/index.cjs');

const emulator = await startEmulator({ dataDir: mkdtempSync(join(tmpdir(), 'sample-')), quiet: true });
const info = await (await fetch(`${emulator.apiBaseUrl}/_emulator/info`)).json();
const { access_token: token } = await (
  await fetch(emulator.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: emulator.clientId,
      client_secret: emulator.clientSecret,
    }),
  })
).json();
/** Whether the service's directory has this cause (GET /causes/{id} answers 200). */
const known = async (id) =>
  (await fetch(`${emulator.apiBaseUrl}/causes/${id}`, { headers: { authorization: `Bearer ${token}` } }))
    .status === 200;

/** The cause id with two neighbouring digits swapped, as a hurried typist would, that the service does not know. */
async function mistyped(id) {
  const [country, digits] = id.split('-');
  for (let i = digits.length - 2; i > 0; i--) {
    if (digits[i] === digits[i + 1]) continue;
    const swapped = `${country}-${digits.slice(0, i)}${digits[i + 1]}${digits[i]}${digits.slice(i + 2)}`;
    if (!(await known(swapped))) return swapped;
  }
  throw new Error(`no unknown id near ${id}`);
}

const good = info.samples.causesInGoodStanding.map((c) => c.id);
const declined = info.samples.causesNotInGoodStanding[0];
const people = [
  ['Ana Lopez', 'ana.lopez@acme.example', 'E-00142', 'Finance'],
  ['Ben Okafor', 'ben.okafor@acme.example', 'E-00217', 'Engineering'],
  ['Chloé Martin', 'chloe.martin@acme.example', 'E-00381', 'Sales'],
  ['Dev Patel', 'dev.patel@acme.example', 'E-00402', 'Engineering'],
  ['Emma Schultz', 'emma.schultz@acme.example', 'E-00455', 'Operations'],
  ['Farah Haddad', 'farah.haddad@acme.example', 'E-00512', 'Legal'],
  ['George Chen', 'george.chen@acme.example', 'E-00533', 'Finance'],
  ['Hana Sato', 'hana.sato@acme.example', 'E-00610', 'Marketing'],
];
const amounts = [
  '25.00',
  '50.00',
  '100.00',
  '1,250.00',
  '75.50',
  '10.00',
  '250.00',
  '40.00',
  '500.00',
  '15.25',
];

const rows = [];
for (let i = 0; i < 36; i++) {
  const [name, email, id, dept] = people[i % people.length];
  rows.push([
    good[i % good.length],
    amounts[i % amounts.length],
    'USD',
    name,
    email,
    i % 3 === 0 ? 'yes' : 'no',
    id,
    dept,
  ]);
}
rows.push([
  info.samples.project,
  '60.00',
  'USD',
  'Ana Lopez',
  'ana.lopez@acme.example',
  'yes',
  'E-00142',
  'Finance',
]);
rows.push([
  info.samples.portfolios[0],
  '120.00',
  'USD',
  'Ben Okafor',
  'ben.okafor@acme.example',
  'no',
  'E-00217',
  'Engineering',
]);
// The service declines this one later: the cause is not in good standing.
rows.push([declined, '35.00', 'USD', 'Dev Patel', 'dev.patel@acme.example', 'no', 'E-00402', 'Engineering']);
// Mistakes to find and fix in the grid.
rows[4][1] = '10.005'; // more decimals than USD has
rows[9][4] = 'george.chen@'; // not an email address
rows[13][0] = '840 56309746'; // not a recipient id
// Well-formed, so the app cannot tell; the service does not know it and refuses the row.
const unknownRow = 20;
const rightId = rows[unknownRow][0];
rows[unknownRow][0] = await mistyped(rightId);
await emulator.close();

const total =
  rows.reduce((sum, r) => sum + Math.round(Number(String(r[1]).replace(/,/g, '')) * 100), 0) / 100;
const sheet = XLSX.utils.aoa_to_sheet([
  ['Acme Corp: employee matching gifts, November 2026'],
  [],
  [
    'Charity ID',
    'Gift amount',
    'Currency',
    'Employee name',
    'Employee email',
    'Receipt?',
    'Employee ID',
    'Department',
  ],
  ...rows,
  ['Total', total.toFixed(2)],
]);
sheet['!cols'] = [18, 12, 9, 18, 28, 9, 11, 13].map((wch) => ({ wch }));
const book = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(book, sheet, 'November');
writeFileSync('assets/sample-donations.xlsx', XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
console.log(`wrote assets/sample-donations.xlsx: ${rows.length} donations, total ${total.toFixed(2)} USD`);
console.log(
  `row ${unknownRow + 4}: ${rows[unknownRow][0]} is not known to the service (the right id is ${rightId}); ` +
    `row ${rows.length + 3}: ${declined} is not in good standing`,
);
