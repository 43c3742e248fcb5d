// A file replaced whole (meta.json, unbilled.json, an image): written beside it and renamed over it,
// so a reader never sees half of one. A write the disk refuses leaves no temporary file behind
// and is reported as a DiskError naming the file.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { rethrowAsDisk } from "./errors.js";

export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    rethrowAsDisk(err, file);
  }
}
