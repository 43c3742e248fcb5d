// `*` patterns: the matcher without a regular expression agrees with the expression everywhere.
import { describe, expect, it } from "vitest";
import { globToRegExp, wildcardMatches, wildcardMatchesAny } from "../../src/config/wildcard.js";

describe("wildcardMatches", () => {
  it("answers as globToRegExp does, case-sensitive and ASCII-insensitive, on 20,000 random pairs", () => {
    // A small alphabet makes matches and near misses common; `*`, regex metacharacters, newlines,
    // and letters whose /i folding is special (ß, ſ, K Kelvin, İ) test the edges.
    const alphabet = ["a", "A", "b", "_", "*", ".", "+", "(", "\n", "ß", "ſ", "K", "İ", "k", "s", "S"];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const word = (max: number) =>
      Array.from({ length: random(max + 1) }, () => alphabet[random(alphabet.length)]).join("");
    for (let i = 0; i < 20_000; i++) {
      const glob = word(6);
      const text = word(8).replace(/\*/g, "");
      for (const ignoreCase of [false, true]) {
        const expected = globToRegExp(glob, ignoreCase ? "is" : "s").test(text);
        expect([glob, text, ignoreCase, wildcardMatches(glob, text, ignoreCase)]).toEqual([
          glob,
          text,
          ignoreCase,
          expected,
        ]);
      }
    }
  });

  it("matches the secret name patterns as configured", () => {
    expect(wildcardMatches("*_API_KEY", "openai_api_key", true)).toBe(true);
    expect(wildcardMatches("*_API_KEY", "OPENAI_API_KEYS", true)).toBe(false);
    expect(wildcardMatches("*SECRET*", "MY_SECRET_THING", true)).toBe(true);
    expect(wildcardMatches("*_TOKEN", "_TOKEN", true)).toBe(true);
    expect(wildcardMatches("a*a", "a", false)).toBe(false);
    expect(wildcardMatches("a*a", "aa", false)).toBe(true);
  });

  it("wildcardMatchesAny answers as some(wildcardMatches) does", () => {
    const globs = ["*_API_KEY", "API_KEY", "*SECRET*", "*_PAT"];
    for (const name of ["api_key", "Openai_Api_Key", "GITHUB_PAT", "PATH", "my_secret", "", "KEY"])
      for (const ignoreCase of [true, false])
        expect(wildcardMatchesAny(globs, name, ignoreCase)).toBe(
          globs.some((g) => wildcardMatches(g, name, ignoreCase)),
        );
    expect(wildcardMatchesAny([], "anything", true)).toBe(false);
  });
});
