import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import { localSendGate, localSendGates } from './localSendGate';
import type { SendGateHost } from './sendGate';
import { SERVICE, testApproval, testGroup, testIntent } from './testFixtures';

describe('the local send gate', () => {
  it('lets an upload made alone go, and shares nothing', async () => {
    const group = testGroup('u1');
    expect(await localSendGate.beforeSend(group)).toEqual({ verdict: 'go' });
    expect(localSendGate.begin()).toBeNull();
    expect(await localSendGate.sentElsewhere(SERVICE, ['fp-1'])).toEqual(new Map());
    expect(await localSendGate.mayFollow(testIntent('u1', 'UPLOADED'))).toBe(true);
    expect(await localSendGate.edited(group, 'edited')).toBe(group);
    await expect(localSendGate.giveBackClaims(null)).resolves.toBeUndefined();
  });

  it('lets an upload already released by its team database go on', async () => {
    const group = testGroup('u1', { approval: testApproval('sent') });
    expect(await localSendGate.beforeSend(group)).toEqual({ verdict: 'go' });
  });

  it('holds an upload submitted to a team database it is not connected to, saying so', async () => {
    for (const approval of [testApproval('waiting'), testApproval('sent', { sendsHere: false })]) {
      const answer = await localSendGate.beforeSend(testGroup('u1', { approval }));
      expect(answer.verdict).toBe('wait');
      expect(answer.problem).toContain('submitted to the team database db.example.org:5432/desk');
    }
  });

  it('has no approved upload to send', async () => {
    const failure = await localSendGate.toSend('u1').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).code).toBe('TEAM_ALONE');
    expect(localSendGates.inForce()).toBe(false);
    expect(await localSendGates.anythingToTakeOver()).toBe(false);
    expect(localSendGates.open({} as SendGateHost)).toBe(localSendGate);
  });
});
