// Long-row benchmark: an xlsx whose one row holds N MB of spaces between two cells (a few hundred KB
// compressed), read by shared/spreadsheet's readSpreadsheet for several sizes. Linear reading shows
// as a constant time per MB. Usage: node scripts/bench-long-row.mjs [--sizes 25,50,100,250]
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDeflateRaw } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--sizes');
const sizes = (at === -1 ? '25,50,100,250' : process.argv[at + 1]).split(',').map(Number);

/** Raw deflate of the parts, given as strings or as [text, times] to repeat, made in pieces. */
async function deflate(parts) {
  const deflater = createDeflateRaw({ level: 6 });
  const out = [];
  deflater.on('data', (piece) => out.push(piece));
  const done = new Promise((resolve) => deflater.on('end', resolve));
  for (const part of parts) {
    if (typeof part === 'string') deflater.write(part);
    else for (let i = 0; i < part[1]; i++) deflater.write(part[0]);
  }
  deflater.end();
  await done;
  return Buffer.concat(out);
}

/** A stored-size-honest zip of pre-deflated entries (CRC left 0: the reader does not check it). */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, deflated, size } of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30 + nameBytes.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    nameBytes.copy(local, 30);
    const central = Buffer.alloc(46 + nameBytes.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    nameBytes.copy(central, 46);
    locals.push(local, deflated);
    centrals.push(central);
    offset += local.length + deflated.length;
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

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

async function workbook(megabytes) {
  const spaces = ' '.repeat(1024 * 1024);
  const head = `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c>`;
  const tail = '<c r="B1" t="inlineStr"><is><t>Amount</t></is></c></row></sheetData></worksheet>';
  const text = async (xml) => ({ deflated: await deflate([xml]), size: Buffer.byteLength(xml) });
  return zip([
    {
      name: '_rels/.rels',
      ...(await text(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      )),
    },
    {
      name: 'xl/workbook.xml',
      ...(await text(
        `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Gifts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      )),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      ...(await text(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      )),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      deflated: await deflate([head, [spaces, megabytes], tail]),
      size: head.length + megabytes * spaces.length + tail.length,
    },
  ]);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-long-row-'));
try {
  const bundle = join(dir, 'spreadsheet.mjs');
  await build({
    entryPoints: [join(root, 'shared/spreadsheet/index.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  const { readSpreadsheet } = await import(pathToFileURL(bundle).href);
  for (const megabytes of sizes) {
    const bytes = await workbook(megabytes);
    const started = performance.now();
    const result = await readSpreadsheet(bytes, 'long-row.xlsx');
    const seconds = (performance.now() - started) / 1000;
    if (result.headers.join(',') !== 'Name,Amount') throw new Error(`read ${result.headers}`);
    console.log(
      `${String(megabytes).padStart(4)} MB of spaces (${Math.round(bytes.length / 1024)} KB file): ${seconds.toFixed(2)} s, ${((seconds / megabytes) * 1000).toFixed(1)} ms/MB`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
