// Test-only preload for the built CLI (NODE_OPTIONS=--require <this file>): a disk that fills up
// mid-turn. Once the file named by TERN_TEST_DISK_FULL exists (a test's fake provider creates it
// at the moment it chooses), every write into TERN_HOME fails with ENOSPC as a full disk's would,
// after TERN_TEST_DISK_FULL_ALLOW more record lines (default 0) still got in. Removing the file
// frees the disk again. Only the fs calls tern writes its files with are wrapped.
const fs = require("node:fs");
const { join } = require("node:path");

const trigger = process.env.TERN_TEST_DISK_FULL;
const home = process.env.TERN_HOME;
let allowed = Number(process.env.TERN_TEST_DISK_FULL_ALLOW ?? 0);

function pathOf(target) {
  if (typeof target !== "number") return String(target);
  try {
    return fs.readlinkSync(`/proc/self/fd/${target}`);
  } catch {
    return "";
  }
}

function full(target) {
  if (!trigger || !home || !fs.existsSync(trigger)) return false;
  const path = pathOf(target);
  if (!path.startsWith(`${home}/`)) return false;
  if (path.endsWith("/record.jsonl") && allowed > 0) {
    allowed--;
    return false;
  }
  return true;
}

function enospc(syscall, target) {
  const err = new Error(`ENOSPC: no space left on device, ${syscall}`);
  err.code = "ENOSPC";
  err.errno = -28;
  err.syscall = syscall;
  if (typeof target !== "number") err.path = String(target);
  return err;
}

for (const name of ["writeSync", "writeFileSync", "appendFileSync"]) {
  const original = fs[name];
  fs[name] = function (target, ...rest) {
    if (full(target)) throw enospc(name === "writeSync" ? "write" : "open", target);
    return original.call(this, target, ...rest);
  };
}

module.exports = { triggerIn: (dir) => join(dir, "disk-full") };
