// The folders one kind of workflow file (commands, agents) is read from, in precedence order:
// the workspace's before the person's, and at each level tern's before Claude Code's (so a file
// written for Claude Code works unrenamed, and tern's own copy of it wins).
import { join } from "node:path";

export interface WorkflowRootOptions {
  cwd: string;
  /** TERN_HOME. */
  home: string;
  /** The person's home folder (HOME), for `~/.claude/<kind>`. */
  userHome?: string;
  compat: { claude: boolean };
}

export interface WorkflowRoot {
  dir: string;
  scope: "project" | "user";
  claude: boolean;
}

export function workflowRoots(opts: WorkflowRootOptions, kind: string): WorkflowRoot[] {
  const roots: WorkflowRoot[] = [{ dir: join(opts.cwd, ".tern", kind), scope: "project", claude: false }];
  if (opts.compat.claude)
    roots.push({ dir: join(opts.cwd, ".claude", kind), scope: "project", claude: true });
  roots.push({ dir: join(opts.home, kind), scope: "user", claude: false });
  if (opts.compat.claude && opts.userHome)
    roots.push({ dir: join(opts.userHome, ".claude", kind), scope: "user", claude: true });
  return roots;
}
