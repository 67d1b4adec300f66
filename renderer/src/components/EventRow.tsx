import { memo } from 'react';
import type { Severity } from '../contract.js';
import type { EventFold } from '../view-model/event-fold.js';
import { formatClock } from '../view-model/format.js';

const SEVERITY_TONE: Record<Severity, string> = { DEBUG: 'idle', INFO: 'idle', WARNING: 'warn', ERROR: 'bad', CRITICAL: 'bad', ALERT: 'bad' };

function FoldDetail({ fold }: { fold: EventFold }) {
  return (
    <div className="ev-fold-detail" data-testid="event-fold-detail">
      <div className="muted">
        reported by node{fold.sources.length === 1 ? '' : 's'} {fold.sources.join(', ')}
      </div>
      <ul className="plain">
        {fold.events.map((e) => (
          <li key={e.seq}>
            <span className="ev-time">{formatClock(e.at)}</span> {e.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One row of the log; a folded run shows its newest event, its count, and on demand who reported it and when. */
export const EventRow = memo(function EventRow({ fold, expanded, onToggle }: { fold: EventFold; expanded: boolean; onToggle: (key: number) => void }) {
  const { event } = fold;
  const count = fold.events.length;
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
    >
      <div className="ev-line">
        <span className="ev-time">{formatClock(event.at)}</span>
        <span className={`ev-sev tone-${event.severity ? SEVERITY_TONE[event.severity] : 'idle'}`}>{event.severity ?? '—'}</span>
        {/* Source 0 is no node: an entry of ndbtop's own (connected, first status, lost the stream). */}
        <span className="ev-node">{event.sourceNodeId === 0 && event.subjectNodeId === null ? 'ndbtop' : `node ${event.subjectNodeId ?? event.sourceNodeId}`}</span>
        {count > 1 ? (
          <button type="button" className="ev-count" aria-expanded={expanded} title={`${count} ${event.name} events about node ${event.subjectNodeId ?? event.sourceNodeId}`} onClick={() => onToggle(fold.key)}>
            ×{count}
          </button>
        ) : (
          <span />
        )}
        <span className="ev-text" title={`${event.name} from node ${event.sourceNodeId}: ${JSON.stringify(event.fields)}`}>
          {event.text}
        </span>
      </div>
      {expanded && <FoldDetail fold={fold} />}
    </div>
  );
});
