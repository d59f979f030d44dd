import { describe, expect, it } from 'vitest';
import { describeAuditEntry } from './describeAuditEntry';

describe('describeAuditEntry: settings', () => {
  it('names the team database address and says of its password only that it changed', () => {
    const text = describeAuditEntry({
      action: 'settings',
      details: {
        changes: [
          { setting: 'teamDatabase.address', from: '', to: 'postgres://bob@db.example.com:5432/desk' },
          { setting: 'teamDatabase.password', change: 'replaced' },
        ],
      },
    });
    expect(text).toContain('Team database address');
    expect(text).toContain('postgres://bob@db.example.com:5432/desk');
    expect(text).toContain('Team database password replaced');
  });
});
