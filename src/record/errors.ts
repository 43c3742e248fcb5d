// A record that cannot be read or a line the protocol does not admit. Messages name the file
// and line (R-REC-4) so a person can find and repair the damage.
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordError";
  }
}

/** What the machine said when a write failed for want of room or a working disk. */
const DISK_CONDITIONS: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  EROFS: "read-only file system",
  EIO: "input/output error",
  // A folder tern writes into (the session's) removed under it: the disk no longer holds it (a disk-class error, §10).
  ENOENT: "the folder was removed",
};

/**
 * A write tern could not make because of the disk (full, over quota, read-only, failing): the
 * machine's condition, not a bug, so it is reported as such, naming the file (class `disk`).
 */
export class DiskError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      code === "ENOENT"
        ? `the session folder was removed while tern was writing ${path} (ENOENT); what this session records from now on is lost`
        : `${DISK_CONDITIONS[code] ?? code} (${code}) writing ${path}; free some space and try again`,
    );
    this.name = "DiskError";
  }
}

/** The DiskError an fs error means, or undefined when it is something else. */
export function asDiskError(err: unknown, path: string): DiskError | undefined {
  if (err instanceof DiskError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && code in DISK_CONDITIONS ? new DiskError(path, code) : undefined;
}

/** Rethrows a disk failure of a write to `path` as a DiskError naming it; other errors as they are. */
export function rethrowAsDisk(err: unknown, path: string): never {
  throw asDiskError(err, path) ?? err;
}
