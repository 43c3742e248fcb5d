// web_fetch against a local HTTP server only: HTML as markdown, redirects, schemes, size, time,
// binary content and cancellation; and the domain rules of its approval.
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { domainMatches, webFetch } from "../../src/tools/builtin/web-fetch.js";

let server: Server;
let base: string;
const never = new AbortController().signal;
const text = (r: { content: { type: string; text?: string }[] }) =>
  r.content.map((p) => p.text ?? "").join("");

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/page") {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(
        "<html><head><title>T</title><script>evil()</script></head><body><h1>Title</h1><p>Some <b>bold</b> text.</p><pre><code>x = 1</code></pre></body></html>",
      );
    } else if (url === "/gz") {
      res.setHeader("content-type", "text/plain");
      res.setHeader("content-encoding", "gzip");
      res.end(gzipSync("compressed text"));
    } else if (url === "/plain") {
      res.setHeader("content-type", "text/plain");
      res.end("just text");
    } else if (url.startsWith("/hop")) {
      const n = Number(url.slice(4) || "0");
      res.statusCode = 302;
      res.setHeader("location", n >= 9 ? "/plain" : `/hop${n + 1}`);
      res.end();
    } else if (url === "/away") {
      res.statusCode = 301;
      res.setHeader("location", "http://localhost:1/elsewhere");
      res.end();
    } else if (url === "/to-file") {
      res.statusCode = 302;
      res.setHeader("location", "file:///etc/passwd");
      res.end();
    } else if (url === "/big") {
      res.setHeader("content-type", "text/plain");
      const chunk = "x".repeat(1024 * 1024);
      for (let i = 0; i < 8; i++) res.write(chunk);
      res.end();
    } else if (url === "/binary") {
      res.setHeader("content-type", "image/png");
      res.end(Buffer.alloc(100));
    } else if (url === "/missing") {
      res.statusCode = 404;
      res.setHeader("content-type", "text/plain");
      res.end("not here");
    } else if (url === "/hang") {
      // Never answers: the time bound must end it.
    } else res.end("?");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("web_fetch", () => {
  it("returns HTML as markdown, without scripts", async () => {
    const r = await webFetch({ url: `${base}/page` }, never);
    expect(r.outcome).toBe("ok");
    const t = text(r);
    expect(t).toContain(`URL: ${base}/page`);
    expect(t).toContain("# Title");
    expect(t).toContain("Some **bold** text.");
    expect(t).toContain("```\nx = 1\n```");
    expect(t).not.toContain("evil");
  });

  it("follows same-host redirects up to a limit and reports a redirect to another host", async () => {
    expect(text(await webFetch({ url: `${base}/hop7` }, never))).toContain("just text");
    const tooMany = await webFetch({ url: `${base}/hop0` }, never);
    expect(tooMany.outcome).toBe("error");
    expect(text(tooMany)).toMatch(/more than 5 redirects/);
    const away = await webFetch({ url: `${base}/away` }, never);
    expect(text(away)).toMatch(/redirects to another host: http:\/\/localhost:1\/elsewhere/);
    const file = await webFetch({ url: `${base}/to-file` }, never);
    expect(file.outcome).toBe("error");
    expect(text(file)).toMatch(/not an http\(s\) URL/);
  });

  it("decompresses a gzip body; refuses a URL carrying credentials", async () => {
    expect(text(await webFetch({ url: `${base}/gz` }, never))).toContain("compressed text");
    const creds = await webFetch({ url: base.replace("http://", "http://user:pw@") }, never);
    expect(creds.outcome).toBe("error");
    expect(text(creds)).toMatch(/carries credentials/);
  });

  it("refuses other schemes", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "not a url"]) {
      const r = await webFetch({ url }, never);
      expect(r.outcome).toBe("error");
      expect(text(r)).toMatch(/is not an http\(s\) URL/);
    }
  });

  it("bounds size, characters and time; refuses binary; reports HTTP errors", async () => {
    const big = await webFetch({ url: `${base}/big`, max_chars: 1000 }, never);
    expect(text(big)).toMatch(/only its start was read/);
    expect(text(big)).toMatch(/more characters not shown/);
    expect(text(big).length).toBeLessThan(1500);
    const bin = await webFetch({ url: `${base}/binary` }, never);
    expect(bin.outcome).toBe("error");
    expect(text(bin)).toMatch(/image\/png content, not text/);
    const missing = await webFetch({ url: `${base}/missing` }, never);
    expect(missing.outcome).toBe("error");
    expect(text(missing)).toMatch(/Status: 404/);
    const hang = await webFetch({ url: `${base}/hang` }, never, { timeoutMs: 300 });
    expect(hang.outcome).toBe("error");
    expect(text(hang)).toMatch(/did not answer within 0.3 s/);
  });

  it("is cancelled with the turn", async () => {
    const ac = new AbortController();
    const pending = webFetch({ url: `${base}/hang` }, ac.signal);
    setTimeout(() => ac.abort(), 50);
    const r = await pending;
    expect(text(r)).toBe("web_fetch: cancelled");
  });
});

describe("web_fetch approval", () => {
  const call = (url: string) => ({ name: "web_fetch", kind: "fetch" as const, args: { url }, paths: [] });
  it("asks in ask mode, runs in auto-edit, and domain rules allow and deny by host", () => {
    const ask = new ApprovalPolicy({
      mode: "ask",
      allow: ["web_fetch(docs.python.org)"],
      deny: [],
      cwd: "/",
    });
    expect(ask.decide(call("https://example.com/"))).toBe("ask");
    expect(ask.decide(call("https://docs.python.org/3/"))).toBe("allow");
    expect(ask.decide(call("https://evil.docs.python.org.attacker.net/"))).toBe("ask");
    const auto = new ApprovalPolicy({
      mode: "auto-edit",
      allow: [],
      deny: ["web_fetch(*.internal)"],
      cwd: "/",
    });
    expect(auto.decide(call("https://example.com/"))).toBe("allow");
    expect(auto.decide(call("http://wiki.internal/"))).toBe("deny");
  });

  it("'always' covers the host, never the whole web", () => {
    const policy = new ApprovalPolicy({ mode: "ask", allow: [], deny: [], cwd: "/" });
    policy.grantAlways(call("https://docs.rs/serde"));
    expect(policy.decide(call("https://docs.rs/tokio"))).toBe("allow");
    expect(policy.decide(call("https://crates.io/"))).toBe("ask");
  });

  it("domain patterns", () => {
    expect(domainMatches("example.com", "example.com")).toBe(true);
    expect(domainMatches("example.com", "api.example.com")).toBe(true);
    expect(domainMatches("example.com", "notexample.com")).toBe(false);
    expect(domainMatches("*.example.com", "example.com")).toBe(false);
    expect(domainMatches("*.example.com", "a.example.com")).toBe(true);
  });

  it("a deny rule sees the host however the URL spells it: trailing dot, Unicode, userinfo", () => {
    const policy = new ApprovalPolicy({
      mode: "yolo",
      allow: [],
      deny: ["web_fetch(evil.example)", "web_fetch(bücher.de)"],
      cwd: "/",
    });
    for (const url of [
      "https://evil.example./x",
      "https://EVIL.example/x",
      "https://docs.python.org@evil.example/",
      "https://api.evil.example./",
      "https://xn--bcher-kva.de/",
      "https://bücher.de/",
    ])
      expect(policy.decide(call(url)), url).toBe("deny");
    expect(policy.decide(call("https://evil.example.org/"))).toBe("allow");
  });
});

describe("private addresses (§10)", () => {
  it("loopback, link-local, private and this-host addresses are private; public ones are not", async () => {
    const { isPrivateAddress, privateAddressOf } = await import(
      "../../src/tools/builtin/web-fetch-address.js"
    );
    for (const ip of ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1"])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fc00::1",
      "fd12::3",
      "fe80::1",
      "::ffff:127.0.0.1",
      // The same addresses spelled otherwise: the URL parser writes [::ffff:127.0.0.1] in hex.
      "::ffff:7f00:1",
      "0:0:0:0:0:ffff:a00:1",
      "0:0:0:0:0:0:0:1",
      "::127.0.0.1",
      "64:ff9b::7f00:1",
      "fec0::1",
      "fe80::1%lo",
      "FD00::1",
      "100.64.0.1",
      "100.127.255.254",
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      "8.8.8.8",
      "172.32.0.1",
      "192.169.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "64:ff9b::808:808",
      "2001:db8::1",
      "fbff::1",
      "100.128.0.1",
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(await privateAddressOf("localhost")).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await privateAddressOf("[::1]")).toBe("::1");
    expect(await privateAddressOf("93.184.216.34")).toBeUndefined();
  });
});
