// Markdown answers drawn for the terminal (R-UI-10) from marked's lexer tokens: headings,
// emphasis, lists, quotes, tables and code blocks with syntax colour. The output is a list of
// rows already wrapped to the width, so the layout can count them.
import { Lexer, type Token, type Tokens } from "marked";
import { sanitize, style, width, wrapLines } from "./ansi.js";
import { highlight } from "./highlight.js";

const lexerOptions = { gfm: true };

/** Inline tokens (emphasis, code spans, links) to one ANSI string. */
function inline(tokens: Token[] | undefined, fallback = ""): string {
  if (!tokens) return sanitize(fallback);
  let out = "";
  for (const t of tokens) {
    switch (t.type) {
      case "strong":
        out += style.bold(inline((t as Tokens.Strong).tokens, t.text));
        break;
      case "em":
        out += style.italic(inline((t as Tokens.Em).tokens, t.text));
        break;
      case "del":
        out += style.strike(inline((t as Tokens.Del).tokens, t.text));
        break;
      case "codespan":
        out += style.cyan(sanitize(unentity((t as Tokens.Codespan).text)));
        break;
      case "br":
        out += "\n";
        break;
      case "link": {
        const link = t as Tokens.Link;
        const label = inline(link.tokens, link.text);
        out += stripAnsiEq(label, link.href)
          ? style.underline(label)
          : `${style.underline(label)} ${style.gray(`(${link.href})`)}`;
        break;
      }
      case "image":
        out += style.gray(`[image: ${(t as Tokens.Image).text || (t as Tokens.Image).href}]`);
        break;
      case "escape":
        out += t.text;
        break;
      case "text": {
        const text = t as Tokens.Text;
        out += text.tokens ? inline(text.tokens, text.text) : sanitize(unentity(text.text));
        break;
      }
      default:
        out += sanitize(unentity("text" in t ? String(t.text) : t.raw));
    }
  }
  return out;
}

function stripAnsiEq(label: string, href: string): boolean {
  return label.replace(/\x1b\[[0-9;]*m/g, "") === href.replace(/^mailto:/, "");
}

/** marked escapes &<>"' in text tokens; the terminal wants them as typed. */
function unentity(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|#39);/g, (_, e: string) =>
    e === "lt" ? "<" : e === "gt" ? ">" : e === "amp" ? "&" : e === "quot" ? '"' : "'",
  );
}

/** Wraps `text` to `cols - indent.length`, then prefixes every row (first row may differ). */
function indented(text: string, cols: number, first: string, rest = " ".repeat(width(first))): string[] {
  const rows = wrapLines(text, Math.max(8, cols - width(first)));
  return rows.map((row, i) => (i === 0 ? first : rest) + row);
}

function codeBlock(token: Tokens.Code, cols: number): string[] {
  const code = sanitize(token.text.replace(/\n+$/, ""));
  const coloured = highlight(code, token.lang ?? "") ?? code;
  const label = token.lang ? style.gray(`  ${token.lang}`) : "";
  const rows = coloured.split("\n").flatMap((line) => wrapLines(line, Math.max(8, cols - 2)));
  return [...(label ? [label] : []), ...rows.map((row) => `${style.gray("│")} ${row}`)];
}

function table(token: Tokens.Table, cols: number): string[] {
  const header = token.header.map((cell) => inline(cell.tokens, cell.text));
  const body = token.rows.map((row) => row.map((cell) => inline(cell.tokens, cell.text)));
  const n = header.length;
  const widths = header.map((h, i) => Math.max(width(h), ...body.map((r) => width(r[i] ?? ""))));
  // Shrink the widest columns until the table fits (3 columns of border per cell + 1).
  const budget = Math.max(n * 3, cols - (3 * n + 1));
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 3) break;
    widths[widest]--;
  }
  const line = (l: string, m: string, r: string) =>
    style.gray(l + widths.map((w) => "─".repeat(w + 2)).join(m) + r);
  const row = (cells: string[], paint: (t: string) => string) => {
    const wrapped = widths.map((w, i) => wrapLines(cells[i] ?? "", w, true));
    const height = Math.max(...wrapped.map((c) => c.length));
    const out: string[] = [];
    for (let y = 0; y < height; y++) {
      const parts = wrapped.map((c, i) => {
        const text = c[y] ?? "";
        const gap = Math.max(0, widths[i] - width(text));
        const align = token.align[i];
        if (align === "right") return " ".repeat(gap) + paint(text);
        if (align === "center") {
          const left = Math.floor(gap / 2);
          return " ".repeat(left) + paint(text) + " ".repeat(gap - left);
        }
        return paint(text) + " ".repeat(gap);
      });
      out.push(`${style.gray("│")} ${parts.join(` ${style.gray("│")} `)} ${style.gray("│")}`);
    }
    return out;
  };
  return [
    line("┌", "┬", "┐"),
    ...row(header, style.bold),
    line("├", "┼", "┤"),
    ...body.flatMap((r) => row(r, (t) => t)),
    line("└", "┴", "┘"),
  ];
}

function list(token: Tokens.List, cols: number, depth: number): string[] {
  const out: string[] = [];
  let number = typeof token.start === "number" ? token.start : 1;
  for (const item of token.items) {
    const bullet = token.ordered ? `${number++}.` : depth % 2 === 0 ? "•" : "◦";
    const mark = item.task ? (item.checked ? "☑ " : "☐ ") : "";
    const prefix = `${"  ".repeat(depth)}${style.cyan(bullet)} ${mark}`;
    const pad = " ".repeat(width(prefix));
    let first = true;
    for (const child of item.tokens) {
      if (child.type === "list") {
        out.push(...list(child as Tokens.List, cols, depth + 1));
        continue;
      }
      if (child.type === "checkbox") continue;
      const text =
        child.type === "text" || child.type === "paragraph"
          ? inline((child as Tokens.Text).tokens, (child as Tokens.Text).text)
          : blocks([child], cols - width(pad), depth).join("\n");
      if (!text) continue;
      out.push(...indented(text, cols, first ? prefix : pad, pad));
      first = false;
    }
    if (first) out.push(prefix);
  }
  return out;
}

function blocks(tokens: Token[], cols: number, depth = 0): string[] {
  const out: string[] = [];
  const gap = () => {
    if (out.length > 0 && out.at(-1) !== "") out.push("");
  };
  for (const t of tokens) {
    switch (t.type) {
      case "space":
      case "def":
        break;
      case "heading": {
        gap();
        const h = t as Tokens.Heading;
        const text = inline(h.tokens, h.text);
        const paint =
          h.depth <= 1
            ? (s: string) => style.bold(style.underline(s))
            : h.depth === 2
              ? style.bold
              : (s: string) => style.bold(style.italic(s));
        out.push(...wrapLines(paint(text), cols));
        break;
      }
      case "paragraph":
        gap();
        out.push(...wrapLines(inline((t as Tokens.Paragraph).tokens, t.text), cols));
        break;
      case "text":
        out.push(...wrapLines(inline((t as Tokens.Text).tokens, t.text), cols));
        break;
      case "code":
        gap();
        out.push(...codeBlock(t as Tokens.Code, cols));
        break;
      case "list":
        gap();
        out.push(...list(t as Tokens.List, cols, depth));
        break;
      case "blockquote": {
        gap();
        const inner = blocks((t as Tokens.Blockquote).tokens, cols - 2, depth);
        out.push(...inner.map((row) => `${style.gray("▌")} ${style.italic(row)}`));
        break;
      }
      case "table":
        gap();
        out.push(...table(t as Tokens.Table, cols));
        break;
      case "hr":
        gap();
        out.push(style.gray("─".repeat(Math.min(cols, 40))));
        break;
      default:
        gap();
        out.push(...wrapLines(sanitize(t.raw.replace(/\n+$/, "")), cols));
    }
  }
  return out;
}

/** The answer's top-level blocks, as the renderer reads them. */
export function lexBlocks(text: string): Token[] {
  return Lexer.lex(text, lexerOptions);
}

/** The answer as terminal rows, each at most `cols` wide. */
export function renderMarkdown(text: string, cols: number): string[] {
  const width = Math.max(10, cols);
  try {
    return blocks(Lexer.lex(text, lexerOptions), width);
  } catch {
    // marked does not throw on any input we know of; if it does, the text still shows.
    return wrapLines(sanitize(text), width);
  }
}
