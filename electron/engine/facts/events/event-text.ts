import { ARBIT_CODES, arbitCode, type ClusterEvent } from '../../../../native-mgm/index.js';
import { join64 as big } from '../../cluster/join64.js';

type Fields = Readonly<Record<string, number>>;
type Describe = (f: Fields, e: ClusterEvent) => string;

const START_TYPES = ['initial start', 'system restart', 'node restart', 'initial node restart', 'system restart (not restorable)'];
const SINGLE_USER = ['entering single user mode', 'entered single user mode', 'exiting single user mode'];
function stopAction(action: number): string {
  if (action & 1) return action & 2 ? 'restart, waiting for a start order' : 'restart';
  return 'stop';
}

const num = (v: number | undefined): string => (v === undefined ? '?' : String(v));

/** A node that was started reports start phase 255 or more; the server's own cluster-log text leaves it out, as here. */
const startPhaseOf = (sphase: number | undefined): string => (sphase !== undefined && sphase < 255 ? ` in start phase ${sphase}` : '');

/** One sentence per event type an operator cares about; the rest get their name and fields. */
const TEXT: Record<string, Describe> = {
  Connected: (f) => `connected to node ${num(f.node)}`,
  Disconnected: (f) => `lost connection to node ${num(f.node)}`,
  CommunicationClosed: (f) => `communication to node ${num(f.node)} closed`,
  CommunicationOpened: (f) => `communication to node ${num(f.node)} opened`,
  ConnectedApiVersion: (f) => `API node ${num(f.node)} connected`,
  NDBStartStarted: () => 'start initiated',
  NDBStartCompleted: () => 'started',
  StartPhaseCompleted: (f) => `start phase ${num(f.phase)} completed (${START_TYPES[f.starttype ?? -1] ?? `start type ${num(f.starttype)}`})`,
  CM_REGCONF: (f) => `admitted to the cluster (president ${num(f.president_id)}, dynamic id ${num(f.dynamic_id)})`,
  CM_REGREF: (f) => `admission refused by node ${num(f.other_id)} (cause ${num(f.cause)})`,
  NDBStopStarted: (f) => (f.stoptype === 1 ? 'cluster shutdown initiated' : 'node shutdown initiated'),
  NDBStopCompleted: (f) => `node shutdown completed (${stopAction(f.action ?? 0)})${f.signum ? `, signal ${f.signum}` : ''}`,
  NDBStopForced: (f) => `forced shutdown (${stopAction(f.action ?? 0)})${startPhaseOf(f.sphase)}, error ${num(f.error)}${f.signum ? `, signal ${f.signum}` : ''}`,
  NDBStopAborted: () => 'node shutdown aborted',
  NR_CopyDict: () => 'copying the dictionary',
  NR_CopyDistr: () => 'copying distribution information',
  NR_CopyFragsStarted: (f) => `data copy to node ${num(f.dest_node)} started`,
  NR_CopyFragsCompleted: (f) => `data copy to node ${num(f.dest_node)} completed`,
  NodeFailCompleted: (f) =>
    f.block === 0 && f.completing_node === 0
      ? `failure handling of node ${num(f.failed_node)} completed`
      : `failure handling of node ${num(f.failed_node)} completed by node ${num(f.completing_node)} (block ${num(f.block)})`,
  NODE_FAILREP: (f) => `node ${num(f.failed_node)} failed`,
  ArbitState: (f) => `arbitration: ${ARBIT_CODES[arbitCode(f.code ?? 0)]?.words ?? `code ${num(f.code)}`} (arbitrator ${num(f.arbit_node)})`,
  ArbitResult: (f) => `arbitration result: ${ARBIT_CODES[arbitCode(f.code ?? 0)]?.words ?? `code ${num(f.code)}`} (arbitrator ${num(f.arbit_node)})`,
  GCP_TakeoverStarted: () => 'global checkpoint takeover started',
  GCP_TakeoverCompleted: () => 'global checkpoint takeover completed',
  LCP_TakeoverStarted: () => 'local checkpoint takeover started',
  LCP_TakeoverCompleted: () => 'local checkpoint takeover completed',
  LCPStoppedInCalcKeepGci: (f) => `local checkpoint stopped in calcKeepGci (${num(f.data)})`,
  UndoLogBlocked: (f) => `undo log blocked (ACC ${num(f.acc_count)}, TUP ${num(f.tup_count)})`,
  LocalCheckpointStarted: (f) => `local checkpoint ${num(f.lci)} started`,
  LocalCheckpointCompleted: (f) => `local checkpoint ${num(f.lci)} completed`,
  MissedHeartbeat: (f) => `missed ${num(f.count)} heartbeats from node ${num(f.node)}`,
  DeadDueToHeartbeat: (f) => `node ${num(f.node)} declared dead (missed heartbeats)`,
  TransporterError: (f) => `transporter error to node ${num(f.to_node)} (code ${num(f.code)})`,
  MemoryUsage: (f) =>
    `${f.block === 249 ? 'data' : f.block === 248 ? 'index' : `block ${num(f.block)}`} memory ${f.pages_total ? Math.round(((f.pages_used ?? 0) * 100) / f.pages_total) : '?'}% used (${num(f.pages_used)} of ${num(f.pages_total)} pages)${(f.gth ?? 0) > 0 ? ', rising past a threshold' : (f.gth ?? 0) < 0 ? ', falling past a threshold' : ''}`,
  TransReportCounters: (f) => `TC report: ${num(f.trans_count)} transactions, ${num(f.read_count)} reads, ${num(f.write_count)} writes`,
  OperationReportCounters: (f) => `LQH report: ${num(f.ops)} operations`,
  SingleUser: (f) => `${SINGLE_USER[f.type ?? -1] ?? 'single user mode'} (API node ${num(f.node_id)})`,
  BackupStarted: (f) => `backup ${num(f.backup_id)} started by node ${num(f.starting_node)}`,
  BackupStatus: (f) => `backup ${num(f.backup_id)}: ${big(f.n_records_hi, f.n_records_lo)} records, ${big(f.n_bytes_hi, f.n_bytes_lo)} bytes`,
  BackupCompleted: (f) => `backup ${num(f.backup_id)} completed: ${big(f.n_records_hi, f.n_records)} records, ${big(f.n_bytes_hi, f.n_bytes)} bytes`,
  BackupFailedToStart: (f) => `backup failed to start (error ${num(f.error)})`,
  BackupAborted: (f) => `backup ${num(f.backup_id)} aborted (error ${num(f.error)})`,
};

function generic(e: ClusterEvent): string {
  const fields = Object.entries(e.fields).map(([k, v]) => `${k}=${v}`);
  const data = e.data && e.data.length > 0 ? [`data=${e.data.join(' ')}`] : [];
  const rest = [...fields, ...data].join(', ');
  return rest ? `${e.name} (${rest})` : e.name;
}

/** "Node 3: start phase 4 completed (node restart)". */
export function eventText(e: ClusterEvent): string {
  const describe = TEXT[e.name];
  return `Node ${e.sourceNodeId}: ${describe ? describe(e.fields, e) : generic(e)}`;
}
