import { afterEach, describe, expect, it } from 'vitest';
import { testBasics, testGroup, testIntent } from './testFixtures';
import { UploadNotices } from './uploadNotices';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('UploadNotices', () => {
  it('tells once per attempt that a bulk ended, with the job status of the upload', async () => {
    const t = await testBasics();
    close = t.close;
    const statuses: unknown[] = [];
    t.basics.events.subscribe((name, payload) => {
      if (name === 'job.status') statuses.push(payload);
    });
    await t.basics.ledger.putGroup(testGroup('u1'));
    const processed = testIntent('u1', 'PROCESSED', { counts: { accepted: 2 }, donationRowKeys: [1, 2] });
    await t.basics.ledger.putIntent(processed);
    const notices = new UploadNotices(t.basics);
    notices.finished(processed);
    notices.finished(processed);
    expect(t.notices).toEqual([{ title: 'Upload processed', body: 'March gifts: 2 donations accepted.' }]);
    expect(statuses).toEqual([
      { jobId: 'u1', kind: 'upload', status: 'succeeded', message: '2 donations processed.' },
    ]);
    notices.finished(testIntent('u1', 'ERROR', { attemptId: 'second' }));
    expect(t.notices[1]?.title).toBe('Upload needs attention');
  });
});
