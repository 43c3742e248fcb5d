// Images live once per session under attachments/, named by content hash, and the record
// refers to them by that name. Deleted only when no remaining transcript mentions them (R-REC-5).
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { RecordContentPart, RecordLine } from "./types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { rethrowAsDisk } from "./errors.js";

const EXT: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};
const MEDIA: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
const REF = /^[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

export function attachmentsDir(sessionDir: string): string {
  return join(sessionDir, "attachments");
}

// Required on the first image, not imported: a static import loads OpenSSL (~1.7 MB) into every
// run, and most have no image.
let crypto: typeof import("node:crypto") | undefined;

/** Stores the bytes (once) and returns the ref `<sha256 hex>.<ext>`. */
export function storeImage(sessionDir: string, bytes: Buffer, mediaType: string): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  const ref = `${crypto.createHash("sha256").update(bytes).digest("hex")}.${EXT[mediaType] ?? "bin"}`;
  const dir = attachmentsDir(sessionDir);
  const file = join(dir, ref);
  if (!existsSync(file)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      rethrowAsDisk(err, dir);
    }
    // Write then rename, so a crash never leaves a half image under the final name.
    writeFileAtomic(file, bytes);
  }
  return ref;
}

/** The stored image as base64, or undefined when it was deleted or never stored. */
export function loadImage(sessionDir: string, ref: string): { data: string; mediaType: string } | undefined {
  if (!REF.test(ref)) return undefined; // refs come from files on disk: never let one name a path
  try {
    const data = readFileSync(join(attachmentsDir(sessionDir), ref)).toString("base64");
    return { data, mediaType: MEDIA[ref.slice(ref.lastIndexOf(".") + 1)] ?? "application/octet-stream" };
  } catch {
    return undefined;
  }
}

function partsOf(line: RecordLine): RecordContentPart[] {
  return line.type === "user_prompt" || line.type === "tool_result" ? line.content : [];
}

/** Every image ref the lines mention. */
export function imageRefs(lines: Iterable<RecordLine>): Set<string> {
  const refs = new Set<string>();
  for (const line of lines) for (const p of partsOf(line)) if (p.type === "image") refs.add(p.ref);
  return refs;
}

/**
 * Called after a `cleared` is appended: deletes the images that only cleared lines mention.
 * Returns the refs deleted.
 */
export function pruneClearedImages(sessionDir: string, lines: readonly RecordLine[]): string[] {
  let lastClear = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].type === "cleared") {
      lastClear = i;
      break;
    }
  }
  if (lastClear < 0) return [];
  const live = imageRefs(lines.slice(lastClear + 1));
  const deleted: string[] = [];
  for (const ref of imageRefs(lines.slice(0, lastClear))) {
    if (live.has(ref) || !REF.test(ref)) continue;
    const file = join(attachmentsDir(sessionDir), ref);
    if (existsSync(file)) {
      rmSync(file, { force: true });
      deleted.push(ref);
    }
  }
  return deleted;
}
