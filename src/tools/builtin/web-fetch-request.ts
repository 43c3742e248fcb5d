// One GET of web_fetch over node:http(s), connected only to the addresses its host was checked
// at (§10): the `lookup` of the connection answers from that list and never asks DNS again, so a
// name that resolved to a public address for the check cannot resolve to 127.0.0.1 for the
// connection (DNS rebinding). Without a list (the tool run on its own) names resolve as the
// check would (web-fetch-address.ts). A fresh connection each time: a pooled one made for
// another call could lead to another address.
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { type PinnedAddress, resolveHost } from "./web-fetch-address.js";

export interface Fetched {
  status: number;
  /** A header's value, lower-case name; "" when absent. */
  header(name: string): string;
  /** The body, decompressed. */
  body: Readable;
  /** Drops the rest of the body and the connection. */
  cancel(): void;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}

/** A connection's lookup answering from `addresses` (or resolving as the check does, when absent). */
export function connectLookup(addresses: readonly PinnedAddress[] | undefined): LookupFunction {
  return (hostname, options, callback) => {
    const found = addresses ? Promise.resolve(addresses) : resolveHost(hostname).then((r) => r.addresses);
    found.then((all) => {
      const family = options.family === 4 || options.family === 6 ? options.family : 0;
      const fitting = family ? all.filter((a) => a.family === family) : [...all];
      if (fitting.length === 0) callback(notFound(hostname), "", 0);
      else if (options.all) callback(null, fitting);
      else callback(null, fitting[0].address, fitting[0].family);
    });
  };
}

/** GETs `url` (http or https), the body decompressed; rejects on a network error or abort. */
export function getPinned(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  addresses: readonly PinnedAddress[] | undefined,
): Promise<Fetched> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: { ...headers, "accept-encoding": "gzip, deflate, br" },
        lookup: connectLookup(addresses),
        agent: false,
        signal,
      },
      (res) => resolve(fetched(res)),
    );
    req.on("error", reject);
    req.end();
  });
}

function fetched(res: IncomingMessage): Fetched {
  const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
  const unzip =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  let body: Readable = res;
  if (unzip) {
    res.on("error", (err) => unzip.destroy(err));
    body = res.pipe(unzip);
  }
  return {
    status: res.statusCode ?? 0,
    header: (name) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(", ") : (v ?? "");
    },
    body,
    cancel: () => {
      res.destroy();
      unzip?.destroy();
    },
  };
}

/** Reads at most `max` bytes of the body, then stops it; says whether more was left unread. */
export async function readCapped(
  res: Fetched,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).byteLength;
      if (total >= max) break;
    }
  } finally {
    res.cancel();
  }
  const all = Buffer.concat(chunks);
  return { bytes: all.subarray(0, Math.min(all.byteLength, max)), truncated: total >= max };
}
