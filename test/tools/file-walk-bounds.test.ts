// R-TOOL-6: listings (grep's file walk, glob) cannot hang tern: brace explosions are refused
// before the synchronous expansion, and a walk stops on cancel or after its time.
import { describe, expect, it } from "vitest";
import { braceExpansions, ListingStopped, listFiles, planGlob } from "../../src/tools/builtin/file-walk.js";
import { displayPathsFrom, firstSorted } from "../../src/tools/builtin/listed-paths.js";
import { displayPath } from "../../src/tools/paths.js";

describe("bounded listings", () => {
  it("estimates brace expansion", () => {
    expect(braceExpansions("src/**/*.{ts,tsx}")).toBe(2);
    expect(braceExpansions("{a,b}{c,d,e}")).toBe(6);
    expect(braceExpansions("{1..100000}")).toBe(100000);
    expect(braceExpansions("{a..z}")).toBe(26);
    expect(braceExpansions("{a,{b,c}}")).toBe(4);
    expect(braceExpansions("x\\{a,b}")).toBe(1);
  });

  it("refuses a pattern that expands past the limit without expanding it", async () => {
    const bomb = "{a,b}".repeat(20);
    await expect(listFiles("/tmp", bomb, "/tmp")).rejects.toThrow(/expands to more than 1024 alternatives/);
  });

  it("stops a walk of the whole filesystem when cancelled, and when its time is up", async () => {
    const ac = new AbortController();
    const walk = listFiles("/", "**/*", "/nonexistent", { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    await expect(walk).rejects.toBeInstanceOf(ListingStopped);
    await expect(listFiles("/", "**/*", "/nonexistent", { timeoutMs: 200 })).rejects.toThrow(
      /took too long|too many files/,
    );
  });
});

describe("displayPathsFrom", () => {
  it("shows listed paths as displayPath does, without its per-path resolves", () => {
    const shown = displayPathsFrom("/w/s");
    for (const abs of ["/w/s/a/b.ts", "/w/s/.hidden/x", "/w/other/x", "/w/s", "/w/s/../t/x", "/w/sx/y"])
      expect(shown(abs), abs).toBe(displayPath("/w/s", abs));
    expect(shown("/w/s/a/b.ts")).toBe("a/b.ts");
    expect(displayPathsFrom("/")("/etc/x")).toBe(displayPath("/", "/etc/x"));
  });
});

describe("firstSorted", () => {
  it("is the first k of a full sort, for any order and size", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647);
    for (const n of [0, 3, 500, 501, 2000, 10_000]) {
      const items = Array.from({ length: n }, () => `p/${rand() % 5000}/f${rand() % 97}.json`);
      const expected = [...items].sort().slice(0, 500);
      expect(firstSorted([...items], 500), String(n)).toEqual(expected);
      expect(firstSorted([...items].sort().reverse(), 500)).toEqual(expected);
    }
  });
});

describe("planGlob", () => {
  it("plans **/*.ext without picomatch as picomatch (dot files included) would match it", async () => {
    const pm = (await import("picomatch")).default;
    const names = [".json", "a.json", "..json", "a.b.json", "a.JSON", "a.jsonx", "json", "x.d.ts", "xd.ts"];
    for (const ext of ["json", "d.ts", "a-b_c"]) {
      const plan = planGlob("/w", `**/*.${ext}`);
      const theirs = pm(`*.${ext}`, { dot: true });
      expect(plan.nameGlob).toBe(`*.${ext}`);
      for (const name of names) expect(plan.nameMatches?.(name), `${ext} ${name}`).toBe(theirs(name));
      expect(plan.matches(`deep/.dot/a.${ext}`)).toBe(true);
    }
    expect(planGlob("/w/", "./**").dir).toBe("/w");
  });
});
