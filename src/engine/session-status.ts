// What `Session.status()` answers: the session's id, model (without secrets), mode, newest turn,
// and its language servers' states (R-LSP-4).
import type { SessionCore } from "./core.js";
import type { SessionStatus } from "./door/commands.js";
import { withoutSecrets } from "./public-model.js";

export function sessionStatus(core: SessionCore): SessionStatus {
  return {
    id: core.id,
    model: withoutSecrets(core.model),
    mode: core.policy.getMode(),
    lastTurn: core.fold.lastTurn,
    languageServers: core.languageServers?.status() ?? [],
  };
}
