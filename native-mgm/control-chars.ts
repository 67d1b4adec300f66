/**
 * C0 controls (with TAB and LF), DEL and C1 controls: what a terminal acts on instead of printing (ESC starts
 * CSI/OSC sequences; U+009B is a one-character CSI in latin1 terminals). Text from a server is decoded as latin1,
 * so these are all the characters of it that are not plain text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `text` with every control character replaced by what `replace` makes of it. */
export function replaceControlChars(text: string, replace: (char: string) => string): string {
  return text.replace(CONTROL, replace);
}
