// HTTP errors in the shapes proxies and streaming servers send besides the provider's JSON: an
// HTML error page (the operator message is its title, or its text, one line, never markup), and
// the JSON error framed as an SSE event (read and classified like the plain JSON).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeProvider } from "../support/fake-provider.js";
import { collect } from "./openai-helpers.js";

let provider: FakeProvider;
beforeAll(async () => {
  provider = await FakeProvider.start();
});
afterAll(async () => {
  await provider.close();
});

const page = (status: number, body: string) => ({ status, headers: { "content-type": "text/html" }, body });

describe("HTML error pages", () => {
  it("nginx 503: retryable server error named by the page title", async () => {
    provider.enqueue(
      page(
        503,
        "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
      ),
    );
    const { error } = await collect(provider);
    expect(error).toMatchObject({ errorClass: "server", retryable: true, status: 503 });
    expect(error?.message).toBe("503 Service Temporarily Unavailable");
  });

  it("a Cloudflare 502 page with scripts and styles: the title, no markup", async () => {
    provider.enqueue(
      page(
        502,
        '<!DOCTYPE html>\n<html lang="en-US"><head><title>api.example.com | 502: Bad gateway</title><style>body{margin:0}</style><script>var a=1;</script></head><body><h1>Bad gateway</h1></body></html>',
      ),
    );
    const { error } = await collect(provider);
    expect(error).toMatchObject({ errorClass: "server", retryable: true, status: 502 });
    expect(error?.message).toBe("api.example.com | 502: Bad gateway");
  });

  it("a page without a title: its text without tags", async () => {
    provider.enqueue(
      page(
        504,
        "<html><body><h1>504 Gateway Time-out</h1>\nThe server didn't respond in time.</body></html>",
      ),
    );
    const { error } = await collect(provider);
    expect(error).toMatchObject({ retryable: true, status: 504 });
    expect(error?.message).toBe("504 Gateway Time-out The server didn't respond in time.");
  });

  it("a plain-text body stays as it is", async () => {
    provider.enqueue({
      status: 500,
      headers: { "content-type": "text/plain" },
      body: "upstream connect error",
    });
    const { error } = await collect(provider);
    expect(error?.message).toBe("upstream connect error");
  });
});

describe("an HTTP error sent as an SSE frame", () => {
  it("a 429 quota error framed as `data: {...}` is read as the quota error it is (not retried)", async () => {
    provider.enqueue({
      status: 429,
      headers: { "content-type": "text/event-stream" },
      body: `data: ${JSON.stringify({ error: { message: "You exceeded your current quota, please check your plan.", type: "insufficient_quota", code: "insufficient_quota" } })}\n\n`,
    });
    const { error } = await collect(provider);
    expect(error).toMatchObject({ errorClass: "quota", retryable: false, status: 429 });
    expect(error?.message).toBe("You exceeded your current quota, please check your plan.");
  });

  it("with an event line before the data: the provider's own message", async () => {
    provider.enqueue({
      status: 400,
      headers: { "content-type": "text/event-stream" },
      body: `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 205429 tokens > 200000 maximum" } })}\n\n`,
    });
    const { error } = await collect(provider);
    expect(error).toMatchObject({ errorClass: "context_overflow", retryable: false });
    expect(error?.message).toBe("prompt is too long: 205429 tokens > 200000 maximum");
  });
});
