import type { Command } from 'commander';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import type { BackupStatus } from '../../contract/schemas/backups.js';
import { backupEtaWords, formatBytes, formatCount, nodeBackupPercent, pastBackupLine } from '../../contract/page-safe/backup-words.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import { getApi } from '../../serve/runs-client.js';
import { withDeadline } from '../deadline.js';
import { EXIT } from '../exit-codes.js';
import { printText } from '../format/terminal-text.js';
import { addConnectOptions, connectstringFrom } from '../options/options.js';
import { addMgmTlsOptions, mgmTlsFrom, type TlsCliOptions } from '../options/tls-options.js';
import { endpointFrom, type EndpointOpts } from '../serve-endpoint.js';

interface ClusterOpts extends TlsCliOptions {
  connectstring?: string;
  timeout: number;
  json?: boolean;
}

/** The status as lines: the running backup with each node's progress, then the past ones, oldest first. */
export function backupText(s: BackupStatus): string {
  const out: string[] = [];
  const run = s.running;
  if (run) {
    const rate = run.bytesPerSec === null ? 'rate not known yet' : `${formatBytes(run.bytesPerSec)}/s`;
    const written = run.nodes.reduce((sum, n) => sum + n.bytes, 0);
    const of = run.toBackupBytes ? ` of about ${formatBytes(run.toBackupBytes)}` : '';
    out.push(`backup ${run.backupId} running since ${new Date(run.startedAt).toISOString()}${run.coordinatorNodeId !== undefined ? `, coordinated by node ${run.coordinatorNodeId}` : ''}`);
    out.push(`  ${formatBytes(written)}${of} written, ${rate}, ${backupEtaWords(run)}`);
    for (const n of run.nodes) {
      const pct = nodeBackupPercent(n);
      out.push(`  node ${n.nodeId}: ${formatBytes(n.bytes)}${pct === null ? '' : ` (${pct.toFixed(0)} %)`}, ${formatCount(n.records)} records`);
    }
  } else out.push('no backup running');
  if (s.last.length > 0) out.push('past backups (oldest first):', ...s.last.map((b) => `  ${pastBackupLine(b)}`));
  return `${out.join('\n')}\n`;
}

function print(s: BackupStatus, json: boolean | undefined): void {
  if (json) process.stdout.write(`${escapedJson(s)}\n`);
  else printText(process.stdout, backupText(s));
}

function clientFor(opts: ClusterOpts): MgmClient {
  const { hosts } = connectstringFrom(opts);
  // A backup started with `completed: 1` answers once it started; a stalling server still meets the deadline.
  return new MgmClient({ hosts, connectTimeoutMs: opts.timeout, requestTimeoutMs: opts.timeout, reconnect: false, tls: mgmTlsFrom(opts) });
}

function refuseWithout(allowActions: boolean | undefined, what: string): boolean {
  if (allowActions) return false;
  process.stderr.write(`refused: ${what} is an operator action; add --allow-actions\n`);
  process.exitCode = EXIT.USAGE;
  return true;
}

/**
 * `ndbtop backup status|start|abort`. Status needs no flag: with -c what the cluster says now (REPORT BackupStatus,
 * `dump events 62`, asked twice a second apart for a rate, with `dump events 50` and the node groups for the data
 * to back up; the cluster keeps no list of past backups), else what a serving ndbtop has seen (`GET /api/backups`,
 * past backups included). Start and abort are operator actions: --allow-actions.
 */
export function registerBackup(program: Command): void {
  const backup = program.command('backup').description('backups: what runs now and what ran before, start one, abort one');
  addMgmTlsOptions(addConnectOptions(backup.command('status')))
    .description('the running backup (progress per data node, rate, ETA) and the past ones: from the cluster with -c, else from a serving ndbtop')
    .option('--url <url>', 'the serving ndbtop (ndbtop serve, or ndbtop record --port), when no -c is given', process.env.NDBTOP_URL || 'http://127.0.0.1:8080/')
    .option('--token <token>', 'its --token (default: NDBTOP_TOKEN)')
    .option('--json', 'print {"running":{"backupId","startedAt","nodes":[{"nodeId","records","bytes"}],"bytesPerSec","etaMs"}|null,"last":[…]}')
    .action(async (opts: ClusterOpts & EndpointOpts) => {
      if (opts.connectstring === undefined) return print(await getApi<BackupStatus>(endpointFrom(opts), 'backups'), opts.json);
      const { readBackupNow } = await import('../format/backup-now.js');
      const client = clientFor(opts);
      try {
        print(await withDeadline(opts.timeout + 2000, 'ndbtop backup status', (signal) => readBackupNow(client, signal)), opts.json);
      } finally {
        client.close();
      }
    });
  addMgmTlsOptions(addConnectOptions(backup.command('start')))
    .description('starts a backup of the whole cluster and says where each data node writes it (needs --allow-actions)')
    .option('--allow-actions', 'needed to start a backup')
    .option('--json', 'print {"backupId", "directories": [{"path", "nodeIds"}]}')
    .action(async (opts: ClusterOpts & { allowActions?: boolean }) => {
      if (refuseWithout(opts.allowActions, 'starting a backup')) return;
      const { backupDirectories } = await import('../../engine/facts/backups/backup-dir.js');
      const client = clientFor(opts);
      try {
        const { backupId, directories } = await withDeadline(opts.timeout, 'ndbtop backup start', async (signal) => {
          await client.connect(signal);
          const config = await client.getConfig({}, { signal });
          // Wait for "started", not "completed": a backup can take hours (`ndbtop backup status` follows it).
          const started = await client.startBackup({ wait: 1 }, { signal });
          return { backupId: started.backupId, directories: backupDirectories(config.nodes) };
        });
        if (opts.json) return void process.stdout.write(`${escapedJson({ backupId, directories })}\n`);
        const where = directories.map((d) => `  ${d.path}/BACKUP-${backupId ?? '<id>'} on ${d.nodeIds.length === 1 ? 'node' : 'nodes'} ${d.nodeIds.join(', ')}`);
        printText(process.stdout, `backup ${backupId ?? '?'} started; each data node writes it on its own host:\n${where.join('\n')}\n`);
      } finally {
        client.close();
      }
    });
  addMgmTlsOptions(addConnectOptions(backup.command('abort')))
    .description('aborts a running backup; its files are left incomplete (needs --allow-actions)')
    .argument('<backupId>', 'the backup to abort (ndbtop backup status names it)')
    .option('--allow-actions', 'needed to abort a backup')
    .action(async (id: string, opts: ClusterOpts & { allowActions?: boolean }) => {
      if (!/^\d+$/.test(id)) return void backup.error(`error: backup id must be a whole number, not ${JSON.stringify(id)}`, { exitCode: EXIT.USAGE });
      if (refuseWithout(opts.allowActions, 'aborting a backup')) return;
      const client = clientFor(opts);
      try {
        await withDeadline(opts.timeout, 'ndbtop backup abort', async (signal) => {
          await client.connect(signal);
          await client.abortBackup(Number(id), { signal });
        });
        process.stdout.write(`abort of backup ${id} requested\n`);
      } finally {
        client.close();
      }
    });
}
