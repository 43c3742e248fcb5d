import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/record/sha256.js";

const reference = (text: string) => createHash("sha256").update(text).digest("hex");

describe("sha256Hex", () => {
  it("gives the standard digests of the published test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("equals node:crypto for every length across block boundaries and for non-ASCII paths", () => {
    let text = "";
    for (let n = 0; n <= 300; n++) {
      expect(sha256Hex(text)).toBe(reference(text));
      text += String.fromCharCode(33 + ((n * 7) % 90));
    }
    for (const path of ["/home/ünïcödé/projekt", "/tmp/日本語/ワーク", "/a/😀/b", "C:\\Users\\x y\\repo"])
      expect(sha256Hex(path)).toBe(reference(path));
  });
});
