// unbilled.json, open for the session and rewritten in place: what crash recovery reads back.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readUnbilled, UNBILLED_FILE, UnbilledFile } from "../../src/record/unbilled.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { usage } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

describe("UnbilledFile", () => {
  it("reads back the last write, a shorter text over a longer one included", () => {
    const file = new UnbilledFile(dirs.home);
    const big = usage(123_456_789, 987_654_321);
    file.write({ turn: 12, attempts: 3, usage: big, afterSeq: 100_000 });
    expect(readUnbilled(dirs.home)).toEqual({ turn: 12, attempts: 3, usage: big, afterSeq: 100_000 });
    file.write({ turn: 1, attempts: 1, usage: usage(0, 0), afterSeq: 2 });
    expect(readUnbilled(dirs.home)).toEqual({ turn: 1, attempts: 1, usage: usage(0, 0), afterSeq: 2 });
    // Written in place: the file never shrinks, the rest is spaces JSON.parse skips.
    const text = readFileSync(join(dirs.home, UNBILLED_FILE), "utf8");
    expect(text.trimEnd()).toBe(JSON.stringify({ turn: 1, attempts: 1, usage: usage(0, 0), afterSeq: 2 }));
    expect(statSync(join(dirs.home, UNBILLED_FILE)).mode & 0o777).toBe(0o600);
    file.close();
  });

  it("keeps a text longer than the slot whole, and a later short one pads over all of it", () => {
    const file = new UnbilledFile(dirs.home);
    const long = { ...usage(1, 1), note: "x".repeat(900) } as unknown as ReturnType<typeof usage>;
    file.write({ turn: 2, attempts: 2, usage: long, afterSeq: 5 });
    expect(readUnbilled(dirs.home)?.usage).toEqual(long);
    file.write({ turn: 2, attempts: 3, usage: usage(4, 4), afterSeq: 6 });
    expect(readUnbilled(dirs.home)).toEqual({ turn: 2, attempts: 3, usage: usage(4, 4), afterSeq: 6 });
    file.close();
  });

  it("goes when the session closes; never written, there is nothing to remove", () => {
    const idle = new UnbilledFile(dirs.home);
    idle.close();
    expect(existsSync(join(dirs.home, UNBILLED_FILE))).toBe(false);
    const file = new UnbilledFile(dirs.home);
    file.write({ turn: 1, attempts: 1, usage: usage(1, 1), afterSeq: 1 });
    file.close();
    expect(existsSync(join(dirs.home, UNBILLED_FILE))).toBe(false);
  });

  it("reads a torn or blank file as nothing kept", () => {
    writeFileSync(join(dirs.home, UNBILLED_FILE), '{"turn":1,"attem');
    expect(readUnbilled(dirs.home)).toBeUndefined();
    writeFileSync(join(dirs.home, UNBILLED_FILE), " ".repeat(512));
    expect(readUnbilled(dirs.home)).toBeUndefined();
  });
});
