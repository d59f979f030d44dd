import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import type { UploadContext } from './context';
import { GroupSender } from './groupSender';
import { localSendGate } from './localSendGate';
import type { SendGate } from './sendGate';
import { KeyedLocks } from './serialWork';
import { testApproval, testBasics, testGroup, testIntent } from './testFixtures';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function senderWith(send: () => Promise<void>, gate: SendGate = localSendGate) {
  const t = await testBasics();
  close = t.close;
  const ctx: UploadContext = { ...t.basics, gate };
  const scheduleResume = vi.fn();
  const parts = { send: vi.fn(send) };
  return {
    groups: new GroupSender(ctx, parts, new KeyedLocks(), scheduleResume),
    ctx,
    parts,
    scheduleResume,
  };
}

describe('GroupSender', () => {
  it('sends every part of an upload made alone', async () => {
    const { groups, ctx, parts } = await senderWith(async () => undefined);
    const group = testGroup('u1');
    await ctx.ledger.putGroup(group);
    expect(await groups.send(group)).toEqual([]);
    expect(parts.send).toHaveBeenCalledWith(group, 0);
  });

  it('sends nothing while the gate says wait, and asks again later', async () => {
    const { groups, ctx, parts, scheduleResume } = await senderWith(async () => undefined);
    const group = testGroup('u1', { approval: testApproval('waiting') });
    await ctx.ledger.putGroup(group);
    expect((await groups.send(group))[0]).toContain('not connected to now');
    expect(parts.send).not.toHaveBeenCalled();
    expect(scheduleResume).toHaveBeenCalled();
  });

  it('stops an upload whose file the host refused, abandoning attempts that never got it', async () => {
    const refused = new DeskFailure('UPLOAD_REJECTED', 'The upload host refused the file.');
    const { groups, ctx, scheduleResume } = await senderWith(async () => {
      await ctx.ledger.putIntent(testIntent('u1', 'pending'));
      throw refused;
    });
    const group = testGroup('u1');
    await ctx.ledger.putGroup(group);
    expect(await groups.send(group)).toEqual(['The upload host refused the file.']);
    expect(ctx.ledger.group('u1')?.stopped?.reason).toBe('The upload host refused the file.');
    expect(ctx.ledger.intentsOf('u1').map((i) => i.state)).toEqual(['abandoned']);
    expect(scheduleResume).not.toHaveBeenCalled();
  });

  it('tells the gate nothing was sent when the file to send was not the recorded one and no part left', async () => {
    const gate: SendGate = { ...localSendGate, nothingSent: vi.fn(async () => undefined) };
    const missing = new DeskFailure(
      'LEDGER_FILE_MISSING',
      'The prepared file for this upload is missing or changed on disk, so it is not sent.',
    );
    const { groups, ctx } = await senderWith(async () => {
      await ctx.ledger.putIntent(testIntent('u1', 'pending'));
      throw missing;
    }, gate);
    const group = testGroup('u1', { approval: testApproval('sent', { sendsHere: true }) });
    await ctx.ledger.putGroup(group);
    await groups.send(group);
    expect(gate.nothingSent).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1' }), missing.message);
  });

  it('does not say nothing was sent once a part reached the service', async () => {
    const gate: SendGate = { ...localSendGate, nothingSent: vi.fn(async () => undefined) };
    const { groups, ctx } = await senderWith(async () => {
      await ctx.ledger.putIntent(testIntent('u1', 'UPLOADED', { attemptId: 'first' }));
      throw new DeskFailure('LEDGER_FILE_MISSING', 'missing');
    }, gate);
    const group = testGroup('u1', { approval: testApproval('sent', { sendsHere: true }) });
    await ctx.ledger.putGroup(group);
    await groups.send(group);
    expect(gate.nothingSent).not.toHaveBeenCalled();
  });

  it('tries again later after an unexpected failure', async () => {
    const { groups, ctx, scheduleResume } = await senderWith(async () => {
      throw new Error('disk full');
    });
    const group = testGroup('u1');
    await ctx.ledger.putGroup(group);
    expect(await groups.send(group)).toEqual(['Part 1 could not be sent yet; it will be tried again.']);
    expect(ctx.ledger.group('u1')?.stopped).toBeNull();
    expect(scheduleResume).toHaveBeenCalled();
  });
});
