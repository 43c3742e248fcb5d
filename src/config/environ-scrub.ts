// A command tern runs gets an environment without provider keys (R-CFG-3), but on Linux it can
// still read its parent's start-up environment from /proc/<tern's pid>/environ (same user, and
// `$PPID` names it). That file shows the block the kernel copied in at exec, not the variables as
// they are now. So each secret variable is moved to the C heap (setenv, which `process.env`
// assignment calls) and its value in that block overwritten with `*` through /proc/self/mem.
// tern keeps reading the value from `process.env`. Where Linux refuses, nothing changes.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/** Blanks the start-up environment's copy of each named variable's value. */
export function hideFromProcEnviron(names: ReadonlySet<string>): void {
  if (process.platform !== "linux" || names.size === 0) return;
  let fd: number | undefined;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces); env_start and env_end are fields 50, 51.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return;
    const block = readFileSync("/proc/self/environ");
    let offset = 0;
    while (offset < block.length) {
      let stop = block.indexOf(0, offset);
      if (stop < 0) stop = block.length;
      const eq = block.indexOf(61 /* = */, offset);
      if (eq > offset && eq < stop) {
        const name = block.toString("utf8", offset, eq);
        const value = process.env[name];
        if (names.has(name) && value !== undefined && stop > eq + 1 && block[eq + 1] !== 42 /* * */) {
          // Moves the variable out of the block first: getenv then reads the heap copy.
          process.env[name] = value;
          fd ??= openSync("/proc/self/mem", "r+");
          writeSync(fd, Buffer.alloc(stop - eq - 1, "*"), 0, stop - eq - 1, start + eq + 1);
        }
      }
      offset = stop + 1;
    }
  } catch {
    // No /proc, a hardened kernel, or a block that moved: the scrubbed tool environment stands.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
