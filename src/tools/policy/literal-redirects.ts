// Redirects of a plainly literal line (literal-line.ts) as rules see them (R-TOOL-2, §10): a
// file redirect is covered only when its literal path lies inside the workspace, outside its
// `.git/` and `.tern/` (targetConcern). A write is covered only on the line's first command,
// alone in its pipeline: any command that runs before or beside it could first turn the target
// into a symlink to anywhere (`ln -sf ../x f; echo > f`). A relative read after `cd` names
// another folder's file.
import { isAbsolute } from "node:path";
import { targetConcern } from "../shell/bash-redirects.js";
import type { LiteralCommand } from "./literal-line.js";

/** Why each redirect of the line is not covered by a rule; empty when all are. */
export function literalRedirectConcerns(commands: LiteralCommand[], cwd: string, realCwd: string): string[] {
  const out: string[] = [];
  const firstCd = commands.findIndex((c) => c.words[0] === "cd");
  commands.forEach((cmd, k) => {
    const alone = commands.every((other, j) => j === k || other.pipeline !== cmd.pipeline);
    for (const r of cmd.redirects) {
      if (r.op === "dup") continue;
      const writes = r.op !== "<";
      if (writes && (k > 0 || !alone)) {
        out.push(`redirects output from a command that others of the line run before or beside: ${r.target}`);
        continue;
      }
      if (!writes && firstCd >= 0 && firstCd < k && !isAbsolute(r.target)) {
        out.push(`reads a relative path after changing folder: ${r.target}`);
        continue;
      }
      const concern = targetConcern(r.target, cwd, realCwd, writes ? "writes" : "reads");
      if (concern) out.push(concern);
    }
  });
  return out;
}
