import { memo } from 'react';
import type { MemoryUse } from '../../contract.js';
import { useFiguresAsOf } from '../../hooks/use-figures-as-of.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { START_STEPS, phaseStep } from '../../view-model/restarts/restart-progress.js';
import { restartStateText } from '../../view-model/restarts/restart-state-text.js';
import { formatClock } from '../../view-model/format.js';
import { STATUS_TONE } from '../../view-model/nodes/status.js';
import { memoryOutdated, tilePhase, tileStatus } from '../../view-model/nodes/tile-status.js';
import { hottestText } from '../../view-model/inside/threads.js';
import { GRID_KEYS_HINT } from './grid-focus.js';
import { memoryTone } from './MemoryBar.js';

function ThinMemory({ use }: { use: MemoryUse | null }) {
  if (!use) return <span className="thin-bar" title="data memory: no report yet" />;
  const pct = Math.min(100, use.percent);
  const tone = memoryTone(pct);
  return (
    <span className="thin-bar" role="meter" aria-label="data memory" aria-valuenow={Math.round(pct)} aria-valuemin={0} aria-valuemax={100} title={`data memory ${pct.toFixed(0)} %`}>
      <span className={`thin-fill tone-bg-${tone}`} style={{ width: `${pct}%` }} />
    </span>
  );
}

/**
 * The compact density's node: id, status word, start-phase bar, data memory, master marker; the same test hooks as
 * the card. A click opens the full card with its actions in the side panel.
 */
export const NodeTile = memo(function NodeTile({ nodeId, tabbable }: { nodeId: number; tabbable: boolean }) {
  const { store } = useAppContext();
  const node = useApp((s) => s.shown.nodes.get(nodeId));
  const selected = useApp((s) => s.ui.selectedNodeId === nodeId);
  const asOf = useFiguresAsOf();
  const hot = useApp((s) => hottestText(s.shown.ndbinfoNodes.get(nodeId)));
  if (!node) return null;
  const tone = STATUS_TONE[node.status];
  const starting = node.status === 'STARTING';
  const phase = tilePhase(node);
  const seenAt = node.lastSeenAt ?? asOf;
  const outdated = memoryOutdated(node) || seenAt !== null;
  const never = node.statusBeforeWatch === true && (node.status === 'NO_CONTACT' || node.status === 'UNKNOWN');
  return (
    <button
      type="button"
      className={`tile tone-border-${tone}${selected ? ' selected' : ''}${seenAt !== null ? ' tile-old' : ''}`}
      data-old={seenAt !== null}
      aria-expanded={selected}
      data-node-item={node.nodeId}
      aria-describedby={GRID_KEYS_HINT}
      tabIndex={tabbable ? 0 : -1}
      data-testid={`node-${node.nodeId}`}
      data-status={node.status}
      data-start-phase={node.startPhase}
      aria-label={`node ${node.nodeId} ${node.status}${node.isMaster ? ' master' : ''}${hot ? `, hottest thread ${hot}` : ''}: details`}
      title={`node ${node.nodeId} ${node.type} ${node.status}${starting ? `: ${restartStateText(node)} (start phase ${node.startPhase} done)` : ''}${hot ? `, hottest thread ${hot}` : ''}${node.address ? ` at ${node.address}` : ''}${seenAt === null ? '' : never ? ', not seen since ndbtop started' : `, last seen ${formatClock(seenAt)}`}`}
      onClick={() => store.setUi({ selectedNodeId: node.nodeId })}
    >
      <span className="tile-head">
        <span className="tile-id">{node.nodeId}</span>
        {node.isMaster && (
          <span className="tile-master" title="master">
            M
          </span>
        )}
        {phase && <span className="tile-phase tone-busy">{phase}</span>}
        {!phase && node.type === 'NDB' && node.memory.data && (
          // A node out of contact, or left out of the last memory report, keeps its last number, greyed like its bars.
          <span className={`tile-mem ${outdated ? 'muted' : `tone-${memoryTone(node.memory.data.percent)}`}`} title={seenAt !== null ? 'data memory when last seen' : outdated ? 'data memory: not in the last memory report' : 'data memory used'}>
            {Math.min(100, node.memory.data.percent).toFixed(0)}%
          </span>
        )}
      </span>
      <span className={`tile-status tone-${tone}`}>{tileStatus(node.status)}</span>
      {/* Only with an SQL source; the dense tile has no line to spare and says it in its title. */}
      {hot && (
        <span className="tile-hot" data-testid="hottest-thread">
          {hot}
        </span>
      )}
      {node.type === 'NDB' && (
        <span className={`tile-bars${outdated ? ' stale' : ''}`} data-stale={outdated}>
          {starting && (
            <span className="thin-bar">
              <span className="thin-fill tone-bg-busy" style={{ width: `${(phaseStep(node.startPhase) / START_STEPS) * 100}%` }} />
            </span>
          )}
          <ThinMemory use={node.memory.data} />
        </span>
      )}
    </button>
  );
});
