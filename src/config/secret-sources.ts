// Where configured credentials hide besides the environment (R-CFG-3, §10): a URL's password or
// credential-named query values, and a tool set's `env` and `headers` values.

/**
 * A tool set's `env` and `headers` values (§10: redacted by value like keys), as written and as
 * tern expands `${VAR}` in them. Env values that are paths (`/…`, `./…`, `~/…`) are settings, not
 * tokens, and are left readable.
 */
export function toolSetSecrets(
  set: { env?: Record<string, string>; headers?: Record<string, string> },
  env: NodeJS.ProcessEnv,
) {
  const expand = (v: string) =>
    v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
  const envValues = Object.values(set.env ?? {}).filter((v) => !/^(\/|\.\.?\/|~\/)/.test(expand(v)));
  const headerValues = Object.values(set.headers ?? {}).map((v) =>
    v.replace(/^(Bearer|Basic|Token)\s+/i, ""),
  );
  return [...envValues, ...headerValues].flatMap((v) => [v, expand(v)].filter((x) => !x.includes("${")));
}

/** The password of `user:password@` and query values named like credentials (`?api_key=…`). */
export function urlCredentials(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const u = new URL(url);
    const out = u.password ? [decodeURIComponent(u.password)] : [];
    for (const [name, value] of u.searchParams)
      if (/key|token|secret|sig|pass|auth/i.test(name)) out.push(value);
    return out;
  } catch {
    return [];
  }
}
