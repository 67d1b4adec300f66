import { useMemo } from 'react';
import { TransportMatrix } from '../components/io/TransportMatrix.js';
import { ReleaseNotes } from '../components/inside/ReleaseNotes.js';
import { FILL_SOON_SEC, fullInWords, linksSummary, type FillTrend, type NdbinfoLogFill, type NdbinfoNode, type NdbinfoView } from '../contract.js';
import { useLinks } from '../hooks/use-links.js';
import { useApp } from '../store/use-app.js';
import { formatClock } from '../view-model/format.js';
import { apiShares, FILL_MARKS, fillTone, formatBytesPerSec, ioNodes, nodeTypes, nodeTypesKey, partLabel, redoWritten, transportMatrix } from '../view-model/inside/io-figures.js';

const pct = (v: number | null | undefined, digits = 0): string => (v === null || v === undefined ? '–' : `${v.toFixed(digits)} %`);

/** The engine's trend of a fill: "full in ~7 min at this rate" (amber within 10 min), "not filling", "—" before a rate. */
function TrendNote({ trend, testId }: { trend: FillTrend | null | undefined; testId: string }) {
  const soon = trend?.fullInSec !== null && trend?.fullInSec !== undefined && trend.fullInSec <= FILL_SOON_SEC;
  return (
    <span className={`io-trend ${soon ? 'tone-warn' : 'muted'}`} data-testid={testId}>
      {fullInWords(trend) ?? '—'}
    </span>
  );
}

/** A log's fill as a bar with the 80 and 90 % marks, the percent, its fullest part and where it is going. */
function FillBar({ fill, testId }: { fill: NdbinfoLogFill | null; testId: string }) {
  if (!fill) return <td className="muted">none</td>;
  const tone = fillTone(fill);
  return (
    <td data-testid={testId} data-percent={fill.percent ?? ''} className="io-fill-cell">
      <span className="io-fill" title={partLabel(fill)}>
        <span className={`io-fill-used io-${tone}`} style={{ width: `${Math.min(100, fill.percent ?? 0)}%` }} />
        <span className="io-mark" style={{ left: `${FILL_MARKS.warn}%` }} />
        <span className="io-mark io-mark-bad" style={{ left: `${FILL_MARKS.bad}%` }} />
      </span>
      <span className={`tone-${tone}`}>{pct(fill.percent, 1)}</span>
      <TrendNote trend={fill.trend} testId={`${testId}-trend`} />
    </td>
  );
}

function LogRow({ n }: { n: NdbinfoNode }) {
  const w = n.diskWrite;
  const hit = n.diskPageBuffer?.hitRatio;
  return (
    <tr data-testid="io-log-row" data-node={n.nodeId} className={n.stale ? 'io-stale' : undefined}>
      <th>
        node {n.nodeId}
        {n.stale && <span className="muted"> (stale)</span>}
      </th>
      <FillBar fill={n.redo} testId="io-redo" />
      <FillBar fill={n.undo ?? null} testId="io-undo" />
      <td data-testid="io-redo-speed">
        {w ? (
          <>
            {redoWritten(w)} <span className="muted">of {formatBytesPerSec(w.targetBytesPerSec)} target</span>
          </>
        ) : (
          '–'
        )}
      </td>
      <td className={w?.ioLagPerSec ? 'tone-warn' : undefined} data-testid="io-lag">
        {w?.ioLagPerSec === null || w?.ioLagPerSec === undefined ? '–' : `${w.ioLagPerSec.toFixed(1)}/s`}
        {w && <span className="muted"> ({w.slowdownsIoLag} since start)</span>}
      </td>
      <td className={hit !== null && hit !== undefined && hit < 0.9 ? 'tone-warn' : undefined} data-testid="io-dpb">
        {hit === null || hit === undefined ? '–' : pct(hit * 100, 1)}
      </td>
      <td data-testid="io-send-buffer">
        {n.sendBuffer ? pct(n.sendBuffer.percent, 0) : '–'}
        {n.sendBuffer && <TrendNote trend={n.sendBuffer.trend} testId="io-send-buffer-trend" />}
      </td>
    </tr>
  );
}

function Logs({ nodes }: { nodes: NdbinfoNode[] }) {
  return (
    <section data-testid="io-logs">
      <h3>Redo, undo and disk</h3>
      <table className="runs-table io-table">
        <thead>
          <tr>
            <th>data node</th>
            <th title="the fullest log part; marks at 80 and 90 %">redo log</th>
            <th title="the fullest log part; marks at 80 and 90 %">undo log</th>
            <th>redo written</th>
            <th>slowdowns (I/O lag)</th>
            <th title="page requests served without waiting for I/O">disk page buffer hits</th>
            <th title="send buffers in use of what the transporters allocated">send buffers</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <LogRow key={n.nodeId} n={n} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Transport({ view }: { view: NdbinfoView }) {
  const key = useApp((s) => nodeTypesKey(s.shown.nodes));
  const types = useMemo(() => nodeTypes(key), [key]);
  const links = useLinks(true);
  const m = useMemo(() => transportMatrix(links?.links ?? [], types), [links, types]);
  const shares = useMemo(() => apiShares(links?.links ?? [], types), [links, types]);
  // The line counts the reading the matrix shows: the snapshot's summary may already describe the next one.
  const summary = links ? linksSummary(links) : view.links;
  const over = summary?.overloaded ?? 0;
  const slow = summary?.slowdown ?? 0;
  return (
    <>
      <section data-testid="io-transport">
        <h3>
          Transport <span className="muted">· bytes/s each data node sends (rows) to each node (columns){links && ` · read ${formatClock(links.at)}`}</span>
        </h3>
        <p data-testid="io-link-state" className={over > 0 ? 'tone-bad' : slow > 0 ? 'tone-warn' : 'muted'}>
          {over === 0 && slow === 0 ? 'No transporter overloaded or slowed down.' : `${over} link${over === 1 ? '' : 's'} overloaded, ${slow} slowed down (red: overloaded, amber: slowed down).`}
        </p>
        <TransportMatrix m={m} />
      </section>
      <section data-testid="io-api-share">
        <h3>API nodes&apos; share of the traffic</h3>
        {shares.length === 0 && <p className="muted">No API node exchanges data with the data nodes.</p>}
        <ul className="io-shares">
          {shares.map((s) => (
            <li key={s.nodeId} data-testid="io-api" data-node={s.nodeId} data-behind={s.behind}>
              <span className="io-share-label">node {s.nodeId}</span>
              <span className="io-fill">
                <span className={`io-fill-used io-${s.behind ? 'warn' : 'ok'}`} style={{ width: `${(s.share * 100).toFixed(1)}%` }} />
              </span>
              {pct(s.share * 100, 0)} · {formatBytesPerSec(s.bytesPerSec)}
              {s.behind && <strong className="tone-warn"> behind the others: this SQL/API node may hold the benchmark back</strong>}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** Redo, undo and disk per data node, and the transport between nodes, from the SQL source (ndbinfo). */
export function IoView() {
  const view = useApp((s) => s.shown.ndbinfo);
  const figures = useApp((s) => s.shown.ndbinfoNodes);
  if (!view) {
    return (
      <p className="muted io-hint" data-testid="io-hint">
        No SQL source: redo, undo, disk and transport figures come from an SQL node&apos;s ndbinfo. Start ndbtop with --sql mysql://USER@HOST (a read-only user on ndbinfo).
      </p>
    );
  }
  const nodes = ioNodes(figures);
  return (
    <div className="io-view" data-testid="io-view">
      {view.source.status !== 'up' && (
        <p className="tone-warn" data-testid="io-source">
          SQL source {view.source.status}
          {view.source.lastError ? `: ${view.source.lastError}` : ''} — the figures below are the last seen.
        </p>
      )}
      <ReleaseNotes keys={['send-buffers']} />
      <Logs nodes={nodes} />
      <Transport view={view} />
    </div>
  );
}
