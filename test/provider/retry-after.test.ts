// R-RETRY-2: a server-given delay is `retry-after-ms`, else `retry-after` in seconds or as an HTTP
// date (GMT, also in the asctime form that names no zone); a value that is neither is no delay at
// all (the backoff applies), never an immediate retry.
import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/provider/classify.js";

const NOW = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");

describe("retry-after values", () => {
  it("garbage is ignored: the backoff applies, not a retry at once", () => {
    for (const value of ["-5", "soon", "", "0x10", "-1.5"])
      expect(parseRetryAfter({ "retry-after": value }, NOW), value).toBeUndefined();
  });

  it("seconds and HTTP dates (IMF-fixdate, RFC 850) are read", () => {
    expect(parseRetryAfter({ "retry-after": "1" }, NOW)).toBe(1000);
    expect(parseRetryAfter({ "retry-after": "Wed, 21 Oct 2026 07:28:30 GMT" }, NOW)).toBe(30_000);
    expect(parseRetryAfter({ "retry-after": "Wednesday, 21-Oct-26 07:28:10 GMT" }, NOW)).toBe(10_000);
    expect(parseRetryAfter({ "retry-after": "Wed, 21 Oct 2026 07:27:00 GMT" }, NOW)).toBe(0);
  });

  it("the asctime form, which names no zone, is GMT as HTTP says, whatever the local zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(parseRetryAfter({ "retry-after": "Wed Oct 21 07:28:05 2026" }, NOW)).toBe(5000);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("a garbage retry-after-ms falls back to retry-after, and garbage in both is no delay", () => {
    expect(parseRetryAfter({ "retry-after-ms": "abc", "retry-after": "2" }, NOW)).toBe(2000);
    expect(parseRetryAfter({ "retry-after-ms": "abc", "retry-after": "-5" }, NOW)).toBeUndefined();
  });
});
