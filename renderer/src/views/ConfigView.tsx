import { useMemo, useState } from 'react';
import { useClusterConfig } from '../hooks/use-cluster-config.js';
import { changeLines, configSections, nodeConfigRows, type ConfigFilter, type ConfigRow } from '../view-model/config-table.js';
import { formatClock, formatNodeIds } from '../view-model/format.js';

function ValueCell({ row }: { row: ConfigRow }) {
  if (row.cells === null) return <td title={row.raw}>{row.text}</td>;
  return (
    <td className="config-varies">
      {row.cells.map((c) => (
        <span key={c.label} className={c.nonDefault ? 'config-nondefault' : undefined} title={c.label === 'each node' ? formatNodeIds(c.nodeIds) : undefined}>
          {c.label}: {c.text}
        </span>
      ))}
    </td>
  );
}

function ParamTable({ rows, testId }: { rows: readonly ConfigRow[]; testId: string }) {
  if (rows.length === 0) return <p className="muted">No parameter matches the filter.</p>;
  return (
    <table className="config-table" data-testid={testId} data-rows={rows.length}>
      <thead>
        <tr>
          <th>Parameter</th>
          <th>Value</th>
          <th>Default</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} data-param={r.name} data-nondefault={r.nonDefault} className={r.nonDefault ? 'config-nondefault' : undefined}>
            <th scope="row">
              {r.name}
              {r.nonDefault && <span className="config-mark" title="differs from the server's default"> ●</span>}
            </th>
            <ValueCell row={r} />
            <td className="muted">{r.defaultText ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The cluster's configuration as the management server hands it out: per node type (a value once when all nodes
 * agree) or per node, values that differ from the server's defaults marked, units formatted, a filter, and what
 * changed at the last new generation.
 */
export function ConfigView() {
  const config = useClusterConfig();
  const [filter, setFilter] = useState<ConfigFilter>({ text: '', onlyNonDefault: false });
  const [scope, setScope] = useState<'types' | number>('types');
  const sections = useMemo(() => (config ? configSections(config, filter) : []), [config, filter]);
  const nodeRows = useMemo(() => (config && scope !== 'types' ? nodeConfigRows(config, scope, filter) : []), [config, scope, filter]);
  const changes = useMemo(() => (config ? changeLines(config) : null), [config]);
  if (!config) return <div className="view config-view muted" data-testid="config-view">The configuration has not been read yet.</div>;
  return (
    <div className="view config-view" data-testid="config-view" data-generation={config.generation}>
      <p className="config-summary">
        Cluster <strong>{config.name}</strong>, configuration generation <strong>{config.generation}</strong>
        {config.primaryMgmd ? `, primary management server ${config.primaryMgmd}` : ''}; {config.nodes.length} nodes; read at{' '}
        {formatClock(config.receivedAt)}.
      </p>
      {changes && (
        <section className="config-changes" data-testid="config-changes">
          <h2>{changes.title}</h2>
          <ul>
            {changes.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </section>
      )}
      <div className="config-controls">
        <input
          type="search"
          data-testid="config-filter"
          placeholder="Filter parameters or values"
          aria-label="filter parameters"
          value={filter.text}
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
        />
        <label>
          <input type="checkbox" checked={filter.onlyNonDefault} onChange={(e) => setFilter({ ...filter, onlyNonDefault: e.target.checked })} /> only values that differ from the
          default
        </label>
        <label>
          Show{' '}
          <select data-testid="config-scope" value={String(scope)} onChange={(e) => setScope(e.target.value === 'types' ? 'types' : Number(e.target.value))}>
            <option value="types">every node type</option>
            {config.nodes.map((n) => (
              <option key={n.nodeId} value={n.nodeId}>
                node {n.nodeId} ({n.type})
              </option>
            ))}
          </select>
        </label>
      </div>
      {scope === 'types' ? (
        sections.map((s) => (
          <section key={s.type} className="config-section">
            <h2>
              {s.title}: {formatNodeIds(s.nodeIds)}
            </h2>
            <ParamTable rows={s.rows} testId={`config-section-${s.type}`} />
          </section>
        ))
      ) : (
        <section className="config-section">
          <h2>Node {scope}</h2>
          <ParamTable rows={nodeRows} testId="config-node" />
        </section>
      )}
    </div>
  );
}
