import type { NodeView } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { formatClock, formatDuration } from '../../view-model/format.js';
import { lastSeenText } from '../../view-model/nodes/freshness.js';

/** When a node whose figures are old was last seen, with its age counting on; mounted only on old cards, so only those tick. */
export function LastSeen({ node, seenAt }: { node: NodeView; seenAt: number }) {
  const now = useNow();
  const never = node.statusBeforeWatch === true && (node.status === 'NO_CONTACT' || node.status === 'UNKNOWN');
  return (
    <div className="last-seen" data-testid="last-seen" data-seen-at={never ? undefined : seenAt}>
      {lastSeenText(seenAt, never, now, formatClock, formatDuration)}
    </div>
  );
}
