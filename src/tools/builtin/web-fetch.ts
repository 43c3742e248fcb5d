// web_fetch: an http(s) GET whose HTML comes back as markdown (turndown, loaded only when a page
// needs it). Bounded in every way a page can misbehave: scheme, redirects, bytes, time, and the
// characters sent back. A redirect to another host is not followed: the model is told where it
// leads, so a rule that allows one domain never fetches from another.
import { domainToASCII } from "node:url";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { errorMessage, fail, ok } from "../results.js";
import { text } from "../present.js";
import type { Tool, ToolResult } from "../types.js";
import type { PinnedAddress } from "./web-fetch-address.js";
import { type Fetched, getPinned, readCapped } from "./web-fetch-request.js";

export const WEB_FETCH_DEFAULT_CHARS = 30_000;
const MAX_REDIRECTS = 5;
const MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
const HEADERS = {
  "user-agent": "tern-web-fetch",
  accept: "text/html, text/markdown, text/plain, */*;q=0.5",
};

const schema = lazySchema(() =>
  z.object({
    url: z.string(),
    max_chars: z.optional(z.int().check(z.positive())),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

/** The host a `web_fetch(domain)` rule is matched against, or undefined for a URL that is not http(s). */
export function fetchHost(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const u = new URL(url);
    // `evil.com.` is the same host as `evil.com`: a rule about one covers the other.
    return u.protocol === "http:" || u.protocol === "https:"
      ? u.hostname.toLowerCase().replace(/\.$/, "")
      : undefined;
  } catch {
    return undefined;
  }
}

/** `example.com` matches the host and its subdomains; `*.example.com` only the subdomains. */
export function domainMatches(pattern: string, host: string): boolean {
  const raw = pattern.trim().toLowerCase().replace(/\.$/, "");
  if (raw === "*") return true;
  const wildcard = raw.startsWith("*.");
  const name = wildcard ? raw.slice(2) : raw;
  // A rule written in Unicode (`bücher.de`) names the host that URLs carry in ASCII (`xn--bcher-kva.de`).
  const ascii = domainToASCII(name) || name;
  const h = host.replace(/\.$/, "");
  return wildcard ? h.endsWith(`.${ascii}`) : h === ascii || h.endsWith(`.${ascii}`);
}

function charsetOf(contentType: string): string {
  const m = /charset=["']?([\w-]+)/i.exec(contentType);
  return m ? m[1].toLowerCase() : "utf-8";
}

const isText = (type: string) =>
  /^text\//i.test(type) || /json|xml|javascript|ecmascript|yaml|toml|csv/i.test(type) || type === "";

async function htmlToMarkdown(html: string): Promise<string> {
  const { default: TurndownService } = await import("turndown");
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  // Scripts, styles and page furniture are noise to a model reading the page.
  service.remove(["script", "style", "noscript", "iframe", "head", "nav", "footer", "form"]);
  service.remove((node) => node.nodeName.toLowerCase() === "svg");
  return service.turndown(html).trim();
}

function decode(bytes: Uint8Array, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

export async function webFetch(
  args: Args,
  signal: AbortSignal,
  opts: { timeoutMs?: number; addresses?: readonly PinnedAddress[] } = {},
): Promise<ToolResult> {
  let url = args.url.trim();
  const host = fetchHost(url);
  if (!host) return fail(`web_fetch: ${JSON.stringify(args.url.slice(0, 200))} is not an http(s) URL.`);
  const limit = args.max_chars ?? WEB_FETCH_DEFAULT_CHARS;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  try {
    let res: Fetched | undefined;
    for (let hop = 0; ; hop++) {
      const target = new URL(url);
      // fetch() refused these too: a password in a URL is not something to send on a model's word.
      if (target.username || target.password)
        return fail(`web_fetch: ${url} carries credentials; they are not sent.`);
      // Same host on every hop (another host is not followed), so the checked addresses still hold.
      res = await getPinned(target, HEADERS, both, opts.addresses);
      const location = res.header("location");
      if (res.status < 300 || res.status >= 400 || !location) break;
      const next = new URL(location, url).toString();
      res.cancel();
      const nextHost = fetchHost(next);
      if (!nextHost) return fail(`web_fetch: ${url} redirects to ${next}, which is not an http(s) URL.`);
      if (nextHost !== fetchHost(url))
        return ok(
          `${url} redirects to another host: ${next}\nCall web_fetch with that URL to follow it (it may need approval).`,
        );
      if (hop + 1 >= MAX_REDIRECTS)
        return fail(`web_fetch: more than ${MAX_REDIRECTS} redirects from ${args.url}.`);
      url = next;
    }
    const type = res.header("content-type").split(";")[0].trim().toLowerCase();
    if (!isText(type)) {
      res.cancel();
      return fail(`web_fetch: ${url} is ${type} content, not text; it is not shown.`);
    }
    const { bytes, truncated } = await readCapped(res, MAX_BYTES);
    const raw = decode(bytes, res.header("content-type"));
    const body =
      /html/.test(type) || /^\s*<(!doctype html|html)/i.test(raw) ? await htmlToMarkdown(raw) : raw;
    const shown = body.length > limit ? body.slice(0, limit) : body;
    const notes: string[] = [];
    if (truncated)
      notes.push(`[the page is larger than ${MAX_BYTES / (1024 * 1024)} MB; only its start was read]`);
    if (body.length > limit)
      notes.push(`[${body.length - limit} more characters not shown; pass a larger max_chars to see more]`);
    const text = [`URL: ${url}`, `Status: ${res.status}`, "", shown, ...notes].join("\n");
    return res.status >= 200 && res.status < 300 ? ok(text) : fail(text);
  } catch (err) {
    if (signal.aborted) return fail("web_fetch: cancelled");
    if (deadline.aborted) return fail(`web_fetch: ${url} did not answer within ${timeoutMs / 1000} s`);
    return fail(`web_fetch: ${url}: ${errorMessage(err)}`);
  }
}

export const webFetchTool: Tool<Args> = {
  name: "web_fetch",
  description: `GET an http(s) URL as text (HTML as markdown), at most max_chars (default ${WEB_FETCH_DEFAULT_CHARS}).`,
  get schema() {
    return schema();
  },
  kind: "fetch",
  paths: () => [],
  present: (args) => ({ title: text(args.url), kind: "fetch", locations: [] }),
  run: (args, ctx) => webFetch(args, ctx.signal, { addresses: ctx.fetchAddresses }),
};
