// Bedrock's wire for the fake provider: ConverseStream events encoded as real AWS event-stream
// frames with the AWS SDK's own codec (prelude, headers, CRCs), and a SigV4 check that recomputes
// a received request's signature with the AWS signer.
import { createHash } from "node:crypto";
import { Sha256 } from "@aws-crypto/sha256-js";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { SignatureV4 } from "@smithy/signature-v4";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { RecordedRequest } from "./fake-provider.js";

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const stringHeader = (value: string) => ({ type: "string" as const, value });

/** One `:message-type: event` frame carrying `payload` as JSON. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ":event-type": stringHeader(eventType),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("event"),
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** One `:message-type: exception` frame, as Bedrock sends a failure mid-stream. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ":exception-type": stringHeader(exceptionType),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("exception"),
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** Frames from `{eventType: payload}` objects (the shape vercel/ai's Bedrock fixtures keep). */
export function framesOf(events: Record<string, unknown>[]): Uint8Array[] {
  return events.map((event) => {
    const [type, payload] = Object.entries(event)[0];
    return eventFrame(type, payload);
  });
}

export const EVENT_STREAM_HEADERS = { "content-type": "application/vnd.amazon.eventstream" };

export interface AwsTestCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * The signature the request should carry, recomputed with the AWS signer from what the server
 * received (its path, signed headers, body and x-amz-date), with Bedrock's signing rules or, with
 * `uriEscapePath: false`, S3's (a path not encoded twice).
 */
export async function expectedAuthorization(
  request: RecordedRequest,
  credentials: AwsTestCredentials,
  region: string,
  port: number,
  uriEscapePath = true,
): Promise<string> {
  const authorization = String(request.headers.authorization ?? "");
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(";") ?? [];
  const headers: Record<string, string> = {};
  for (const name of signedNames) headers[name] = String(request.headers[name] ?? "");
  // The payload's hash from the body received, not the one the client said it sent: a client
  // that signed a hash of other bytes then fails here.
  if ("x-amz-content-sha256" in headers)
    headers["x-amz-content-sha256"] = createHash("sha256").update(request.rawBody, "utf8").digest("hex");
  const date = String(request.headers["x-amz-date"]);
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ credentials, region, service: "bedrock", sha256: Sha256, uriEscapePath });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: "http:",
      hostname: "127.0.0.1",
      port,
      path: request.path,
      query: {},
      headers,
      body: request.rawBody,
    },
    { signingDate },
  );
  return String(signed.headers.authorization);
}
