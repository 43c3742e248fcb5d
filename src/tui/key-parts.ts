// Keys that arrive in one read ("hello\r", "r\r", "wrld\x01": typed ahead, or typed while the
// process was busy) are reported by Ink as one text input, its Enter or Ctrl key inside it.
// Split back into the keys they were, so every key handler (the composer's, the session
// picker's) sees each one as if it had come alone.
import type { Key } from "ink";

/** One part of a split chunk as Ink would have reported it had it come alone. */
export function controlKey(part: string, base: Key): [string, Key] {
  const key: Key = { ...base, return: false, ctrl: false, tab: false, backspace: false, delete: false };
  if (part === "\r" || part === "\r\n") return ["", { ...key, return: true }];
  if (part === "\t") return ["", { ...key, tab: true }];
  if (part === "\x7f" || part === "\b") return ["", { ...key, delete: true }];
  const code = part.charCodeAt(0);
  // Ctrl+J ("\n") stays text: the composer takes it as a line break.
  if (part.length === 1 && code >= 1 && code <= 26 && part !== "\n")
    return [String.fromCharCode(code + 96), { ...key, ctrl: true }];
  return [part, key];
}

/** The keys one input event holds: itself, or its text and control keys one by one. */
export function keyParts(input: string, key: Key): [string, Key][] {
  if (input.length <= 1 || key.meta || !/[\x00-\x1f\x7f]/.test(input)) return [[input, key]];
  return input
    .split(/(\r\n|[\x00-\x1f\x7f])/)
    .filter((part) => part)
    .map((part) => controlKey(part, key));
}
