// How an apply_patch call shows itself (R-EDIT-1): one diff for the whole patch, so an approval,
// the UI, `--json` and ACP draw it like any edit. Each file's section is a header line the two
// sides share, then its hunks' old lines (before) and new lines (after).
import { text } from "../present.js";
import type { CallPresentation } from "../types.js";
import { type Hunk, parsePatch, patchPaths } from "./patch-parse.js";

function sides(h: Hunk): { head: string; before: string[]; after: string[] } {
  if (h.type === "add")
    return { head: `*** Add File: ${h.path}`, before: [], after: h.contents.replace(/\n$/, "").split("\n") };
  if (h.type === "delete") return { head: `*** Delete File: ${h.path}`, before: ["(whole file)"], after: [] };
  const head = `*** Update File: ${h.path}${h.movePath !== undefined ? ` → ${h.movePath}` : ""}`;
  const before: string[] = [];
  const after: string[] = [];
  h.chunks.forEach((c, i) => {
    const at = c.contexts.map((x) => `@@ ${x}`);
    const mark = at.length ? at : i > 0 ? ["@@"] : [];
    before.push(...mark, ...c.oldLines);
    after.push(...mark, ...c.newLines);
  });
  return { head, before, after };
}

export function presentPatch(args: Record<string, unknown>): CallPresentation {
  const input = text(args.input);
  let hunks: Hunk[];
  try {
    hunks = parsePatch(input);
  } catch {
    return {
      title: "patch (not readable)",
      kind: "edit",
      locations: [],
      preview: { type: "text", text: input, line: 1 },
    };
  }
  const before: string[] = [];
  const after: string[] = [];
  for (const h of hunks) {
    const s = sides(h);
    before.push(s.head, ...s.before);
    after.push(s.head, ...s.after);
  }
  const names = hunks.map((h) => (h.type === "update" && h.movePath !== undefined ? h.movePath : h.path));
  const title =
    names.length > 3 ? `${names.slice(0, 3).join(", ")} (+${names.length - 3} more)` : names.join(", ");
  return {
    title: title || "empty patch",
    kind: "edit",
    locations: patchPaths(hunks).map((path) => ({ path })),
    preview: { type: "diff", before: before.join("\n"), after: after.join("\n") },
  };
}
