// Small ANSI helpers for text the UI pre-renders (markdown, tool output, diffs): colours as SGR
// codes, visible width and hard wrapping. Pre-wrapped lines let the layout count rows exactly,
// so the live region can be kept shorter than the terminal (R-UI-13).
import wrapAnsi from "wrap-ansi";
import stringWidth, { simpleWidth } from "./fast-width.js";
import { type ColourName, THEMES, type Theme, type ThemeName } from "./themes.js";

/** NO_COLOR (no-color.org) turns every colour off; layout and text stay the same. */
const plain = "NO_COLOR" in process.env && process.env.NO_COLOR !== "";

function sgr(open: number, close: number): (text: string) => string {
  return (text) => (plain || text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`);
}

/** The theme the colours come from (R-UI-30); `applyTheme` changes it for everything drawn after. */
let theme: Theme = THEMES.dark;
let themeNow: ThemeName = "dark";

export function applyTheme(name: ThemeName): void {
  theme = THEMES[name];
  themeNow = name;
}

export function currentTheme(): ThemeName {
  return themeNow;
}

/** A foreground colour of the theme, as a 256-colour SGR. */
function fg(name: ColourName): (text: string) => string {
  return (text) => (plain || text === "" ? text : `\x1b[38;5;${theme.colours[name]}m${text}\x1b[39m`);
}

function bg(which: "delBg" | "addBg"): (text: string) => string {
  return (text) => (plain || text === "" ? text : `\x1b[48;5;${theme[which]}m${text}\x1b[49m`);
}

export const style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  inverse: sgr(7, 27),
  strike: sgr(9, 29),
  red: fg("red"),
  green: fg("green"),
  yellow: fg("yellow"),
  blue: fg("blue"),
  magenta: fg("magenta"),
  cyan: fg("cyan"),
  gray: fg("gray"),
  /** Background tints for diff lines (the theme's: dark red / dark green on a dark one). */
  delBg: bg("delBg"),
  addBg: bg("addBg"),
};

/**
 * One escape sequence: a CSI (private `?` parameters and intermediates included) or an OSC ended
 * by BEL or ST. The frame writer needs the whole grammar to never cut a sequence in two.
 */
export const ESCAPE_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "");
}

/** Columns a string takes on screen (wide characters count two, escapes none). */
export function width(text: string): number {
  return stringWidth(text);
}

/**
 * Tabs become spaces and other control characters become visible: raw model or tool text must
 * never move the cursor or break a border.
 */
export function sanitize(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => (c === "\x1b" ? "␛" : "�"));
}

/** Hard-wraps each line of `text` (ANSI kept) to `cols`; an empty line stays one row. */
/** `trim`: continuation rows lose the space they broke at (table cells; text keeps its indent). */
export function wrapLines(text: string, cols: number, trim = false): string[] {
  const out: string[] = [];
  const max = Math.max(1, cols);
  for (const line of text.split("\n")) {
    if (width(line) <= max) {
      out.push(line);
      continue;
    }
    out.push(...wrapAnsi(line, max, { hard: true, trim, wordWrap: true }).split("\n"));
  }
  return out;
}

/** `1 line`, `3 lines`. */
export function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Cuts one line to `cols` columns, marking the cut with `…`. */
export function truncate(line: string, cols: number): string {
  if (width(line) <= cols) return line;
  const clean = stripAnsi(line);
  // One column a character: the first cols - 1 of them, without measuring each longer prefix.
  if (simpleWidth(clean) === clean.length) return `${clean.slice(0, Math.max(0, cols - 1))}…`;
  let out = "";
  for (const ch of clean) {
    if (width(out + ch) > cols - 1) break;
    out += ch;
  }
  return `${out}…`;
}
