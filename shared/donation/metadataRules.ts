/** Spec limits for post-paid donation metadata. */
export const METADATA_MAX_PAIRS = 100;
export const METADATA_KEY_MAX = 64;
export const METADATA_VALUE_MAX = 190;
/** Keys: "alphanumeric characters, spaces, underscores, dashes"; read as ASCII letters and digits. */
export const METADATA_KEY = /^[A-Za-z0-9 _-]{1,64}$/;

/** Same as METADATA_KEY.test for keys of 1–64 characters, without the regex engine (hot path). */
function isMetadataKeyText(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const ok =
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 32 ||
      c === 95 ||
      c === 45;
    if (!ok) return false;
  }
  return true;
}

export interface MetadataProblem {
  code: string;
  message: string;
}

export function metadataKeyProblem(key: string): MetadataProblem | undefined {
  if (key.length === 0)
    return { code: 'METADATA_KEY_EMPTY', message: 'A metadata key is empty. Give the column a name.' };
  if (key.length > METADATA_KEY_MAX) {
    return {
      code: 'METADATA_KEY_TOO_LONG',
      message: `Metadata key "${key.slice(0, 20)}…" has ${key.length} characters; at most ${METADATA_KEY_MAX} are allowed. Shorten it.`,
    };
  }
  if (!isMetadataKeyText(key)) {
    return {
      code: 'METADATA_KEY_INVALID',
      message: `Metadata key "${key}" may only contain letters, digits, spaces, underscores and dashes. Rename it.`,
    };
  }
  return undefined;
}

function hasSurrogate(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

// Emoji live in the supplementary planes (U+1F000–U+1FAFF, flags included); named separately
// because "emoji" is what a person recognises in a message.
const isEmojiCodePoint = (cp: number): boolean => cp >= 0x1f000 && cp <= 0x1faff;

/**
 * Values: 1–190 characters of the Basic Multilingual Plane, no surrogates. Anything outside the BMP
 * (emoji, rare CJK, math letters) is stored in JavaScript as a surrogate pair and is refused; a lone
 * surrogate is a damaged character.
 */
export function metadataValueProblem(key: string, value: string): MetadataProblem | undefined {
  // Every row's values pass through here: the message is only built for a value that has a problem.
  if (value.length > 0 && value.length <= METADATA_VALUE_MAX && !hasSurrogate(value)) return undefined;
  const name = `Metadata "${key}"`;
  if (value.length === 0)
    return {
      code: 'METADATA_VALUE_EMPTY',
      message: `${name} is empty. Enter a value or leave the pair out.`,
    };
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = value.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      const cp = (c - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
      const ch = String.fromCodePoint(cp);
      return isEmojiCodePoint(cp)
        ? {
            code: 'METADATA_VALUE_EMOJI',
            message: `${name} contains an emoji (${ch}), which the giving service does not accept. Remove it.`,
          }
        : {
            code: 'METADATA_VALUE_OUTSIDE_BMP',
            message: `${name} contains the character ${ch} (U+${cp.toString(16).toUpperCase()}), which the giving service does not accept. Remove or replace it.`,
          };
    }
    return {
      code: 'METADATA_VALUE_BROKEN_CHARACTER',
      message: `${name} contains a damaged character (a lone surrogate U+${c.toString(16).toUpperCase()}). Retype the value.`,
    };
  }
  if (value.length > METADATA_VALUE_MAX) {
    return {
      code: 'METADATA_VALUE_TOO_LONG',
      message: `${name} has ${value.length} characters; at most ${METADATA_VALUE_MAX} are allowed. Shorten it.`,
    };
  }
  return undefined;
}
