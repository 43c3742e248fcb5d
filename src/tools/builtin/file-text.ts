// A text file as the editing tools see it (R-EDIT-2): a BOM and `\r\n` endings are the file's own
// and stay. The tools match against a plain view (no BOM, every ending `\n`) and write back
// through the raw text: bytes outside a replaced span are never touched, so in a file of mixed
// endings each untouched line keeps its own, and new lines take the file's ending.

const BOM = "\uFEFF";

export type Eol = "\n" | "\r\n";

export interface FileText {
  /** "\uFEFF" or "". */
  bom: string;
  /** Lines without their endings (a final newline ends the last line, it opens none). */
  lines: string[];
  /** Each line's own ending: "\r\n", "\n", or "" for a last line without one. */
  endings: string[];
  /** The ending new lines take: the file's more common one (`\n` on a tie or with none). */
  eol: Eol;
}

export function splitFileText(raw: string): FileText {
  const bom = raw.startsWith(BOM) ? BOM : "";
  const body = raw.slice(bom.length);
  const lines: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  let lf = 0;
  let from = 0;
  for (;;) {
    const nl = body.indexOf("\n", from);
    if (nl === -1) break;
    const cr = nl > from && body[nl - 1] === "\r";
    lines.push(body.slice(from, cr ? nl - 1 : nl));
    endings.push(cr ? "\r\n" : "\n");
    if (cr) crlf++;
    else lf++;
    from = nl + 1;
  }
  if (from < body.length) {
    lines.push(body.slice(from));
    endings.push("");
  }
  return { bom, lines, endings, eol: crlf > lf ? "\r\n" : "\n" };
}

export function joinFileText(ft: FileText): string {
  let out = ft.bom;
  for (let i = 0; i < ft.lines.length; i++) out += ft.lines[i] + ft.endings[i];
  return out;
}

/** Model text in the file's ending: `\r\n` and `\n` alike become `eol`. */
export function inEol(text: string, eol: Eol): string {
  const plain = text.replace(/\r\n/g, "\n");
  return eol === "\n" ? plain : plain.replace(/\n/g, "\r\n");
}

/**
 * The plain view of a raw text and the way back: `view` has no BOM and only `\n` endings;
 * `rawOffset(i)` is where view offset `i` lies in the raw text (a view `\n` that was `\r\n`
 * maps to its `\r`, so a span ending before a newline leaves the whole ending in place).
 */
export interface PlainView {
  view: string;
  rawOffset(i: number): number;
}

export function plainView(raw: string): PlainView {
  const bomLen = raw.startsWith(BOM) ? 1 : 0;
  const body = raw.slice(bomLen);
  // View offsets of the `\n`s that were `\r\n`, in order.
  const crlfAt: number[] = [];
  let view = "";
  let from = 0;
  for (let nl = body.indexOf("\r\n"); nl !== -1; nl = body.indexOf("\r\n", nl + 2)) {
    view += body.slice(from, nl);
    crlfAt.push(view.length);
    view += "\n";
    from = nl + 2;
  }
  view += body.slice(from);
  const rawOffset = (i: number): number => {
    // How many removed `\r`s lie before view offset i: those of the newlines before i.
    let lo = 0;
    let hi = crlfAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (crlfAt[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return i + lo + bomLen;
  };
  return { view, rawOffset };
}

/** The file's ending for new text, judged on the raw text. */
export function eolOf(raw: string): Eol {
  return splitFileText(raw).eol;
}

/** Replaces view spans (sorted, not overlapping) in the raw text; each replacement in the file's ending. */
export function replaceViewSpans(
  raw: string,
  pv: PlainView,
  spans: readonly { start: number; end: number; text: string }[],
): string {
  const eol = eolOf(raw);
  let out = "";
  let at = 0;
  for (const s of spans) {
    const a = pv.rawOffset(s.start);
    const b = pv.rawOffset(s.end);
    out += raw.slice(at, a) + inEol(s.text, eol);
    at = b;
  }
  return out + raw.slice(at);
}
