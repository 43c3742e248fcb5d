// Inserts turns into the shared ledger from its own process (concurrency test).
import { openLedger } from "../../../src/record/ledger.js";

const [home, session, n] = process.argv.slice(2);
const ledger = openLedger(home);
for (let turn = 1; turn <= Number(n); turn++) {
  ledger.put({
    kind: "turn",
    session,
    cwd: "/ws",
    turn,
    seq: 0,
    model: "openai/m",
    started: new Date(Date.UTC(2026, 0, 1, 0, 0, turn)).toISOString(),
    durationMs: 10,
    stopReason: "completed",
    rounds: 1,
    modelCalls: 1,
    toolCalls: 0,
    toolErrors: 0,
    prompt: 100,
    completion: 5,
    cacheRead: 40,
    cacheWrite: 0,
    billedInput: 60,
    cost: 0.001,
  });
}
ledger.close();
