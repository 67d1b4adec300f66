import { memo } from 'react';
import type { NodeView } from '../../contract.js';
import { useFiguresAsOf, useFiguresOldWhy } from '../../hooks/use-figures-as-of.js';
import { useApp } from '../../store/use-app.js';
import { STATUS_TONE } from '../../view-model/nodes/status.js';
import { hottestText } from '../../view-model/inside/threads.js';
import { IncidentBadge } from '../incidents/IncidentBadge.js';
import { GRID_KEYS_HINT } from './grid-focus.js';
import { LastSeen } from './LastSeen.js';
import { MemoryBar } from './MemoryBar.js';
import { NodeActions } from './NodeActions.js';
import { NodeSparkline } from './NodeSparkline.js';
import { StartProgress } from './StartProgress.js';
import { StatusWord } from './StatusWord.js';

const TYPE_LABEL = { NDB: 'data', MGM: 'mgm', API: 'api' } as const;

function isStarting(node: NodeView): boolean {
  return node.status === 'STARTING' || node.status === 'RESTARTING' || (node.status === 'NOT_STARTED' && node.restart !== null);
}

function SafeToStop({ safe }: { safe: boolean | null }) {
  // No verdict (the node or the management server out of reach, or the figures old) is said, not left out.
  if (safe === null) {
    return (
      <span className="safe muted" data-testid="safe-to-stop" data-safe="unknown" title="No current status of this node group: whether a stop is safe is unknown">
        safe to stop: unknown
      </span>
    );
  }
  return (
    <span className={`safe tone-${safe ? 'ok' : 'bad'}`} title="Every other member of this node group is STARTED">
      {safe ? 'safe to stop' : 'NOT safe to stop'}
    </span>
  );
}

/**
 * One node. Memoised on its id and selecting only its own node object, so a delta for another node costs nothing.
 * In the grid, `tabbable` says whether it is the grid's one tab stop (it and its buttons); in the side panel it is
 * not part of the grid's roving focus.
 */
export const NodeCard = memo(function NodeCard({ nodeId, detail = false, tabbable = true }: { nodeId: number; detail?: boolean; tabbable?: boolean }) {
  const node = useApp((s) => s.shown.nodes.get(nodeId));
  const actions = useApp((s) => s.appInfo?.actionsEnabled === true);
  const asOf = useFiguresAsOf();
  const oldWhy = useFiguresOldWhy();
  const hot = useApp((s) => hottestText(s.shown.ndbinfoNodes.get(nodeId)));
  if (!node) return null;
  const tone = STATUS_TONE[node.status];
  // Old: the node out of contact, or everything on the page (serve or the management server lost).
  const seenAt = node.lastSeenAt ?? asOf;
  const stale = seenAt !== null;
  return (
    <article
      className={`card tone-border-${tone} card-${node.type.toLowerCase()}${stale ? ' card-old' : ''}`}
      data-old={stale}
      // In the side panel the card is a second view of a node whose tile already carries the node's hook.
      data-testid={detail ? 'node-detail' : `node-${node.nodeId}`}
      data-status={node.status}
      data-start-phase={node.startPhase}
      aria-label={`node ${node.nodeId} ${node.status}`}
      {...(detail ? {} : { 'data-node-item': node.nodeId, 'aria-describedby': GRID_KEYS_HINT, tabIndex: tabbable ? 0 : -1 })}
    >
      <header className="card-head">
        <span className="node-id">{node.nodeId}</span>
        <span className="node-type">{TYPE_LABEL[node.type]}</span>
        {node.isMaster && <span className="chip">master</span>}
        {node.type === 'NDB' && <SafeToStop safe={stale ? null : node.safeToStop} />}
        {node.type === 'NDB' && <IncidentBadge nodeId={node.nodeId} />}
      </header>
      <StatusWord status={node.status} big />
      {seenAt !== null && <LastSeen node={node} seenAt={seenAt} />}
      {isStarting(node) && <StartProgress node={node} />}
      <dl className="facts">
        <dt>version</dt>
        <dd>{node.mysqlVersion && node.mysqlVersion !== node.version ? `${node.version ?? '?'} / mysql ${node.mysqlVersion}` : (node.version ?? '–')}</dd>
        <dt>address</dt>
        {/* A node that is down has no address in get status; the configuration still says where it runs. */}
        <dd data-testid={`node-${node.nodeId}-address`}>{node.address ?? (node.configured?.hostname ? `${node.configured.hostname} (configured)` : '–')}</dd>
        {/* Only nodes that report it have a connect count (API nodes never do): no row that stays "–". */}
        {node.connectCount != null && (
          <>
            <dt>connects</dt>
            <dd>{node.connectCount}</dd>
          </>
        )}
        {/* Only with an SQL source (ndbinfo): without one the card is as it was. */}
        {hot && (
          <>
            <dt>hottest thread</dt>
            <dd data-testid="hottest-thread">{hot}</dd>
          </>
        )}
      </dl>
      {node.type === 'NDB' && (
        // A node out of contact keeps its last figures, greyed and dated, never as if they were current.
        <div className={`node-metrics${stale ? ' stale' : ''}`} data-testid="node-metrics" data-stale={stale}>
          {/* While starting, the progress takes the sparkline's place: a starting node carries no load. */}
          {!isStarting(node) && <NodeSparkline nodeId={node.nodeId} stale={stale} />}
          <MemoryBar label="data" use={node.memory.data} configuredBytes={node.configured?.dataMemoryBytes} />
          <MemoryBar label="index" use={node.memory.index} configuredBytes={node.configured?.indexMemoryBytes} />
        </div>
      )}
      {actions && node.type === 'NDB' && <NodeActions node={node} tabbable={tabbable} disabledWhy={stale ? (oldWhy ?? `node ${node.nodeId} is out of contact`) : null} />}
    </article>
  );
});
