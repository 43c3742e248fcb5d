// A proxy or load balancer in front of a provider answers a failure with an HTML page, not the
// provider's JSON: the operator message is that page's title (or its text), one line, never markup.
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
