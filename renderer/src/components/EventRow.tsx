import { Fragment, memo } from 'react';
import type { EventView, Severity } from '../contract.js';
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

/** The whole of one event: its sentence unclipped, then its fields as the management server sent them, one a line. */
function EventDetail({ event }: { event: EventView }) {
  return (
    <div className="ev-detail" data-testid="event-detail">
      <p className="ev-full">{event.text}</p>
      <dl className="ev-fields">
        <dt>event</dt>
        <dd>
          {event.name} from node {event.sourceNodeId}
          {event.category ? `, ${event.category}` : ''}
        </dd>
        {Object.entries(event.fields).map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
      </dl>
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
        <span className="ev-node">node {event.subjectNodeId ?? event.sourceNodeId}</span>
        {count > 1 ? (
          <button type="button" className="ev-count" aria-expanded={expanded} title={`${count} ${event.name} events about node ${event.subjectNodeId ?? event.sourceNodeId}`} onClick={() => onToggle(fold.key)}>
            ×{count}
          </button>
        ) : (
          <span />
        )}
        {/* A click shows the whole message (a long one is clipped on its line). */}
        <span className="ev-text" role="button" tabIndex={0} aria-expanded={expanded} title={event.text} onClick={() => onToggle(fold.key)} onKeyDown={(e) => e.key === 'Enter' && onToggle(fold.key)}>
          {event.text}
        </span>
      </div>
      {expanded && (count > 1 ? <FoldDetail fold={fold} /> : <EventDetail event={event} />)}
    </div>
  );
});
