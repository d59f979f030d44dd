/**
 * Recipient id shapes accepted (the spec names three without formats; these are the exact shapes
 * this app accepts, lenient enough for real ids such as 840-123456789 or 124-108080285RR0001):
 *
 * - cause:          1–4 digits (country or registry prefix), then one or more "-<letters/digits>"
 *                   groups: `840-123456789`, `124-108080285RR0001`, `826-1234567-1`
 * - cause/project:  a cause, "/", then 1–64 letters/digits: `840-123456789/4X7K2M9QPL`
 * - portfolio:      letters/digits, with "_", "-", "." or ":" inside, starting and ending with a
 *                   letter or digit: `climate-portfolio`, `PF_2024_01`
 *
 * All shapes: at most 128 characters, no spaces. Two look-alikes are warned about, not refused,
 * because they are valid portfolio/cause shapes yet usually a mistake: a bare number and a US EIN
 * without the 840 prefix.
 */
export const CAUSE_ID = /^[0-9]{1,4}(?:-[A-Za-z0-9]+)+$/;
export const PROJECT_ID = /^[A-Za-z0-9]{1,64}$/;
export const PORTFOLIO_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_.:-]*[A-Za-z0-9])?$/;
const MAX_LENGTH = 128;

export type RecipientShape = 'cause' | 'cause/project' | 'portfolio';

export interface RecipientProblem {
  severity: 'error' | 'warning';
  code: string;
  message: string;
}

/** Which accepted shape an id has, or undefined when it has none. */
export function recipientShape(id: string): RecipientShape | undefined {
  if (id.length === 0 || id.length > MAX_LENGTH) return undefined;
  const slash = id.indexOf('/');
  if (slash >= 0) {
    return CAUSE_ID.test(id.slice(0, slash)) && PROJECT_ID.test(id.slice(slash + 1))
      ? 'cause/project'
      : undefined;
  }
  if (CAUSE_ID.test(id)) return 'cause';
  return PORTFOLIO_ID.test(id) ? 'portfolio' : undefined;
}

const EXAMPLES = 'a cause (840-123456789), a cause/project (840-123456789/4X7K2M9QPL) or a portfolio id';

/** The error that makes an id unusable, or a warning for a likely mistake; undefined when fine. */
export function checkRecipientId(id: string): RecipientProblem | undefined {
  // A file names a few recipients many times over: each id is judged once.
  if (checked.has(id)) return checked.get(id);
  if (checked.size >= CHECKED_LIMIT) checked.clear();
  const problem = judgeRecipientId(id);
  // Shared by every row with this id, so nobody may change it.
  if (problem) Object.freeze(problem);
  checked.set(id, problem);
  return problem;
}

const CHECKED_LIMIT = 10_000;
const checked = new Map<string, RecipientProblem | undefined>();

function judgeRecipientId(id: string): RecipientProblem | undefined {
  const shape = recipientShape(id);
  if (shape === undefined) return { severity: 'error', code: 'RECIPIENT_INVALID', message: whyInvalid(id) };
  if (/^[0-9]{2}-[0-9]{7}$/.test(id)) {
    return {
      severity: 'warning',
      code: 'RECIPIENT_LOOKS_LIKE_EIN',
      message: `Recipient ID "${id}" looks like a US EIN. US causes are usually written with the 840 prefix, e.g. 840-${id.replace('-', '')}.`,
    };
  }
  if (/^[0-9]+$/.test(id)) {
    return {
      severity: 'warning',
      code: 'RECIPIENT_BARE_NUMBER',
      message: `Recipient ID "${id}" is a bare number, which is read as a portfolio id. If it is a cause, add its country prefix, e.g. 840-${id}.`,
    };
  }
  return undefined;
}

function whyInvalid(id: string): string {
  const quoted = `Recipient ID "${id}"`;
  if (id.length > MAX_LENGTH)
    return `${quoted.slice(0, 40)}…" is longer than ${MAX_LENGTH} characters. Enter ${EXAMPLES}.`;
  if (/\s/.test(id)) return `${quoted} contains spaces. Remove them; expected ${EXAMPLES}.`;
  const slashes = id.split('/').length - 1;
  if (slashes > 1) return `${quoted} has more than one "/". Enter ${EXAMPLES}.`;
  if (slashes === 1) {
    const [cause = '', project = ''] = id.split('/');
    if (project === '')
      return `${quoted} ends with "/" but has no project id after it. Add the project id or remove the "/".`;
    if (!CAUSE_ID.test(cause))
      return `${quoted} has a project, but "${cause}" is not a cause id such as 840-123456789.`;
    return `${quoted} has a project id "${project}" with characters other than letters and digits.`;
  }
  return `${quoted} has characters that are not allowed. Enter ${EXAMPLES}.`;
}

/** Foundation ids have no documented shape: one token of letters, digits and _ . : / -. */
export const FOUNDATION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_.:/-]*[A-Za-z0-9])?$/;

export function isFoundationId(id: string): boolean {
  return id.length <= MAX_LENGTH && FOUNDATION_ID.test(id);
}
