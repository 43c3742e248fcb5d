// Appends N lines through RecordWriter, then SIGKILLs itself: nothing appended may be lost.
import { RecordWriter } from "../../../src/record/writer.js";

const [file, n] = process.argv.slice(2);
const writer = RecordWriter.open(file, { syncAtTurnEnd: false });
for (let i = 0; i < Number(n); i++) writer.append({ type: "notice", turn: 0, text: `line ${i}` });
process.kill(process.pid, "SIGKILL");
