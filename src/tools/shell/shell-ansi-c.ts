// `$'…'` strings (ANSI-C quoting): decoded as bash does, so `$'\x72m'` is read as `rm`.

const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
};

/** Reads from just after `$'` to the closing quote; `end` is the position after it. */
export function readAnsiC(src: string, from: number): { text: string; end: number; closed: boolean } {
  let text = "";
  let pos = from;
  while (pos < src.length && src[pos] !== "'") {
    const c = src[pos];
    if (c !== "\\") {
      text += c;
      pos++;
      continue;
    }
    const n = src[pos + 1] ?? "";
    const rest = src.slice(pos + 1);
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest);
    const oct = /^([0-7]{1,3})/.exec(rest);
    const uni = /^[uU]([0-9a-fA-F]{1,8})/.exec(rest);
    if (hex) {
      text += String.fromCharCode(Number.parseInt(hex[1], 16));
      pos += 1 + hex[0].length;
    } else if (oct) {
      text += String.fromCharCode(Number.parseInt(oct[1], 8) & 0xff);
      pos += 1 + oct[0].length;
    } else if (uni) {
      const cp = Number.parseInt(uni[1], 16);
      text += cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
      pos += 1 + uni[0].length;
    } else {
      text += ANSI_C[n] ?? n;
      pos += 2;
    }
  }
  return { text, end: pos + 1, closed: pos < src.length };
}
