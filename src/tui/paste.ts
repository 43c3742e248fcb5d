// Large pastes (R-UI-14): shown in the composer as one placeholder, `[pasted N lines]`, and put
// back whole wherever the text is sent. Placeholders stay known for the whole process, so a
// queued or recalled prompt that holds one still sends the full text.

/** Over this many lines (or characters) a paste is collapsed. */
const MAX_LINES = 10;
const MAX_CHARS = 1000;

/**
 * Lines as `wc -l` counts them (each line break ends one), plus a last line without a break:
 * 2,000 lines that end in a newline are 2,000, not 2,001.
 */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text === "" || text.endsWith("\n") ? n : n + 1;
}

export class Pastes {
  private readonly texts = new Map<string, string>();

  /** The text to insert for a paste: itself when small, else a placeholder for it. */
  collapse(text: string): string {
    const lines = lineCount(text);
    if (lines <= MAX_LINES && text.length <= MAX_CHARS) return text;
    const base = lines > MAX_LINES ? `pasted ${lines} lines` : `pasted ${text.length} characters`;
    let label = `[${base}]`;
    for (let n = 2; this.texts.has(label) && this.texts.get(label) !== text; n++) label = `[${base} #${n}]`;
    this.texts.set(label, text);
    return label;
  }

  /** The text with every known placeholder replaced by what was pasted. */
  expand(text: string): string {
    if (this.texts.size === 0 || !text.includes("[pasted ")) return text;
    return text.replace(
      /\[pasted \d+ (?:lines|characters)(?: #\d+)?\]/g,
      (label) => this.texts.get(label) ?? label,
    );
  }

  /** The placeholder ending right before `cursor`, so Backspace removes it whole. */
  placeholderBefore(text: string, cursor: number): string | undefined {
    if (text[cursor - 1] !== "]") return undefined;
    const open = text.lastIndexOf("[pasted ", cursor - 1);
    if (open === -1) return undefined;
    const label = text.slice(open, cursor);
    return this.texts.has(label) ? label : undefined;
  }
}
