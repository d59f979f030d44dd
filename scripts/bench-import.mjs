// Import benchmark: SheetJS read + sheet_to_json against shared/spreadsheet's readSpreadsheet on the
// same generated xlsx, in one run. Each reader runs in its own child process so its peak RSS is its
// own. Usage: node scripts/bench-import.mjs [--rows 100000] [--runs 1]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import * as XLSX from 'xlsx';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

async function measure(kind, file, bundle) {
  const bytes = new Uint8Array(readFileSync(file));
  // Both readers are loaded before the clock starts, as an app would have them loaded.
  const { readSpreadsheet } = kind === 'sheetjs' ? {} : await import(pathToFileURL(bundle).href);
  const started = performance.now();
  let rows;
  if (kind === 'sheetjs') {
    const book = XLSX.read(bytes, { type: 'array', dense: true, cellText: false, cellHTML: false });
    rows = XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1 }).length;
  } else {
    let progressCalls = 0;
    const result = await readSpreadsheet(bytes, 'bench.xlsx', { onProgress: () => progressCalls++ });
    rows = result.rows.length + result.headerRowCount;
    if (progressCalls === 0) throw new Error('no progress reported');
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ seconds, rows, peakRss: peakRss() }));
}

/** Column letters for a 0-based index (A…Z, AA…). */
const letters = (index) =>
  (index < 26 ? '' : letters(Math.floor(index / 26) - 1)) + String.fromCharCode(65 + (index % 26));
const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A zip written the way Excel writes one: deflate level 6, sizes and CRC in the headers. */
function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const compressed = deflateRawSync(data, { level: 6 });
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30 + nameBytes.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    nameBytes.copy(local, 30);
    const central = Buffer.alloc(46 + nameBytes.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    nameBytes.copy(central, 46);
    locals.push(local, compressed);
    centrals.push(central);
    offset += local.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length, 8);
  end.writeUInt16LE(centrals.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * A month-end donations workbook as Excel saves it: shared strings, ids with leading zeros stored
 * as text, amounts as numbers, dates as serials with a date style, booleans, optional notes.
 * Written directly (not through SheetJS) so 500k rows generate in seconds with Excel's compression.
 */
export function generate(rowCount) {
  const first = ['Ann', 'Bob', 'Chloé', 'Dmitri', 'Eve', 'Fatima', 'Gus', 'Hana'];
  const last = ['Smith', 'Lee', 'García', "O'Brien", 'Nguyen', 'Müller'];
  const causes = ['ca-001', 'ca-002/pr-17', 'pf-9', 'ca-314'];
  const headers = [
    'Employee ID',
    'Charity ID',
    'First name',
    'Last name',
    'Email',
    'Gift amount',
    'Currency',
    'Date',
    'Receipted',
    'Department',
    'Cost centre',
    'Campaign',
    'Note',
    'Reference',
  ];
  const strings = [];
  const indexOf = new Map();
  const shared = (text) => {
    let index = indexOf.get(text);
    if (index === undefined) {
      index = strings.length;
      strings.push(text);
      indexOf.set(text, index);
    }
    return index;
  };
  const sheetParts = [];
  const rowXml = (r, cells) =>
    `<row r="${r}">${cells
      .map((cell, c) => {
        if (cell === null) return '';
        const [kind, value] = cell;
        const ref = `${letters(c)}${r}`;
        if (kind === 's') return `<c r="${ref}" t="s"><v>${shared(value)}</v></c>`;
        if (kind === 'd') return `<c r="${ref}" s="1"><v>${value}</v></c>`;
        if (kind === 'b') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
        return `<c r="${ref}"><v>${value}</v></c>`;
      })
      .join('')}</row>`;
  sheetParts.push(
    rowXml(
      1,
      headers.map((h) => ['s', h]),
    ),
  );
  for (let i = 0; i < rowCount; i++) {
    const name = first[i % first.length];
    const surname = last[(i * 7) % last.length];
    const cells = [
      ['s', String(i + 1).padStart(6, '0')],
      ['s', causes[i % causes.length]],
      ['s', name],
      ['s', surname],
      ['s', `${name.toLowerCase()}.${i}@example.com`],
      ['n', Math.round(((i * 7919) % 100000) + 500) / 100],
      ['s', 'USD'],
      ['d', 46327 + (i % 28)],
      ['b', i % 3 === 0],
      ['s', `Dept ${i % 40}`],
      ['s', `CC-${(i * 31) % 977}`],
      ['s', `Giving week ${i % 5}`],
      i % 4 === 0 ? ['s', `Matched gift for request ${i}, approved by finance`] : null,
      ['s', `REF-${i.toString(36).toUpperCase()}`],
    ];
    sheetParts.push(rowXml(i + 2, cells));
  }
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sheet = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${main}" xmlns:r="${rel}">` +
      `<dimension ref="A1:N${rowCount + 1}"/><sheetData>${sheetParts.join('')}</sheetData></worksheet>`,
    'utf8',
  );
  sheetParts.length = 0;
  const sst = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((text) => `<si><t>${escapeXml(text)}</t></si>`).join('') +
      '</sst>',
    'utf8',
  );
  return zip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><workbookPr/><sheets><sheet name="Donations" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${main}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    'xl/worksheets/sheet1.xml': sheet,
    'xl/sharedStrings.xml': sst,
  });
}

async function main() {
  const kind = argument('--measure', undefined);
  if (kind) return measure(kind, argument('--file'), argument('--bundle'));

  const rowCount = Number(argument('--rows', '100000'));
  const runs = Number(argument('--runs', '1'));
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const bundle = join(dir, 'spreadsheet.mjs');
    await build({
      entryPoints: [join(root, 'shared/spreadsheet/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      outfile: bundle,
      logLevel: 'error',
    });
    const started = performance.now();
    const bytes = generate(rowCount);
    const file = join(dir, 'bench.xlsx');
    writeFileSync(file, bytes);
    console.log(
      `Generated ${rowCount.toLocaleString('en')} rows × 14 columns: ${(bytes.length / 1024 / 1024).toFixed(1)} MB xlsx ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const run = (which) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--max-old-space-size=4096',
            fileURLToPath(import.meta.url),
            '--measure',
            which,
            '--file',
            file,
            '--bundle',
            bundle,
          ],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        ),
      );
    for (let i = 1; i <= runs; i++) {
      const sheetjs = run('sheetjs');
      const fast = run('fast');
      const ratio = fast.seconds / sheetjs.seconds;
      if (runs > 1) console.log(`Run ${i}`);
      const line = (label, m) =>
        `  ${label.padEnd(38)} ${m.seconds.toFixed(2).padStart(6)} s  ${Math.round(m.rows / m.seconds)
          .toLocaleString('en')
          .padStart(
            10,
          )} rows/s  peak RSS ${mb(m.peakRss).padStart(7)}  (${m.rows.toLocaleString('en')} rows)`;
      console.log(line('SheetJS read + sheet_to_json (dense)', sheetjs));
      console.log(line('readSpreadsheet (fast xlsx reader)', fast));
      console.log(
        `  ratio readSpreadsheet / SheetJS: ${ratio.toFixed(3)} (target ≤ 0.35) ${ratio <= 0.35 ? 'OK' : 'MISSED'}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Also imported by bench-ui.mjs for its generated workbook; runs only when started itself.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
