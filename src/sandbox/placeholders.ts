// Empty folders standing in for a workspace's `.git` / `.tern` that do not exist yet (R-SBX-2,
// §10): bubblewrap needs a mount point to bind read-only, so one is made while a sandboxed
// command runs and removed after, unless someone (the user's own `git init`) filled it meanwhile.
// Commands side by side share one placeholder; the last to end removes it.
import { mkdirSync, rmdirSync } from "node:fs";

const holders = new Map<string, number>();

/** Whether `path` is a placeholder a running command holds now (it exists only for that). */
export function isHeldPlaceholder(path: string): boolean {
  return holders.has(path);
}

/** Makes each missing placeholder folder; returns the function that gives them back. */
export function holdPlaceholders(paths: readonly string[]): () => void {
  const held: string[] = [];
  for (const path of paths) {
    const count = holders.get(path) ?? 0;
    if (count === 0) {
      try {
        mkdirSync(path, { mode: 0o555 });
      } catch (err) {
        // It exists now (made since the policy was computed): bound read-only like any other.
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") continue;
      }
    }
    holders.set(path, count + 1);
    held.push(path);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const path of held) {
      const left = (holders.get(path) ?? 1) - 1;
      if (left > 0) {
        holders.set(path, left);
        continue;
      }
      holders.delete(path);
      try {
        rmdirSync(path); // only if still empty
      } catch {
        // Not empty, or gone: it is not ours to remove then.
      }
    }
  };
}
