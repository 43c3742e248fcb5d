// The sandbox policy and the text each mechanism is given: bubblewrap's bind order (later binds
// win, so protected folders come after writable ones) and the macOS Seatbelt profile.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bubblewrapArgs } from "../../src/sandbox/bubblewrap.js";
import { sandboxBlock } from "../../src/sandbox/failure.js";
import { type SandboxPolicy, sandboxBounds, sandboxPolicy } from "../../src/sandbox/policy.js";
import { seatbeltProfile } from "../../src/sandbox/seatbelt.js";
import { unixSocketFilter } from "../../src/sandbox/seccomp.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
  mkdirSync(join(dirs.workspace, ".git"));
});
afterEach(() => dirs.cleanup());

const settings = (mode: "off" | "read-only" | "workspace-write", extra = {}) => ({
  mode,
  network: false,
  writableRoots: [],
  ...extra,
});

describe("sandboxPolicy", () => {
  it("off is no policy; workspace-write writes the temp folder, workspace and roots, not .git or TERN_HOME", () => {
    expect(sandboxPolicy(settings("off"), dirs.workspace, dirs.home)).toBeUndefined();
    const p = sandboxPolicy(
      settings("workspace-write", { writableRoots: [dirs.root] }),
      dirs.workspace,
      dirs.home,
    )!;
    expect(p.writable).toContain(dirs.workspace);
    expect(p.writable).toContain(dirs.root);
    // The missing .tern gets a placeholder; TERN_HOME is hidden, not merely read-only.
    expect(p.readOnly).toEqual([join(dirs.workspace, ".git"), join(dirs.workspace, ".tern")]);
    expect(p.placeholders).toEqual([join(dirs.workspace, ".tern")]);
    expect(p.hidden).toEqual([dirs.home]);
    expect(p.cwd).toBe(dirs.workspace);
  });

  it("nested repositories' .git and .tern are read-only as well, at any depth and under dependency folders", () => {
    const nested = ["a/b/.git", "a/.tern", "node_modules/pkg/.git", "c/d/e/f/g/h/i/.git", ".tern"];
    for (const dir of nested) mkdirSync(join(dirs.workspace, dir), { recursive: true });
    const p = sandboxPolicy(settings("workspace-write"), dirs.workspace, undefined)!;
    // Beside each nested repository, the one of .git/.tern it lacks is a placeholder.
    const missing = ["a/b/.tern", "a/.git", "node_modules/pkg/.tern", "c/d/e/f/g/h/i/.tern"];
    const all = [".git", ...nested, ...missing].map((d) => join(dirs.workspace, d));
    expect([...p.readOnly].sort()).toEqual(all.sort());
    expect([...p.placeholders].sort()).toEqual(missing.map((d) => join(dirs.workspace, d)).sort());
  });

  it("is made again for each command: a repository made since is protected, unchanged folders are not read again", () => {
    const bounds = sandboxBounds(settings("workspace-write"), dirs.workspace, undefined)!;
    mkdirSync(join(dirs.workspace, "src/lib"), { recursive: true });
    expect(bounds.current().readOnly).not.toContain(join(dirs.workspace, "src/lib/.git"));
    mkdirSync(join(dirs.workspace, "src/lib/.git"));
    const now = bounds.current();
    expect(now.readOnly).toContain(join(dirs.workspace, "src/lib/.git"));
    expect(now.placeholders).toContain(join(dirs.workspace, "src/lib/.tern"));
  });

  it("read-only writes only the temp folder", () => {
    const p = sandboxPolicy(settings("read-only"), dirs.workspace, undefined)!;
    expect(p.writable).toHaveLength(1);
    expect(p.writable[0]).not.toBe(dirs.workspace);
  });
});

const policy: SandboxPolicy = {
  mode: "workspace-write",
  network: false,
  writable: ["/tmp", "/work/ws"],
  readOnly: ["/work/ws/.git"],
  placeholders: [],
  hidden: [],
  cwd: "/work/ws",
};

describe("bubblewrap arguments", () => {
  it("binds / read-only, then writable folders, then the protected ones; no network; new PID namespace", () => {
    const args = bubblewrapArgs(policy, ["bash", "-c", "true"]);
    const at = (flag: string, path: string) =>
      args.findIndex((a, i) => a === flag && args[i + 1] === path && args[i + 2] === path);
    expect(at("--ro-bind", "/")).toBe(0);
    expect(at("--bind", "/work/ws")).toBeGreaterThan(0);
    expect(at("--ro-bind", "/work/ws/.git")).toBeGreaterThan(at("--bind", "/work/ws"));
    expect(args).toContain("--unshare-net");
    expect(args).toContain("--unshare-pid");
    expect(args).toContain("--die-with-parent");
    expect(args.slice(args.indexOf("--"))).toEqual(["--", "bash", "-c", "true"]);
    expect(bubblewrapArgs({ ...policy, network: true }, ["true"])).not.toContain("--unshare-net");
  });
});

describe("Seatbelt profile (macOS)", () => {
  it("denies by default, reads everything, writes only writable subpaths minus the protected ones", () => {
    const text = seatbeltProfile({ ...policy, writable: ["/tmp", '/work/my "ws"'] });
    expect(text.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(text).toContain("(allow file-read*)");
    expect(text).toContain('(allow file-write* (subpath "/tmp") (subpath "/work/my \\"ws\\""))');
    expect(text).toContain('(deny file-write* (subpath "/work/ws/.git"))');
    // The deny comes after the allow: Seatbelt's later rule wins for the same operation.
    expect(text.indexOf("(deny file-write*")).toBeGreaterThan(text.indexOf("(allow file-write* (subpath"));
    expect(text).not.toContain("network");
    expect(seatbeltProfile({ ...policy, network: true })).toContain("(allow network*)");
  });
});

describe("sandbox failures", () => {
  it("reads write and network denials; network only counts when the sandbox has none", () => {
    expect(sandboxBlock("touch: cannot touch '/x': Read-only file system", policy)).toBe("write");
    expect(sandboxBlock("curl: (6) Could not resolve host: example.com", policy)).toBe("network");
    expect(sandboxBlock("curl: (6) Could not resolve host: example.com", { ...policy, network: true })).toBe(
      undefined,
    );
    expect(sandboxBlock("error: tests failed", policy)).toBeUndefined();
  });
});

describe("the Unix-socket filter (no network)", () => {
  it("bubblewrap reads it from descriptor 3 only when the network is off", () => {
    const args = bubblewrapArgs(policy, ["bash"], true);
    expect(args.slice(args.indexOf("--seccomp"), args.indexOf("--seccomp") + 2)).toEqual(["--seccomp", "3"]);
    expect(args.indexOf("--seccomp")).toBeLessThan(args.indexOf("--"));
    expect(bubblewrapArgs({ ...policy, network: true }, ["bash"], true)).not.toContain("--seccomp");
    expect(bubblewrapArgs(policy, ["bash"], false)).not.toContain("--seccomp");
  });

  it("is a BPF program for the machines tern knows, and nothing elsewhere", () => {
    const x64 = unixSocketFilter("x64")!;
    expect(x64.length % 8).toBe(0);
    // The last instruction allows; the one before refuses with EACCES (0x00050000 | 13).
    expect(x64.readUInt32LE(x64.length - 4)).toBe(0x7fff0000);
    expect(x64.readUInt32LE(x64.length - 12)).toBe(0x0005000d);
    expect(unixSocketFilter("arm64")).toBeInstanceOf(Buffer);
    expect(unixSocketFilter("s390x")).toBeUndefined();
  });
});
