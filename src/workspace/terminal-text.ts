// §10: text from outside (tool output, model text echoing it) must not drive the user's terminal:
// escape and control sequences (cursor moves, title sets, OSC 52 clipboard writes, hyperlinks)
// are removed before a front end prints it. Newlines and tabs stay.

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), DCS/SOS/PM/APC strings, 8-bit CSI/OSC, other ESC pairs.
const SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]|\u001b./g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControlSequences(text: string): string {
  return text.replace(SEQUENCES, "").replace(CONTROLS, "");
}
