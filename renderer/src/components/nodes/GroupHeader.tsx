import type { GridSection } from '../../view-model/nodes/grid-layout.js';
import { formatNodeIds } from '../../view-model/format.js';
import { HEALTH_TONE } from '../../view-model/nodes/status.js';
import { useFiguresAsOf } from '../../hooks/use-figures-as-of.js';
import { useApp } from '../../store/use-app.js';

function NodeGroupHeader({ nodeGroup, size, compact }: { nodeGroup: number; size: number; compact: boolean }) {
  // Primitives, so the header re-renders only when this group's health or live count changes.
  const health = useApp((s) => s.shown.nodeGroups.find((g) => g.nodeGroup === nodeGroup)?.health ?? null);
  const live = useApp((s) => s.shown.nodeGroups.find((g) => g.nodeGroup === nodeGroup)?.live ?? null);
  const old = useFiguresAsOf() !== null;
  return (
    <h3 className={`group-head${old ? ' old' : ''}`} data-testid={`nodegroup-${nodeGroup}`} data-health={health ?? 'UNKNOWN'} title={`node group ${nodeGroup}${live !== null ? `: ${live} of ${size} ${old ? 'were live' : 'live'}` : ''}`}>
      {compact ? `NG ${nodeGroup}` : `Node group ${nodeGroup}`}
      {/* Old figures say what was last known, in the past tense: greyed alone, "OK · 2 of 2 live" still claimed it. */}
      {health && <span className={`badge tone-${HEALTH_TONE[health]}`}>{old ? `was ${health}` : health}</span>}
      {/* Compact: "2/2", no room for the words; the header's title says them. */}
      {live !== null && <span className="muted">{compact ? `${live}/${size}` : `${live} of ${size} ${old ? 'were live' : 'live'}`}</span>}
    </h3>
  );
}

export function GroupHeader({ section, compact = false }: { section: GridSection; compact?: boolean }) {
  switch (section.kind) {
    case 'nodegroup':
      return <NodeGroupHeader nodeGroup={section.nodeGroup} size={section.nodeIds.length} compact={compact} />;
    case 'ungrouped':
      return <h3 className="group-head">Data nodes without a node group</h3>;
    case 'mgm':
      // Packed beside the node groups a single management node's block is one tile wide: a word that fits there.
      return (
        <h3 className="group-head" title="Management nodes">
          {compact ? 'MGM' : 'Management nodes'}
        </h3>
      );
    case 'api':
      return (
        <h3 className="group-head">
          API / SQL nodes <span className="muted">{section.nodeIds.length} connected</span>
          {section.freeSlots.length > 0 && (
            <span className="muted" data-testid="free-api-slots" title={`free slots: ${formatNodeIds(section.freeSlots)}`}>
              + {section.freeSlots.length} free slot{section.freeSlots.length === 1 ? '' : 's'}
            </span>
          )}
        </h3>
      );
  }
}
