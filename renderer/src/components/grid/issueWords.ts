import type { CellIssueView } from './gridTypes';

/**
 * A cell's problems in words, each said to be an error or a warning: the words tell them apart, not
 * the colour alone (a screen reader, a printout, a person who does not see red and orange apart).
 */
export function issuesInWords(issues: readonly CellIssueView[]): string {
  return issues.map((i) => `${i.severity === 'error' ? 'Error' : 'Warning'}: ${i.message}`).join(' ');
}
