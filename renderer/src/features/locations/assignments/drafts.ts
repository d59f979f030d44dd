/** A form's fields in order: the key in the draft and the field's label. */
export type Fields<K extends string> = readonly (readonly [K, string])[];

/** A draft with every field empty. */
export function blankDraft<K extends string>(fields: Fields<K>): Record<K, string> {
  return Object.fromEntries(fields.map(([k]) => [k, ''])) as Record<K, string>;
}

/** True when no field is blank (spaces alone count as blank). */
export function isComplete(draft: Readonly<Record<string, string>>): boolean {
  return Object.values(draft).every((v) => v.trim() !== '');
}
