import { signed, timelineTicks, type IncidentTimeline, type TimelineMark } from '../../view-model/incidents/incident-timeline.js';

const LANES: ReadonlyArray<{ lane: TimelineMark['lane']; label: string }> = [
  { lane: 'event', label: 'events' },
  { lane: 'figure', label: 'figures' },
  { lane: 'status', label: 'status' },
  { lane: 'phase', label: 'restart' },
];
const LANE_H = 22;
const LABEL_W = 64;
const WIDTH = 1000;

/** The incident's events, figures, fall and restart phases on one time axis (seconds from the fall). */
export function IncidentTimelineStrip({ timeline, noticedAt }: { timeline: IncidentTimeline; noticedAt: number }) {
  const span = Math.max(1, timeline.to - timeline.from);
  const x = (at: number): number => LABEL_W + ((at - timeline.from) / span) * (WIDTH - LABEL_W - 8);
  const height = LANES.length * LANE_H + 20;
  const ticks = timelineTicks(timeline, noticedAt);
  return (
    <svg className="incident-strip" viewBox={`0 0 ${WIDTH} ${height}`} preserveAspectRatio="none" role="img" aria-label="the incident on one time axis, seconds from the fall" data-testid="incident-strip">
      {LANES.map((l, k) => (
        <g key={l.lane}>
          <text x={2} y={k * LANE_H + 15} className="strip-label">
            {l.label}
          </text>
          <line x1={LABEL_W} x2={WIDTH - 8} y1={k * LANE_H + LANE_H / 2} y2={k * LANE_H + LANE_H / 2} className="strip-lane" />
        </g>
      ))}
      <line x1={x(noticedAt)} x2={x(noticedAt)} y1={0} y2={LANES.length * LANE_H} className="strip-fall" />
      {timeline.marks.map((m, n) => {
        const lane = LANES.findIndex((l) => l.lane === m.lane);
        const y = lane * LANE_H + LANE_H / 2;
        if (m.lane === 'phase' && m.secs !== undefined) {
          return (
            <rect key={n} x={x(m.at)} y={y - 6} width={Math.max(1, x(m.at + m.secs * 1000) - x(m.at))} height={12} className={`strip-phase strip-phase-${n % 2}`}>
              <title>{m.text}</title>
            </rect>
          );
        }
        return (
          <circle key={n} cx={x(m.at)} cy={y} r={m.evidence ? 5 : 3.5} className={m.evidence ? 'strip-evidence' : 'strip-mark'}>
            <title>{`${signed(m.offsetSecs)} s  ${m.text}`}</title>
          </circle>
        );
      })}
      {ticks.map((t) => (
        <text key={t.at} x={x(t.at)} y={height - 4} className="strip-tick" textAnchor={x(t.at) < LABEL_W + 20 ? 'start' : x(t.at) > WIDTH - 28 ? 'end' : 'middle'}>
          {t.label}
        </text>
      ))}
    </svg>
  );
}
