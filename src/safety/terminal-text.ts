// What may reach a terminal. Text from a gateway or from input can carry escape sequences that set
// the window title, clear the screen, move the cursor, write the clipboard (OSC 52) or fake a
// hyperlink; on a terminal every control character is removed before it is written (contract,
// "Output rules"). Newlines and tabs stay; colour (SGR, `ESC [ ... m`) stays only where pgw colours
// the stream itself, since it is pgw's own colouring that puts it there.

/** ESC-introduced sequences: CSI (`ESC [` ... final byte), OSC/DCS/PM/APC/SOS strings up to BEL or ST, and two-byte escapes. */
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])?/g;
/** The same sequences introduced by their 8-bit C1 forms (CSI U+009B, OSC U+009D ...). */
const C1_SEQUENCE = /\u009b[0-?]*[ -/]*[@-~]|[\u0090\u0098\u009d\u009e\u009f][^\u0007\u001b\u009c]*(?:\u0007|\u009c)?/g;
/** Every other C0 control but tab and newline, DEL, and the remaining C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const SGR = /^\u001b\[[0-9;]*m$/;

/** The text as it may be written to a terminal; `keepColor` keeps SGR colour sequences. */
export function terminalSafe(text: string, keepColor: boolean): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, (seq) => (keepColor && SGR.test(seq) ? seq : ''))
    .replace(C1_SEQUENCE, '')
    .replace(CONTROL, (c) => (c === '\u001b' ? '\u001b' : ''))
    .replace(/\u001b(?!\[[0-9;]*m)/g, '');
}

/** Gateway or input text on one line of a message: every control character dropped, colour too. */
export function plainText(text: string): string {
  return terminalSafe(text, false);
}
