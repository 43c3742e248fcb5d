// Every process a bash call starts carries a tag in its environment, so tern can find the ones
// that left the call's process group (`setsid cmd &`, a daemon that made its own session) and stop
// them with the group (R-BASH-1: no descendant outlives tern). Linux only (/proc); a process that
// clears its environment (`env -i`) is not found.
import { readdirSync, readFileSync } from "node:fs";

export const TAG_VAR = "TERN_TOOL_PROCESS";
let calls = 0;

/** A new tag for one call: this tern's pid, then a counter. */
export function newCallTag(): string {
  return `${process.pid}-${++calls}`;
}

/** The tag every call of this tern begins with; null before the first call (nothing to look for). */
export function ownTagPrefix(): string | null {
  return calls > 0 ? `${process.pid}-` : null;
}

/**
 * Live processes whose environment holds the tag (`exact`) or a tag beginning with it; members of
 * process group `exceptGroup` left out (signalled with their group, they would get each signal twice).
 */
export function taggedPids(tag: string, exact: boolean, exceptGroup?: number): number[] {
  if (process.platform !== "linux") return [];
  const needle = Buffer.from(`\0${TAG_VAR}=${tag}${exact ? "\0" : ""}`, "latin1");
  const first = Buffer.from(`${TAG_VAR}=${tag}${exact ? "\0" : ""}`, "latin1");
  const out: number[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`);
      if (!(env.includes(needle) || env.subarray(0, first.length).equals(first))) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z" && state !== "X" && Number(pgrp) !== exceptGroup) out.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return out;
}

export function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
