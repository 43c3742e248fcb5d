// Why a file call needs a person's approval whatever the mode or rules say (§10): a write outside
// the workspace, into its .git/ or .tern/, into TERN_HOME, through a symlink or into a file with
// several hard links; a read of TERN_HOME. Judged on the facts of the opened file when the tool
// reports them (ApprovalCall.opened), else on the path as it is now.
import { lstatSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import type { WriteTarget } from "../types.js";
import { isInside, isProtectedPath, realPathLoose, resolvePath } from "../paths.js";
import type { ApprovalCall, PolicyState } from "./approval-types.js";

export interface Concern {
  /** The real path an approval (or an `always` grant) names. */
  real: string;
  reason: string;
}

export function writeConcerns(state: PolicyState, call: ApprovalCall): Concern[] {
  const out: Concern[] = [];
  call.paths.forEach((p, i) => {
    const abs = resolvePath(state.cwd, p);
    const facts = call.opened?.[i] ?? factsOf(abs);
    const real = facts.real;
    const via = facts.symlink || real !== abs ? ` (through a symlink: ${abs})` : "";
    if (inTernHome(state, real))
      out.push({ real, reason: `writes into TERN_HOME, tern's own settings and keys: ${real}${via}` });
    else if (!isInside(state.realCwd, real))
      out.push({ real, reason: `writes outside the workspace: ${real}${via}` });
    else if (isProtectedPath(state.realCwd, real))
      out.push({ real, reason: `writes into ${protectedName(state.realCwd, real)}: ${real}${via}` });
    else if (facts.symlink) out.push({ real, reason: `writes through a symlink: ${abs} -> ${real}` });
    // A hard link shares its content with another name, possibly outside the workspace.
    else if (facts.nlink > 1)
      out.push({
        real,
        reason: `writes a file with several hard links (${facts.nlink}; one may be outside the workspace): ${real}`,
      });
  });
  return out;
}

/**
 * Reads of TERN_HOME (its config.json holds keys and tool-set tokens). A search of a folder that
 * holds it is not one: listings leave it out (ToolContext.hidden).
 */
export function readConcerns(state: PolicyState, call: ApprovalCall): Concern[] {
  if (!state.realTernHome) return [];
  const home = state.realTernHome;
  return call.paths.flatMap((p) => {
    const real = realPathLoose(resolvePath(state.cwd, p));
    return isInside(home, real)
      ? [{ real, reason: `reads TERN_HOME, which holds tern's keys and tool-set tokens: ${real}` }]
      : [];
  });
}

function inTernHome(state: PolicyState, real: string): boolean {
  return state.realTernHome !== undefined && isInside(state.realTernHome, real);
}

/** The facts of a path as it is now (before the tool opens it). */
function factsOf(abs: string): WriteTarget {
  const real = realPathLoose(abs);
  let symlink = false;
  let nlink = 1;
  try {
    symlink = lstatSync(abs).isSymbolicLink();
    const st = statSync(real);
    if (st.isFile()) nlink = st.nlink;
  } catch {
    // Missing: a new file has one link.
  }
  return { path: abs, real, symlink, nlink };
}

function protectedName(realCwd: string, real: string): string {
  const segs = relative(realCwd, real).split(sep);
  const hit = segs.find((s) => [".git", ".tern"].includes(s.toLowerCase()));
  return `the workspace's ${hit ?? ".git"}/ (asks in every mode but yolo)`;
}
