// `/worktree` (R-WT): the worktrees tern made in this repository; `/worktree diff <name>` shows
// one's changes; `/worktree apply <name>` shows them, and applies them to this checkout when asked
// again for the same changes, so nothing lands unseen.
import { createHash } from "node:crypto";
import { applyWorktree, listWorktrees, repoPlace, repoRoot, worktreeChanges } from "../worktrees/index.js";
import { type CommandHost, errorText, type SlashCommand } from "./host.js";

/** The changes a person was shown, per worktree name: apply takes exactly those. */
const shown = new Map<string, string>();

const digest = (patch: string) => createHash("sha256").update(patch).digest("hex");

async function list(host: CommandHost): Promise<void> {
  const rows = await listWorktrees(await repoPlace(host.cwd));
  host.print(
    rows.length === 0
      ? "no tern worktrees in this repository (tern --worktree makes one; so does a task with isolation: worktree)"
      : rows
          .map((w) => `${w.name}  ${w.branch}  changed=${w.changed}  commits=${w.commits}  ${w.path}`)
          .join("\n"),
  );
}

async function apply(host: CommandHost, name: string, review: boolean): Promise<void> {
  const place = await repoPlace(host.cwd);
  const { patch, stat } = await worktreeChanges(place, name);
  if (!patch) return host.print(`worktree '${name}' holds no changes`);
  if (review || shown.get(name) !== digest(patch)) {
    shown.set(name, digest(patch));
    host.print(`${stat}\n\n${patch.trimEnd()}`);
    if (!review) host.print(`/worktree apply ${name} again to apply these changes to this checkout`);
    return;
  }
  shown.delete(name);
  const target = (await repoRoot(host.cwd)) ?? host.cwd;
  host.print(await applyWorktree(place, name, target));
}

export const worktreeCommand: SlashCommand = {
  name: "/worktree",
  args: "[diff|apply <name>]",
  description: "list tern's git worktrees; show or apply one's changes",
  timing: (args) => (args[0] === "apply" ? "idle" : "now"),
  run: async (host, args) => {
    try {
      if (args.length === 0) return await list(host);
      if ((args[0] === "diff" || args[0] === "apply") && args[1])
        return await apply(host, args[1], args[0] === "diff");
      host.print("usage: /worktree [diff <name> | apply <name>]");
    } catch (err) {
      host.error(errorText(err));
    }
  },
};
