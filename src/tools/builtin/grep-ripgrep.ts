// grep through ripgrep (R-BIG-1): the pattern in ripgrep's reading (regex-translate.ts), its
// output streamed and cut to the first matches in path order, as the built-in search reports
// them. The glob argument is matched here on each reported path (picomatch, as glob does), so
// both engines search the same files.
import { statSync } from "node:fs";
import { join } from "node:path";
import { fromRipgrep, type GlobPlan, type RgPlan, typeArgs } from "./file-walk.js";
import { runRipgrep } from "./ripgrep.js";

export interface RgSearch {
  rg: RgPlan;
  rust: string;
  plan: GlobPlan;
  maxMatches: number;
  maxLineChars: number;
  maxFileBytes: number;
  deadline: number;
  signal?: AbortSignal;
}

export interface RgMatch {
  path: string;
  line: number;
  text: string;
}

export type RgSearchOutcome =
  | { kind: "done"; matches: RgMatch[]; total: number; files: number }
  | { kind: "failed" | "timeout" | "cancelled" };

const byPlace = (a: RgMatch, b: RgMatch) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);

/** Keeps the first `max` matches in path order out of any number, in bounded memory. */
class FirstMatches {
  private kept: RgMatch[] = [];
  private cutoff: RgMatch | undefined;
  constructor(private readonly max: number) {}

  add(m: RgMatch): void {
    if (this.cutoff && byPlace(m, this.cutoff) >= 0) return;
    this.kept.push(m);
    if (this.kept.length >= this.max * 4) this.trim();
  }

  private trim(): void {
    this.kept.sort(byPlace);
    this.kept.length = Math.min(this.kept.length, this.max);
    if (this.kept.length === this.max) this.cutoff = this.kept[this.max - 1];
  }

  result(): RgMatch[] {
    this.trim();
    return this.kept;
  }
}

// Long lines come as their first 1,000 bytes: at least 333 UTF-16 units, more than are shown.
const PREVIEW_BYTES = 1000;

/**
 * Whether a file ripgrep matched in is one the built-in search reads (at most `maxBytes`).
 * `--max-filesize` would have ripgrep stat every file it walks (a fifth of its time on a
 * 100,000-file tree); asked here, only files with matches are looked at, once each.
 */
function sizeCheck(maxBytes: number): (abs: string) => boolean {
  const seen = new Map<string, boolean>();
  return (abs) => {
    let fits = seen.get(abs);
    if (fits === undefined) {
      fits = (statSync(abs, { throwIfNoEntry: false })?.size ?? 0) <= maxBytes;
      seen.set(abs, fits);
    }
    return fits;
  };
}

export async function ripgrepSearch(s: RgSearch): Promise<RgSearchOutcome> {
  const first = new FirstMatches(s.maxMatches);
  const files = new Set<string>();
  const fits = sizeCheck(s.maxFileBytes);
  let total = 0;
  const outcome = await runRipgrep(s.rg.rg, {
    args: [
      "--line-number",
      "--no-heading",
      "--with-filename",
      "--color=never",
      "--crlf",
      "--encoding=none",
      `--max-columns=${PREVIEW_BYTES}`,
      "--max-columns-preview",
      ...typeArgs(s.plan.nameGlob),
      "-e",
      s.rust,
      ...s.rg.args,
    ],
    cwd: s.rg.cwd,
    deadline: s.deadline,
    signal: s.signal,
    separator: "\n",
    onRecord: (rec) => {
      const nul = rec.indexOf("\0");
      const colon = rec.indexOf(":", nul);
      if (nul < 0 || colon < 0) return;
      const rel = fromRipgrep(s.rg, rec.slice(0, nul));
      if (!s.plan.matches(rel)) return;
      const path = join(s.plan.dir, rel);
      if (!fits(path)) return;
      total++;
      files.add(rel);
      let text = rec.slice(colon + 1);
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (text.length > s.maxLineChars) text = `${text.slice(0, s.maxLineChars)}…`;
      first.add({ path, line: Number(rec.slice(nul + 1, colon)), text });
    },
  });
  if (outcome !== "done") return { kind: outcome };
  return { kind: "done", matches: first.result(), total, files: files.size };
}
