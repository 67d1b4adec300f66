import { figureValue, restartWords, type Incident, type IncidentCause } from '../../contract.js';
import { useNow } from '../../hooks/use-now.js';
import { formatDateTime } from '../../view-model/format.js';
import { incidentTimeline } from '../../view-model/incidents/incident-timeline.js';
import { IncidentTimelineStrip } from './IncidentTimelineStrip.js';

const clock = (t: number): string => new Date(t).toLocaleTimeString([], { hour12: false });
const signed = (secs: number): string => (secs > 0 ? `+${secs}` : String(secs));

function CauseBlock({ cause, other }: { cause: IncidentCause; other?: boolean }) {
  return (
    <section className={`incident-cause${other ? ' incident-other' : ''}`} data-testid={other ? 'incident-other-cause' : 'incident-cause'} data-kind={cause.kind}>
      <h3>
        {other ? 'Also possible: ' : ''}
        <span className={`chip cause-${cause.kind}`}>{cause.kind}</span> {cause.text}
      </h3>
      <ul className="incident-evidence">
        {cause.evidence.map((e) => (
          <li key={`${e.at}|${e.text}`}>
            <time>{clock(e.at)}</time> <span className="muted">{e.source}</span> {e.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One incident opened: its cause and evidence, everything on one time axis, the figures before, the restart's phases. */
export function IncidentDetail({ incident: i }: { incident: Incident }) {
  const now = useNow();
  const timeline = incidentTimeline(i, now);
  return (
    <article className="incident-detail" data-testid="incident-detail" data-incident-id={i.id}>
      {i.beganBeforeWatching && <p className="tone-warn">This began before ndbtop was watching: what came before is missing.</p>}
      <CauseBlock cause={i.cause} />
      {(i.otherCauses ?? []).map((c) => (
        <CauseBlock key={c.kind} cause={c} other />
      ))}
      <p className="incident-meta">
        began {clock(i.startedAt)} · noticed {clock(i.noticedAt)} · <span data-testid="incident-restart">{restartWords(i.restart, formatDateTime)}</span>
      </p>
      <IncidentTimelineStrip timeline={timeline} noticedAt={i.noticedAt} />
      <table className="incident-marks" data-testid="incident-timeline">
        <thead>
          <tr>
            <th>s</th>
            <th>what</th>
            <th>seen</th>
          </tr>
        </thead>
        <tbody>
          {timeline.marks.map((m, n) => (
            <tr key={n} data-lane={m.lane} className={m.evidence ? 'evidence' : undefined}>
              <td>{signed(m.offsetSecs)}</td>
              <td>{m.lane === 'phase' ? 'restart' : m.lane}</td>
              <td>{m.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {i.before.figures.length > 0 ? (
        <table className="incident-figures" data-testid="incident-figures">
          <caption>The minute before: each figure's last value and peak</caption>
          <thead>
            <tr>
              <th>node</th>
              <th>figure</th>
              <th>last</th>
              <th>peak</th>
            </tr>
          </thead>
          <tbody>
            {i.before.figures.map((f) => (
              <tr key={`${f.nodeId}|${f.name}`}>
                <td>{f.nodeId}</td>
                <td>{f.name}</td>
                <td>{figureValue(f.last, f.unit)}</td>
                <td>{figureValue(f.peak, f.unit)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No figures of the minute before: without an SQL source (ndbinfo) and memory reports there are none.</p>
      )}
    </article>
  );
}
