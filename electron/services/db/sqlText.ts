/*
 * Just enough of SQL's lexical rules to find where statements end: line and block comments,
 * 'strings' (with '' inside, and E'…' strings with backslash escapes), "identifiers" and
 * PostgreSQL's $tag$ … $tag$ bodies. A `;` inside any of them does not end a statement.
 */

interface Piece {
  /** Text that counts as code (statement ends and names are looked for here only). */
  code: boolean;
  /** A comment (left out by `withoutComments`). */
  comment: boolean;
  text: string;
}

function pieces(sql: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  let start = 0;
  const flush = (end: number) => {
    if (end > start) out.push({ code: true, comment: false, text: sql.slice(start, end) });
  };
  const push = (end: number, comment: boolean) => {
    out.push({ code: false, comment, text: sql.slice(i, end) });
    i = end;
    start = end;
  };
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      flush(i);
      const end = sql.indexOf('\n', i);
      push(end === -1 ? sql.length : end, true);
    } else if (c === '/' && next === '*') {
      flush(i);
      const end = sql.indexOf('*/', i + 2);
      push(end === -1 ? sql.length : end + 2, true);
    } else if (c === "'" || c === '"') {
      flush(i);
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? '');
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === '\\') j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      push(Math.min(j + 1, sql.length), false);
    } else if (c === '$' && !/\w/.test(sql[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_]\w*)?\$/.exec(sql.slice(i))?.[0];
      if (!tag) {
        i++;
        continue;
      }
      flush(i);
      const end = sql.indexOf(tag, i + tag.length);
      push(end === -1 ? sql.length : end + tag.length, false);
    } else {
      i++;
    }
  }
  flush(sql.length);
  return out;
}

/** The statements of a script, each without its `;`, comments before it kept; empty ones left out. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  for (const piece of pieces(sql)) {
    if (!piece.code) {
      current += piece.text;
      continue;
    }
    const parts = piece.text.split(';');
    for (let k = 0; k < parts.length; k++) {
      current += parts[k];
      if (k < parts.length - 1) {
        statements.push(current);
        current = '';
      }
    }
  }
  statements.push(current);
  return statements.map((s) => s.trim()).filter((s) => withoutComments(s).trim() !== '');
}

/** The script with its comments taken out (strings and bodies kept as they are). */
export function withoutComments(sql: string): string {
  return pieces(sql)
    .filter((p) => !p.comment)
    .map((p) => p.text)
    .join('');
}

/** The script's code alone: comments, strings and bodies taken out (for finding the names it creates). */
export function codeOnly(sql: string): string {
  return pieces(sql)
    .map((p) => (p.code ? p.text : ' '))
    .join('');
}
