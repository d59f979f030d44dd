import { describe, expect, it } from 'vitest';
import { checkInput } from '../../../shared/contract/dispatch';
import type { ChannelInput } from '../../../shared/contract';
import { plainXls, xlsThatKillsSheetJS } from '../../../shared/spreadsheet/testing/craftedXls';
import { sheetJSHandlers } from './sheetJSHandlers';

const request = (input: unknown): ChannelInput<'spreadsheet.readWithSheetJS'> => {
  const checked = checkInput('spreadsheet.readWithSheetJS', input);
  if (!checked.ok) throw new Error(checked.error.message);
  return checked.value as ChannelInput<'spreadsheet.readWithSheetJS'>;
};

const ctx = { transport: 'test' } as const;

describe('the general reader for the app', () => {
  it('reads an .xls in its separate process and sends back the sheet', async () => {
    const handlers = sheetJSHandlers({});
    const book = await handlers['spreadsheet.readWithSheetJS'](request({ bytes: plainXls() }), ctx);
    expect(book).toMatchObject({ sheetNames: ['Gifts'], date1904: false });
    expect(
      await handlers['spreadsheet.readWithSheetJS'](request({ bytes: plainXls(), namesOnly: true }), ctx),
    ).toMatchObject({
      sheetNames: ['Gifts'],
    });
  });

  it('refuses plainly when a crafted .xls makes the reader run out of memory, and main carries on', async () => {
    const handlers = sheetJSHandlers({ DONATION_DESK_SHEETJS_HEAP_MB: '64' });
    await expect(
      handlers['spreadsheet.readWithSheetJS'](request({ bytes: xlsThatKillsSheetJS() }), ctx),
    ).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
      message: expect.stringMatching(/^The file could not be read: the spreadsheet reader stopped part-way/),
    });
  }, 120_000);

  it('takes no empty file and none past its size limit', () => {
    expect(checkInput('spreadsheet.readWithSheetJS', { bytes: new Uint8Array(0) })).toMatchObject({
      ok: false,
    });
    expect(checkInput('spreadsheet.readWithSheetJS', { bytes: 'not bytes' })).toMatchObject({ ok: false });
    expect(
      checkInput('spreadsheet.readWithSheetJS', { bytes: new Uint8Array(1), sheet: 'x'.repeat(1001) }),
    ).toMatchObject({ ok: false });
  });
});
