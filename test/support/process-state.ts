// Whether a process is still alive, for tests that check nothing outlives tern.
import { readFileSync } from "node:fs";

/** True while the process exists and is not a zombie waiting to be reaped. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
