import type { BackupStatus, PastBackup, RunningBackup } from '../contract.js';
import { backupEtaWords, formatBytes, formatCount, formatDuration, nodeBackupPercent } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';
import { formatClock, formatDateTime } from '../view-model/format.js';
import { formatBytesPerSec } from '../view-model/inside/io-figures.js';
import './backups.css';

function Running({ run, canAct }: { run: RunningBackup; canAct: boolean }) {
  const { store } = useAppContext();
  // ndbinfo's disk_write_speed_aggregate_node, where an SQL node is watched: what the node's disk takes for the backup and checkpoints together.
  const ndbinfo = useApp((s) => s.shown.ndbinfoNodes);
  const withDisk = run.nodes.some((n) => ndbinfo.get(n.nodeId)?.diskWrite);
  const written = run.nodes.reduce((sum, n) => sum + n.bytes, 0);
  const records = run.nodes.reduce((sum, n) => sum + n.records, 0);
  const whole = run.toBackupBytes ? Math.min(100, (written * 100) / run.toBackupBytes) : null;
  return (
    <section data-testid="backup-running" data-backup-id={run.backupId}>
      <h3>
        Backup {run.backupId} running since {formatClock(run.startedAt)}
        {run.coordinatorNodeId !== undefined && <span className="muted"> · coordinated by node {run.coordinatorNodeId}</span>}
        {canAct && (
          <button type="button" className="backup-abort" onClick={() => store.setUi({ pendingAction: { kind: 'abortBackup', backupId: run.backupId } })}>
            Abort…
          </button>
        )}
      </h3>
      <dl className="kv backup-figures">
        <dt>written</dt>
        <dd data-field="written">
          {formatBytes(written)}
          {run.toBackupBytes ? ` of about ${formatBytes(run.toBackupBytes)}` : ''} · {formatCount(records)} records
        </dd>
        <dt>rate</dt>
        <dd data-field="rate">{run.bytesPerSec === null ? 'not known yet' : formatBytesPerSec(run.bytesPerSec)}</dd>
        <dt>ETA</dt>
        <dd data-field="eta" {...etaTimes(run)}>
          {backupEtaWords(run)}
        </dd>
      </dl>
      {whole !== null && <progress className="backup-whole" max={100} value={whole} aria-label="whole backup" />}
      <p className="muted">
        Each data node writes the rows of its primary fragments (its DataMemory in use ÷ NoOfReplicas, the “of” figure) at its own disk&apos;s pace; the backup ends with the last node. Rows take 75–100 % of
        the pages, hence the range.
      </p>
      <table className="plain-table backup-nodes" data-testid="backup-nodes">
        <thead>
          <tr>
            <th>node</th>
            <th>written</th>
            <th>of</th>
            <th>progress</th>
            <th>records</th>
            <th>reported</th>
            {withDisk && <th title="ndbinfo disk_write_speed_aggregate_node: backup and local checkpoint writes, last second">backup+LCP disk writes (ndbinfo)</th>}
          </tr>
        </thead>
        <tbody>
          {run.nodes.map((n) => {
            const pct = nodeBackupPercent(n);
            return (
              <tr key={n.nodeId} data-node={n.nodeId}>
                <td>{n.nodeId}</td>
                <td>{formatBytes(n.bytes)}</td>
                <td>{n.toBackupBytes ? formatBytes(n.toBackupBytes) : '–'}</td>
                <td>{pct === null ? '–' : <progress max={100} value={pct} aria-label={`node ${n.nodeId}: ${pct.toFixed(0)} %`} />}</td>
                <td>{formatCount(n.records)}</td>
                <td>{n.at !== undefined ? formatClock(n.at) : '–'}</td>
                {withDisk && <td data-field="disk-write">{formatBytesPerSec(ndbinfo.get(n.nodeId)?.diskWrite?.lcpBytesPerSec)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** The ETA range as times (ms since the epoch), for what reads the page: the words count from the engine's `at`. */
function etaTimes(run: RunningBackup): { 'data-eta-from'?: number; 'data-eta-to'?: number } {
  const range = run.etaRangeMs;
  if (!range || run.at === undefined) return {};
  return { 'data-eta-from': run.at + range.fromMs, 'data-eta-to': run.at + range.toMs };
}

function rate(b: PastBackup): string {
  const s = (b.endedAt - b.startedAt) / 1000;
  return s > 0 ? formatBytesPerSec(b.bytes / s) : '–';
}

function Past({ last }: { last: readonly PastBackup[] }) {
  if (last.length === 0) return <p className="muted">No backup has ended since ndbtop started (or in this recording).</p>;
  return (
    <section>
      <h3>Past backups <span className="muted">(newest first)</span></h3>
      <table className="plain-table" data-testid="backup-past">
        <thead>
          <tr>
            <th>backup</th>
            <th>outcome</th>
            <th>started</th>
            <th>took</th>
            <th>size</th>
            <th>records</th>
            <th>rate</th>
          </tr>
        </thead>
        <tbody>
          {[...last].reverse().map((b) => (
            <tr key={`${b.backupId}-${b.startedAt}`} data-backup={b.backupId}>
              <td>{b.backupId}</td>
              <td className={b.outcome && b.outcome !== 'completed' ? 'tone-bad' : ''}>
                {b.outcome ?? 'completed'}
                {b.error !== undefined ? ` (error ${b.error})` : ''}
              </td>
              <td>{formatDateTime(b.startedAt)}</td>
              <td>{formatDuration(b.endedAt - b.startedAt)}</td>
              <td>{formatBytes(b.bytes)}</td>
              <td>{formatCount(b.records)}</td>
              <td>{rate(b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The running backup with each data node's progress, rate and ETA, and the backups seen before, as the engine derived them. */
export function BackupsView() {
  const backups: BackupStatus | null = useApp((s) => s.shown.backups);
  const canAct = useApp((s) => s.appInfo?.actionsEnabled === true);
  return (
    <div className="backups-view" data-testid="backups-view">
      <h2>Backups</h2>
      {backups?.running ? <Running run={backups.running} canAct={canAct} /> : <p data-testid="backup-none">No backup running.{canAct ? ' Start one from the actions menu (Start backup).' : ''}</p>}
      <Past last={backups?.last ?? []} />
    </div>
  );
}
