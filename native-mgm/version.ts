const decoded = new Map<number, string>();
let lastRaw = 0;
let lastText: string | null = null;

/**
 * NDB packs versions as (major << 16) | (minor << 8) | build (spec §5.5); 0 means unknown or not connected.
 * Memoised: a cluster runs a handful of versions, and every poll decodes two per node.
 */
export function decodeVersion(raw: number): string | null {
  if (raw === 0) return null;
  // Nodes of one cluster mostly run one version: the last answer is the likely one, without a Map lookup.
  if (raw === lastRaw) return lastText;
  const v = raw >>> 0;
  let text = decoded.get(v);
  if (text === undefined) {
    text = `${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
    if (decoded.size < 1024) decoded.set(v, text);
  }
  lastRaw = raw;
  lastText = text;
  return text;
}

export function encodeVersion(major: number, minor: number, build: number): number {
  return ((major & 0xff) << 16) | ((minor & 0xff) << 8) | (build & 0xff);
}

/** Parses "8.4.3" into its packed number; throws on anything else so a typo in a sim flag is caught early. */
export function parseVersionText(text: string): number {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) throw new Error(`not a version: ${JSON.stringify(text)} (expected major.minor.build, e.g. 8.4.3)`);
  return encodeVersion(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * The MySQL release a simulated node of NDB release `ndb` (packed) is built on: the same number from 8.0 on, 5.7
 * before (spec §4.1: "ndb-7.6.x with mysql-5.7.x"). The spec gives no MySQL build for an NDB build, so the
 * simulator keeps NDB's build number: a choice of its own, not a fact of either product.
 */
export function mysqlVersionOf(ndb: number): number {
  // 0 is "unknown or not connected" in either field (spec §5.5).
  return ndb === 0 || ((ndb >>> 16) & 0xff) >= 8 ? ndb : encodeVersion(5, 7, ndb & 0xff);
}
