import { memo } from 'react';
import type { Severity } from '../../contract.js';
import type { EventFold } from '../../view-model/events/event-fold.js';
import { formatClock, formatNodeIds } from '../../view-model/format.js';

const SEVERITY_TONE: Record<Severity, string> = { DEBUG: 'idle', INFO: 'idle', WARNING: 'warn', ERROR: 'bad', CRITICAL: 'bad', ALERT: 'bad' };

/** The expanded row: the whole sentence (the line may ellipsise it), and for a run who reported it and when. */
function RowDetail({ fold }: { fold: EventFold }) {
  return (
    <div className="ev-fold-detail" data-testid="event-fold-detail">
      <div className="ev-full" data-testid="event-full-text">
        {fold.event.text}
      </div>
      <div className="muted">
        {fold.event.name} {fold.event.category ? `(${fold.event.category}) ` : ''}reported by {formatNodeIds(fold.sources)}
      </div>
      {fold.events.length > 1 && (
        <ul className="plain">
          {fold.events.map((e) => (
            <li key={e.seq}>
              <span className="ev-time">{formatClock(e.at)}</span> {e.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * One row of the log in fixed-width columns that never wrap (node ids up to 255, CRITICAL); the text ellipsises
 * with the whole sentence on hover and in the expanded row. A folded run shows its newest event and its count.
 */
export const EventRow = memo(function EventRow({ fold, expanded, onToggle }: { fold: EventFold; expanded: boolean; onToggle: (key: number) => void }) {
  const { event } = fold;
  const count = fold.events.length;
  const node = event.subjectNodeId ?? event.sourceNodeId;
  const many = fold.nodes.length > 1;
  const who = event.sourceNodeId === 0 && event.subjectNodeId === null ? 'ndbtop' : many ? `${fold.nodes.length} nodes` : `node ${node}`;
  // A run from many nodes says what it is and from whom; the newest event's own sentence follows.
  const text = many ? `${event.name} from ${formatNodeIds(fold.nodes)}; newest: ${event.text}` : event.text;
  return (
    <div
      className="event-row"
      data-testid="event-row"
      data-seq={event.seq}
      data-count={count}
      data-severity={event.severity ?? ''}
      data-category={event.category ?? ''}
      data-source={event.sourceNodeId}
      data-subject={event.subjectNodeId ?? ''}
      data-nodes={fold.nodes.length}
    >
      <div className="ev-line" onClick={() => onToggle(fold.key)}>
        <span className="ev-time">{formatClock(event.at)}</span>
        <span className={`ev-sev tone-${event.severity ? SEVERITY_TONE[event.severity] : 'idle'}`}>{event.severity ?? '—'}</span>
        {/* Source 0 is no node: an entry of ndbtop's own (connected, first status, lost the stream). */}
        <span className="ev-node" title={who}>
          {who}
        </span>
        {count > 1 ? (
          <button type="button" className="ev-count" aria-expanded={expanded} title={`${count} ${event.name} events about ${many ? formatNodeIds(fold.nodes) : `node ${node}`}`}>
            ×{count}
          </button>
        ) : (
          <span />
        )}
        <span className="ev-text" data-testid="event-text" title={text}>
          {text}
        </span>
      </div>
      {expanded && <RowDetail fold={fold} />}
    </div>
  );
});
