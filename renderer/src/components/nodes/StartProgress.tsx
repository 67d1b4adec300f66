import type { NodeView } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { formatDuration } from '../../view-model/format.js';
import { restartProgress } from '../../view-model/restarts/restart-progress.js';
import { restartSourceText, restartStateText } from '../../view-model/restarts/restart-state-text.js';

/** Phase n of the phases, elapsed, and the estimate; only mounted while a node starts, so only those tick. */
export function StartProgress({ node }: { node: NodeView }) {
  const now = useNow();
  if (!node.restart) return <div className="start-progress muted">{restartStateText(node)} · phase {node.startPhase}</div>;
  const p = restartProgress(node.restart, node.startPhase, now, formatDuration);
  const estimate = p.estimatedMsLeft === null ? 'no estimate yet' : `about ${formatDuration(p.estimatedMsLeft)} left`;
  return (
    <div className="start-progress">
      <div className="progress" role="progressbar" aria-valuenow={p.step} aria-valuemin={0} aria-valuemax={p.steps} aria-label="start phase">
        <span className="progress-fill" style={{ width: `${p.fraction * 100}%` }} />
      </div>
      <div className="progress-text">
        <strong data-testid={`start-state-${node.nodeId}`} title={node.restartState ? restartSourceText(node.restartState) : undefined}>
          {restartStateText(node)}
        </strong>{' '}
        · {p.label} · {p.elapsedText} · {estimate}
      </div>
    </div>
  );
}
