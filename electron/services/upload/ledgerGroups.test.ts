import { afterEach, describe, expect, it } from 'vitest';
import { allSettled, stopGroup, unsent, waitsOnTeam } from './ledgerGroups';
import { NOW, testApproval, testBasics, testGroup, testIntent } from './testFixtures';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function ledger() {
  const t = await testBasics();
  close = t.close;
  return t.basics;
}

describe('where an upload stands in the ledger', () => {
  it('has unsent parts until an attempt that is not abandoned reached the service', async () => {
    const ctx = await ledger();
    const group = testGroup('u1');
    await ctx.ledger.putGroup(group);
    expect(unsent(ctx.ledger, group)).toBe(true);
    await ctx.ledger.putIntent(testIntent('u1', 'UPLOADED', { attemptId: 'old' }));
    await ctx.ledger.putIntent(testIntent('u1', 'abandoned', { attemptId: 'new' }));
    expect(unsent(ctx.ledger, group)).toBe(false);
    await ctx.ledger.putIntent(testIntent('u1', 'pending', { attemptId: 'newer' }));
    expect(unsent(ctx.ledger, group)).toBe(true);
  });

  it('is settled when stopped, processed, or in ERROR with its donations known', async () => {
    const ctx = await ledger();
    await ctx.ledger.putGroup(testGroup('u1'));
    expect(allSettled(ctx.ledger)).toBe(false);
    await ctx.ledger.putIntent(testIntent('u1', 'ERROR'));
    expect(allSettled(ctx.ledger)).toBe(false);
    await ctx.ledger.putIntent(testIntent('u1', 'ERROR', { donationRowKeys: [1] }));
    expect(allSettled(ctx.ledger)).toBe(true);
    await ctx.ledger.putGroup(testGroup('u2', { stopped: { at: 'then', reason: 'refused' } }));
    expect(allSettled(ctx.ledger)).toBe(true);
  });

  it('waits on the team while submitted or waiting, or while a colleague sends and bulks are missing', async () => {
    const ctx = await ledger();
    expect(waitsOnTeam(ctx.ledger, undefined)).toBe(false);
    expect(waitsOnTeam(ctx.ledger, testGroup('alone'))).toBe(false);
    expect(waitsOnTeam(ctx.ledger, testGroup('w', { approval: testApproval('waiting') }))).toBe(true);
    expect(waitsOnTeam(ctx.ledger, testGroup('s', { approval: testApproval('submitting') }))).toBe(true);
    const stopped = testGroup('x', {
      approval: testApproval('waiting'),
      stopped: { at: 'then', reason: 'r' },
    });
    expect(waitsOnTeam(ctx.ledger, stopped)).toBe(false);
    const elsewhere = testGroup('e', { approval: testApproval('sent', { sendsHere: false }) });
    expect(waitsOnTeam(ctx.ledger, elsewhere)).toBe(true);
    await ctx.ledger.putIntent(testIntent('e', 'UPLOADED'));
    expect(waitsOnTeam(ctx.ledger, elsewhere)).toBe(false);
    expect(waitsOnTeam(ctx.ledger, testGroup('a', { approval: testApproval('approved') }))).toBe(false);
  });

  it('stops an upload once, keeping the first reason', async () => {
    const ctx = await ledger();
    await ctx.ledger.putGroup(testGroup('u1'));
    const stopped = await stopGroup(ctx, testGroup('u1'), 'first');
    expect(stopped.stopped).toEqual({ at: new Date(NOW).toISOString(), reason: 'first' });
    await stopGroup(ctx, testGroup('u1'), 'second');
    expect(ctx.ledger.group('u1')?.stopped?.reason).toBe('first');
  });
});
