import { useNow } from '../../hooks/use-now.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { WINDOWS, type WindowName } from '../../store/ui-slice.js';
import { connectionProblem, connectionProblemTitle } from '../../view-model/nodes/connection-problem.js';
import { formatClock, formatDuration } from '../../view-model/format.js';
import { ClusterPicker } from './ClusterPicker.js';
import { ConnectionChip, connectionState } from './ConnectionChip.js';
import { SqlSourceBadge } from './SqlSourceBadge.js';
import { TlsBadge } from './TlsBadge.js';
import { MaintenanceChip } from '../maintenance/MaintenanceChip.js';
import { tlsTitle } from '../../view-model/tls.js';

/** Older than this, the freshest sample is shown as stale. */
const STALE_MS = 5000;

function SampleAge() {
  const sampledAt = useApp((s) => s.shown.sampledAt);
  // While the connection problem says how long ago the link was lost, the sample's age would say it twice: the line
  // keeps the time, the age is on hover, and the header fits one line at 1280 px.
  const problem = useApp((s) => connectionProblem(s.live.connection, 0) !== null);
  const now = useNow();
  if (sampledAt === null) return <span className="muted">no sample yet</span>;
  // Keeps counting while paused or disconnected: what is on screen gets older either way.
  const age = now - sampledAt;
  const old = `(${formatDuration(Math.max(0, age))} old)`;
  return (
    <span className={age > STALE_MS ? 'sample-age tone-warn' : 'sample-age'} data-testid="sample-age" title={`time of the freshest status sample ${old}`}>
      sample {formatClock(sampledAt)}
      {problem ? '' : ` ${old}`}
    </span>
  );
}

/**
 * Which management server, in few words so the header fits one line at 1280 px ("mgmd 1 at db1:1186"); since when,
 * its version, TLS and the failover list are on hover. Nothing while the connection problem speaks for it.
 */
function Mgmd() {
  const connection = useApp((s) => s.shown.connection);
  const problem = useApp((s) => connectionProblem(s.live.connection, 0) !== null);
  const now = useNow();
  const mgmd = connection?.mgmd;
  if (problem) return null;
  if (!mgmd) return <span className="muted">no management server</span>;
  const title = [
    `since ${formatClock(mgmd.since)} (${formatDuration(now - mgmd.since)})`,
    connection.serverVersion ?? '',
    ...(connection.tls ? [tlsTitle(connection.tls)] : []),
    ...(connection.configMgmds && connection.configMgmds.length > 0 ? [`failover also to ${connection.configMgmds.join(', ')} (from the configuration)`] : []),
  ];
  return (
    <span title={title.filter((x) => x !== '').join('\n')} data-testid="mgmd" data-since={mgmd.since}>
      mgmd {mgmd.nodeId ?? '?'} at {mgmd.host}:{mgmd.port}
      {connection.failovers > 0 && <span className="muted"> · {connection.failovers} failover{connection.failovers === 1 ? '' : 's'}</span>}
      {connection.configMgmds && connection.configMgmds.length > 0 && (
        <span className="muted" data-testid="config-mgmds">
          {' '}
          · +{connection.configMgmds.length} from config
        </span>
      )}
    </span>
  );
}

function ConnectionProblem() {
  const connection = useApp((s) => s.live.connection);
  const now = useNow();
  const problem = connectionProblem(connection, now);
  if (problem === null) return null;
  return (
    <span className="tone-bad conn-problem" data-testid="connection-problem" title={connectionProblemTitle(connection)}>
      {problem}
    </span>
  );
}

export function Header() {
  const { store } = useAppContext();
  const name = useApp((s) => s.shown.name);
  const connection = useApp((s) => s.live.connection);
  const paused = useApp((s) => s.ui.paused);
  const transport = useApp((s) => s.ui.transport);
  const window = useApp((s) => s.ui.window);
  const mode = connection?.mode;
  // A trouble state outranks the mode in the chip, so say the mode beside it.
  const showMode = mode !== undefined && mode !== 'live' && connectionState(connection) !== mode;
  return (
    <header className="app-header">
      <h1 className="cluster-name">{name || 'ndbtop'}</h1>
      <ClusterPicker />
      {/* Connection state is always the live one: pausing the display must not hide a lost management server. */}
      <ConnectionChip connection={connection} transport={transport} />
      <TlsBadge connection={connection} />
      {showMode && <span className="conn-mode">{mode}</span>}
      <ConnectionProblem />
      <SqlSourceBadge />
      <MaintenanceChip />
      <Mgmd />
      <SampleAge />
      <span className="spacer" />
      <div className="window-picker" role="group" aria-label="time window">
        {(Object.keys(WINDOWS) as WindowName[]).map((w) => (
          <button key={w} type="button" aria-pressed={w === window} onClick={() => store.setUi({ window: w })}>
            {w}
          </button>
        ))}
      </div>
      <button type="button" className={paused ? 'danger' : ''} data-testid="pause" aria-pressed={paused} onClick={() => store.setPaused(!paused)}>
        {paused ? 'PAUSED — resume (p)' : 'Pause (p)'}
      </button>
    </header>
  );
}
