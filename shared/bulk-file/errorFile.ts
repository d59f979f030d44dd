import { normalisePointer } from './pointer';
import { serviceErrorSchema } from './serviceShapes';

/** A service error with its pointer resolved to a donation attribute path. */
export interface NormalisedError {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  /** The pointer as the service wrote it. */
  pointer?: string;
  /** Attribute path the error is about (`funds.amount`, `metadata.<key>`); '' for the whole donation or file. */
  field: string;
  /** Position in the file's `data` when the pointer is absolute (`/data/3/...`). */
  index?: number;
  meta?: unknown;
}

/** One donation of an error file, with the errors it carries. */
export interface ErrorFileDonation {
  /** Its position in the error file's `data` (not necessarily in the uploaded file). */
  position: number;
  /** The donation's attributes as the file holds them (the `errors` removed), if it has any. */
  attributes?: Record<string, unknown>;
  errors: NormalisedError[];
  /** The first absolute index any of its error pointers gives (`/data/3/...`), a hint for matching. */
  pointerIndex?: number;
}

export type ParsedErrorFile =
  | {
      /** `donation-errors.gz`: the bulk-file shape with `errors` on each invalid donation. */
      form: 'donations';
      /** The donations that carry errors. */
      donations: ErrorFileDonation[];
      /** Donations in the file without errors (when the service returns the whole file). */
      validCount: number;
      /** Errors not tied to one donation (a top-level `errors`). */
      fileErrors: NormalisedError[];
    }
  | {
      /** `donations.gz`: the original upload returned because the file itself was unusable. */
      form: 'file';
      /** Whether the returned file is JSON at all. */
      json: boolean;
      /** Where JSON parsing stopped, when it is not JSON. */
      syntax?: { message: string; position?: number; line?: number; column?: number };
      /** The file's donations, when it is JSON with a `data` list (none carry errors). */
      donations: ErrorFileDonation[];
      /** The bulk intent's single error and any top-level errors. */
      fileErrors: NormalisedError[];
    };

export interface ErrorFileHint {
  /** Name of the downloaded file: `donation-errors.gz` or `donations.gz`. */
  fileName?: string;
  /** The bulk intent's `errors` (array when donations are invalid, one object when the file is). */
  intentErrors?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads one error object leniently: whatever the service sends, something useful comes out. */
export function normaliseError(raw: unknown): NormalisedError {
  const parsed = serviceErrorSchema.safeParse(raw);
  if (!parsed.success) {
    return { field: '', detail: typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw)) };
  }
  const e = parsed.data;
  const pointer = e.source?.pointer ?? undefined;
  const target = normalisePointer(pointer);
  const out: NormalisedError = { field: target.field };
  if (e.status !== undefined) out.status = e.status;
  if (e.code !== undefined) out.code = e.code;
  if (e.title !== undefined) out.title = e.title;
  if (e.detail !== undefined && e.detail !== null) out.detail = e.detail;
  if (pointer) out.pointer = pointer;
  if (target.index !== undefined) out.index = target.index;
  if (e.meta !== undefined && e.meta !== null) out.meta = e.meta;
  return out;
}

function errorList(value: unknown): NormalisedError[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(normaliseError);
}

function readEntry(entry: unknown, position: number): ErrorFileDonation {
  if (!isObject(entry)) return { position, errors: [] };
  // Errors sit beside the attributes; some services nest them inside. Either way they are not content.
  const inner = isObject(entry.attributes) ? entry.attributes : undefined;
  const errors = [...errorList(entry.errors), ...errorList(inner?.errors)];
  let attributes: Record<string, unknown> | undefined;
  if (inner) {
    const { errors: _nested, ...rest } = inner;
    attributes = rest;
  } else if ('destination' in entry || 'funds' in entry) {
    // A bare donation without the {type, attributes} envelope.
    const { errors: _own, type: _type, id: _id, ...rest } = entry;
    attributes = rest;
  }
  const pointerIndex = errors.find((e) => e.index !== undefined)?.index;
  return {
    position,
    ...(attributes ? { attributes } : {}),
    errors,
    ...(pointerIndex !== undefined ? { pointerIndex } : {}),
  };
}

function syntaxOf(
  text: string,
  error: unknown,
): NonNullable<Extract<ParsedErrorFile, { form: 'file' }>['syntax']> {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  if (!at) return { message };
  const position = Number(at[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return { message, position, line, column };
}

/**
 * Parses a bulk error file (already gunzipped) in both forms the service uses: (a) the bulk-file
 * shape where invalid donations carry `errors` (it may hold only the invalid ones), and (b) the
 * original upload returned with one error on the intent, possibly not JSON at all. Accepts JSON text
 * or an already parsed value. The form follows the content (any donation with errors → 'donations'),
 * then the file name and the shape of the intent's errors.
 */
export function parseErrorFile(content: unknown, hint: ErrorFileHint = {}): ParsedErrorFile {
  let value = content;
  if (typeof content === 'string') {
    try {
      value = JSON.parse(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
    } catch (error) {
      return {
        form: 'file',
        json: false,
        syntax: syntaxOf(content, error),
        donations: [],
        fileErrors: errorList(hint.intentErrors),
      };
    }
  }

  const data: unknown[] = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.data)
      ? value.data
      : isObject(value) && isObject(value.data)
        ? [value.data]
        : [];
  const topErrors = isObject(value) ? errorList(value.errors) : [];
  const entries = data.map(readEntry);
  const withErrors = entries.filter((e) => e.errors.length > 0);

  const namedAsDonationErrors = /donation-errors/i.test(hint.fileName ?? '');
  const namedAsOriginal =
    /(^|[\\/])donations\.(json\.)?gz$/i.test(hint.fileName ?? '') ||
    /^donations\b/i.test(hint.fileName ?? '');
  const intentSaysFile = isObject(hint.intentErrors);
  const form: ParsedErrorFile['form'] =
    withErrors.length > 0
      ? 'donations'
      : intentSaysFile || namedAsOriginal
        ? 'file'
        : namedAsDonationErrors
          ? 'donations'
          : 'file';

  if (form === 'donations') {
    return {
      form,
      donations: withErrors,
      validCount: entries.length - withErrors.length,
      fileErrors: topErrors,
    };
  }
  return {
    form,
    json: true,
    donations: entries,
    fileErrors: [...errorList(hint.intentErrors), ...topErrors],
  };
}
