import { describe, expect, it } from 'vitest';
import { channels, channelNames } from './channels';

type Def = { type: string; [key: string]: unknown };
type Schema = { _zod: { def: Def } };

/** Whether a check list holds a maximum length (strings, arrays) or a fixed length. */
function hasMaximum(def: Def): boolean {
  const checks = (def.checks as Schema[] | undefined) ?? [];
  return checks.some((c) => {
    const d = c._zod.def as Def & { check?: string; format?: string; pattern?: RegExp };
    if (d.check === 'max_length' || d.check === 'length_equals' || d.check === 'max_size') return true;
    // A pattern anchored at both ends without an open-ended repeat bounds the length too.
    if (d.check === 'string_format' && d.pattern instanceof RegExp) {
      const source = d.pattern.source;
      return source.startsWith('^') && source.endsWith('$') && !/[*+]|\{\d+,\}/.test(source);
    }
    return false;
  });
}

function hasCheck(def: Def): boolean {
  return ((def.checks as Schema[] | undefined) ?? []).length > 0;
}

/** Every place in a request schema where a string, list or record has no stated maximum. */
function unbounded(schema: Schema, path: string, out: string[]): void {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      if (!hasMaximum(def) && !['uuid', 'guid'].includes(String(def.format))) out.push(`${path}: text`);
      break;
    case 'array':
      if (!hasMaximum(def)) out.push(`${path}: list`);
      unbounded(def.element as Schema, `${path}[]`, out);
      break;
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, Schema>))
        unbounded(value, `${path}.${key}`, out);
      break;
    case 'record':
      unbounded(def.keyType as Schema, `${path}{key}`, out);
      // A record's size is stated by a hand-written check (entries, or characters as JSON).
      if (!hasCheck(def)) {
        out.push(`${path}: record`);
        unbounded(def.valueType as Schema, `${path}{value}`, out);
      } else if ((def.valueType as Schema)._zod.def.type !== 'unknown') {
        unbounded(def.valueType as Schema, `${path}{value}`, out);
      }
      break;
    case 'union':
      (def.options as Schema[]).forEach((o, i) => unbounded(o, `${path}|${i}`, out));
      break;
    case 'tuple':
      (def.items as Schema[]).forEach((o, i) => unbounded(o, `${path}[${i}]`, out));
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      unbounded(def.innerType as Schema, path, out);
      break;
    case 'pipe':
      unbounded(def.in as Schema, path, out);
      break;
    case 'lazy':
      unbounded((def.getter as () => Schema)(), path, out);
      break;
    case 'unknown':
    case 'any':
      out.push(`${path}: anything`);
      break;
    default:
      // Numbers, booleans, enums, literals, and the hand-written checks (custom) that state their own limits.
      break;
  }
}

describe('channel limits', () => {
  it('states a maximum for every text, list and record a request can carry', () => {
    const found: string[] = [];
    for (const name of channelNames) unbounded(channels[name].request as unknown as Schema, name, found);
    if (found.length) console.log(found.join('\n'));
    expect(found).toEqual([]);
  });
});
