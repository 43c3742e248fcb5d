// When a file system's time can be trusted to move at the next change: within 100 ms of a
// sub-second time, within 2 s of a whole-second one (a coarse file system's), never ahead of it.
import { describe, expect, it } from "vitest";
import { COARSE_RACY_MS, FINE_RACY_MS, racyWindowMs, stampTrusted } from "../../src/vocab/racy-stamps.js";

const second = 1_764_000_000_000;

describe("racy time stamps", () => {
  it("gives a time with a sub-second part the short window, a whole-second time the long one", () => {
    expect(racyWindowMs(second + 250.5)).toBe(FINE_RACY_MS);
    // One microsecond past a second still shows (the float of mtimeMs keeps ~0.25 µs here).
    expect(racyWindowMs(second + 0.001)).toBe(FINE_RACY_MS);
    expect(racyWindowMs(second)).toBe(COARSE_RACY_MS);
    expect(racyWindowMs(0)).toBe(COARSE_RACY_MS);
    expect(FINE_RACY_MS).toBeLessThan(COARSE_RACY_MS);
  });

  it("trusts a sub-second time read 100 ms after it, a whole-second time only 2 s after", () => {
    const fine = second + 250.5;
    expect(stampTrusted(fine, fine + 50)).toBe(false);
    expect(stampTrusted(fine, fine + FINE_RACY_MS)).toBe(true);
    expect(stampTrusted(fine, fine + 1_000)).toBe(true);
    expect(stampTrusted(second, second + 1_000)).toBe(false);
    expect(stampTrusted(second, second + 1_999)).toBe(false);
    expect(stampTrusted(second, second + COARSE_RACY_MS)).toBe(true);
  });

  it("never trusts a time ahead of the clock (a file server's clock running fast)", () => {
    expect(stampTrusted(second + 60_000.5, second)).toBe(false);
    expect(stampTrusted(second + 60_000, second)).toBe(false);
  });
});
