import { beforeEach, describe, expect, it } from 'vitest';
import { leaveUploadNotice, noticeStillHolds, takeUploadNotice } from './uploadNotice';

// The window's session storage, as far as these functions use it.
const stored = new Map<string, string>();
Object.assign(globalThis, {
  sessionStorage: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
    clear: () => stored.clear(),
  },
});

describe('the line the upload dialog leaves for Uploads', () => {
  beforeEach(() => sessionStorage.clear());

  it('is read back with the upload it names, and cleared by the next upload', () => {
    leaveUploadNotice({ text: 'Submitted for approval', uploadId: 'u1' });
    expect(takeUploadNotice()).toEqual({ text: 'Submitted for approval', uploadId: 'u1' });
    leaveUploadNotice(null);
    expect(takeUploadNotice()).toBeNull();
  });

  it('holds only while its upload waits: not once a colleague approved and sent it', () => {
    const notice = { text: 'Submitted for approval', uploadId: 'u1' };
    expect(noticeStillHolds(notice, null)).toBe(true);
    expect(noticeStillHolds(notice, [{ uploadId: 'u1', state: 'waiting-approval' }])).toBe(true);
    expect(noticeStillHolds(notice, [{ uploadId: 'u1', state: 'following' }])).toBe(false);
    expect(noticeStillHolds(notice, [{ uploadId: 'u1', state: 'processed' }])).toBe(false);
    expect(noticeStillHolds(notice, [{ uploadId: 'u2', state: 'processed' }])).toBe(true);
  });
});
