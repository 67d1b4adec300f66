/**
 * The one rule for text that came from outside (a management server, an SQL node, a recording, an HTTP client):
 * no output carries a character a terminal or a viewer acts on instead of showing. Those are the C0 controls (ESC
 * starts CSI/OSC sequences, BEL ends OSC 52 clipboard writes), DEL, the C1 controls (U+009B is a one-character
 * CSI), the Unicode line and paragraph separators (U+2028/9 end a line for JavaScript and some viewers) and the
 * bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069: a host name holding U+202E makes what
 * follows it on the line read backwards, so "node 3 OK" can be made of other characters than those shown). Text
 * outputs show each as `\xHH` (`\u2028`), so the name is still readable and the byte still identifiable; JSON
 * outputs escape them as `\uXXXX`, which every JSON reader decodes back to the same data. Lone surrogates need
 * nothing: JSON.stringify escapes them and a UTF-8 encoder writes U+FFFD.
 *
 * Every output applies it where it writes: the report (md, csv, json), the CLI's text and JSON, serve's JSON and
 * WebSocket frames, the Prometheus exposition, the page. The page loads this module too, hence its place here.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as CONTROL, with TAB and LF
const CONTROL_OR_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
// JSON.stringify already escapes C0 controls inside strings; raw LF there is its own indentation.
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const code = (c: string): number => c.charCodeAt(0);
const shown = (c: string, backslash = '\\'): string => (code(c) > 0xff ? `${backslash}u${code(c).toString(16).padStart(4, '0')}` : `${backslash}x${code(c).toString(16).padStart(2, '0')}`);
const jsonEscape = (c: string): string => `\\u${code(c).toString(16).padStart(4, '0')}`;

/**
 * Text for a person, lines and tabs kept (a message, an event's text, a whole document): see the rule above.
 * `backslash` is how the format the text goes into writes one (the Prometheus exposition doubles it in a label).
 */
export function visibleText(text: string, backslash = '\\'): string {
  return text.replace(CONTROL, (c) => shown(c, backslash));
}

/** One field on one line (a name, a table cell, a label value): LF and TAB shown too, so it cannot fake a line. */
export function visibleLine(text: string): string {
  return text.replace(CONTROL_OR_LAYOUT, (c) => shown(c));
}

/** JSON.stringify with DEL, C1, U+2028/9 and the bidi controls escaped too: the same data for any JSON reader, nothing raw for a terminal. */
export function escapedJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_RAW, jsonEscape);
}

const ANY_CONTROL = new RegExp(CONTROL_OR_LAYOUT.source);
const ANY_SHOWN = new RegExp(CONTROL.source);

/** Whether `text` holds a character the rule would show escaped: input that names something (a run) refuses it. */
export function hasControl(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/**
 * Every string in a message as visibleText has it, for the page: the one door where data enters it (api-client.ts)
 * applies the rule, so no panel can show a raw control character, or put one on the clipboard. What holds none
 * comes back as the same object, so nothing is copied or re-rendered for a clean message; a snapshot's walk costs
 * about what parsing it did.
 */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return (ANY_SHOWN.test(value) ? visibleText(value) : value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue;
      const shownItem = visibleStrings(item);
      if (shownItem === item) continue;
      out ??= value.slice();
      out[i] = shownItem;
    }
    return (out ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key in record) {
    const item = record[key];
    const shownItem = typeof item === 'string' || (typeof item === 'object' && item !== null) ? visibleStrings(item) : item;
    const shownKey = ANY_SHOWN.test(key) ? visibleText(key) : key;
    if (shownItem === item && shownKey === key) continue;
    const copy: Record<string, unknown> = (out ??= { ...record });
    if (shownKey !== key) delete copy[key];
    copy[shownKey] = shownItem;
  }
  return (out ?? value) as T;
}
