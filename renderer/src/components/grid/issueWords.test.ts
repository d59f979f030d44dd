import { describe, expect, it } from 'vitest';
import { issuesInWords } from './issueWords';

describe('issuesInWords', () => {
  it('names each problem an error or a warning', () => {
    expect(
      issuesInWords([
        { severity: 'error', message: 'The e-mail has no domain.' },
        { severity: 'warning', message: 'Same amount as row 3.' },
      ]),
    ).toBe('Error: The e-mail has no domain. Warning: Same amount as row 3.');
  });
});
