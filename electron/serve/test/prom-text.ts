/** A strict reader of the Prometheus text exposition format (0.0.4), enough to prove /metrics is well-formed. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)",?/gy;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL.exec(text); m; m = LABEL.exec(text)) {
    labels[m[1] as string] = (m[2] as string).replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    consumed = LABEL.lastIndex;
  }
  if (consumed !== text.length) throw new Error(`bad labels in: ${line}`);
  return labels;
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads values with Go's ParseFloat, which takes NaN in any case; prom-client writes `Nan`.
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`bad value in: ${line}`);
  return value;
}

export function parsePrometheusText(body: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of body.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
      if (!meta) throw new Error(`bad comment line: ${line}`);
      if (meta[1] === 'TYPE') types.set(meta[2] as string, meta[3] as string);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    samples.push({ name: m[1] as string, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3] as string, line) });
  }
  return { samples, types };
}
