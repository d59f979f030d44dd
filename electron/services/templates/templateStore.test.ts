import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TemplateStore } from './templateStore';

describe('TemplateStore', () => {
  it('saves, replaces by name, lists newest first and removes mapping templates', async () => {
    const store = new TemplateStore(await mkdtemp(join(tmpdir(), 'desk-tpl-')));
    expect(await store.list()).toEqual([]);
    await store.save('Payroll export', { columns: { 'Charity ID': 'recipientId' }, amountUnit: 'major' });
    await store.save('Matching gifts', {
      columns: { Cause: 'recipientId' },
      fixed: { currencyCode: 'EUR' },
      amountUnit: 'minor',
    });
    await store.save('Payroll export', {
      columns: { 'Charity ID': 'recipientId', Amount: 'amount' },
      amountUnit: 'major',
    });
    const listed = await store.list();
    expect(listed.map((t) => t.name)).toEqual(['Payroll export', 'Matching gifts']);
    expect(listed[0]?.template.columns).toEqual({ 'Charity ID': 'recipientId', Amount: 'amount' });
    expect((await store.remove('Matching gifts')).map((t) => t.name)).toEqual(['Payroll export']);
  });

  it('skips a damaged entry instead of losing every template', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'desk-tpl-'));
    await writeFile(
      join(dir, 'mapping-templates.json'),
      JSON.stringify([
        { name: 'ok', savedAt: 'x', template: { columns: {} } },
        { name: 'bad', template: { columns: { a: 'nonsense' } } },
      ]),
    );
    expect((await new TemplateStore(dir).list()).map((t) => t.name)).toEqual(['ok']);
  });
});
