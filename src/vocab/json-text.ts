// JSON as tern prints it (§10): JSON.stringify escapes C0 control characters already; C1
// (U+0080–U+009F) and DEL pass through raw, and a terminal or log reader takes some of them as
// control sequences (U+009B is CSI). Outside strings JSON holds none of them, so escaping every
// one in the text is exact.
const CONTROL = /[\u007f-\u009f]/g;

export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
