import { useApp } from '../../store/use-app.js';

/** Before the first status: waiting for it, or why it cannot come (a server that refuses this session). */
export function EmptyGrid() {
  const refused = useApp((s) => (s.live.connection?.status === 'refused' ? (s.live.connection.lastError ?? 'no reason given') : null));
  const notReady = useApp((s) => (s.live.connection?.status === 'not-ready' ? (s.live.connection.lastError ?? 'no words given') : null));
  if (notReady !== null) {
    return (
      <p className="empty tone-warn" data-testid="grid-not-ready">
        No status yet: the management server is there but answers with words of its own ({notReady}). ndbtop keeps asking.
      </p>
    );
  }
  if (refused !== null) {
    return (
      <p className="empty tone-bad" data-testid="grid-refused">
        No status: the management server refuses this session ({refused}).
      </p>
    );
  }
  return <p className="empty">Waiting for the first status from the management server…</p>;
}
