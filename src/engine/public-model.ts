// The model as the door's queries show it (`Session.status`): no key or token value leaves.
import { REDACTED, redactDeep } from "../config/secrets.js";
import type { ResolvedModel } from "../config/types.js";

/**
 * The model as a query shows it (SPEC §10: no library query returns a key or token value): the
 * API key left out, header values (an `Authorization` token) blanked, anything else a key's value
 * spelled redacted. The session keeps the real one for its requests.
 */
export function withoutSecrets(model: ResolvedModel): ResolvedModel {
  const { apiKey: _key, headers, ...endpoint } = model.endpoint;
  const blanked = Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
  return redactDeep({ ...model, endpoint: { ...endpoint, headers: blanked } });
}
