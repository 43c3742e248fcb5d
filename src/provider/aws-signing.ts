// SigV4 for Bedrock requests (R-PROV-14) with the AWS SDK's own signer and its standard credential
// chain (environment, AWS_PROFILE and ~/.aws files, SSO, web identity, process, container and
// instance roles). The chain is made once per process and memoizes its credentials until they
// expire. Loaded with the first Bedrock request only. No credential ever enters an error text.
import { ProviderError } from "./errors.js";

type CredentialProvider = () => Promise<{
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}>;
let chain: CredentialProvider | undefined;

/** The headers that sign one POST: x-amz-date, authorization, x-amz-content-sha256, x-amz-security-token. */
export async function sigV4Headers(
  url: URL,
  region: string,
  headers: Record<string, string>,
  body: readonly Uint8Array[],
): Promise<Record<string, string>> {
  const [signing, hashing, providers, crypto] = await Promise.all([
    import("@smithy/signature-v4"),
    import("@aws-crypto/sha256-js"),
    import("@aws-sdk/credential-provider-node"),
    import("node:crypto"),
  ]);
  // The body's hash from its chunks (the history's kept bytes), by node's own SHA-256: the signer
  // takes a given x-amz-content-sha256 as the payload's hash instead of joining, decoding and
  // hashing the whole history in JavaScript every round; it would have sent the same header.
  const payload = crypto.createHash("sha256");
  for (const chunk of body) payload.update(chunk);
  const SignatureV4 = named(signing, "SignatureV4");
  const Sha256 = named(hashing, "Sha256");
  const defaultProvider = named(providers, "defaultProvider");
  chain ??= defaultProvider() as CredentialProvider;
  const credentials = chain;
  // Bedrock is not S3: the signer encodes the (already encoded) path once more, `:` → `%253A`.
  const signer = new SignatureV4({
    credentials,
    region,
    service: "bedrock",
    sha256: Sha256,
    uriEscapePath: true,
  });
  try {
    const signed = await signer.sign({
      method: "POST",
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: {},
      headers: { ...headers, host: url.host, "x-amz-content-sha256": payload.digest("hex") },
    });
    return signed.headers as Record<string, string>;
  } catch (error) {
    throw new ProviderError({
      errorClass: "auth",
      retryable: false,
      message: `no AWS credentials for Bedrock (${credentialFailure(error)}): set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, run \`aws sso login\`, or set AWS_BEARER_TOKEN_BEDROCK`,
    });
  }
}

/**
 * A CommonJS package's export through `import()`: named in Node, under `default` once the build
 * has split the package into a chunk of its own (scripts/build.mjs).
 */
export function named<M extends object, K extends keyof M>(mod: M, name: K): M[K] {
  const direct = (mod as Record<K, M[K]>)[name];
  if (direct !== undefined) return direct;
  return ((mod as { default?: Record<K, M[K]> }).default ?? (mod as Record<K, M[K]>))[name];
}

/** Forgets the process's credential chain (tests that change the environment). */
export function forgetAwsCredentials(): void {
  chain = undefined;
}

/** The SDK's error name, never its message (which may quote a profile's values). */
function credentialFailure(error: unknown): string {
  const name = (error as { name?: unknown })?.name;
  return typeof name === "string" ? name : "error";
}
