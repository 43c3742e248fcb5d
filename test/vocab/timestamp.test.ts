import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../src/vocab/timestamp.js";

describe("isoTimestamp", () => {
  it("writes what toISOString writes, over random instants from year 0 to 9999", () => {
    const from = Date.parse("0000-01-01T00:00:00.000Z");
    const max = Date.parse("9999-12-31T23:59:59.999Z");
    for (let i = 0; i < 20_000; i++) {
      const date = new Date(from + Math.floor(Math.random() * (max - from)));
      expect(isoTimestamp(date)).toBe(date.toISOString());
    }
  });

  it("handles the edges: epoch, leap day, the last millisecond of a year", () => {
    for (const text of ["1970-01-01T00:00:00.000Z", "2024-02-29T12:34:56.789Z", "2026-12-31T23:59:59.999Z"]) {
      expect(isoTimestamp(new Date(text))).toBe(text);
    }
  });

  it("falls back to toISOString outside 0–9999 and throws like it on an invalid date", () => {
    const far = new Date(Date.UTC(12000, 0, 1));
    expect(isoTimestamp(far)).toBe(far.toISOString());
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
