import { NdbinfoSourceViewSchema } from '../../contract/schemas/ndbinfo.js';
import type { FamilyMaker, FamilyRecorder } from './family.js';

const SOURCE_STATES = NdbinfoSourceViewSchema.shape.status.options;

/**
 * What the SQL source reads from ndbinfo. Figures the engine marks stale (their SQL source lost, or the data node
 * missing from the last CPU reading) are not exported as gauges: a frozen value would lie. Counters are the data
 * nodes' own since they started (a restart resets them, which rate() handles). Cardinality: one busy series per
 * thread (48 data nodes × ~20 threads ≈ 1,000), a few per node, four per direction of each node pair.
 */
export function ndbinfoFamilies({ gauge, counter }: FamilyMaker): FamilyRecorder {
  const busy = gauge('ndbtop_ndbinfo_thread_busy_ratio', 'Share of the last second a data node thread did not sleep (exec + send + spin + buffer full; cpustat), 0-1', ['cluster', 'node_id', 'thread', 'thread_name']);
  const logUsed = gauge('ndbtop_ndbinfo_log_used_bytes', 'Redo or undo log space in use in its fullest part (logspaces)', ['cluster', 'node_id', 'log']);
  const logTotal = gauge('ndbtop_ndbinfo_log_total_bytes', 'Redo or undo log space of its fullest part (logspaces)', ['cluster', 'node_id', 'log']);
  const logFill = gauge('ndbtop_ndbinfo_log_fill_ratio', 'Fill of the fullest redo or undo log part, 0-1: one full part stops the writes that go to it (logspaces)', ['cluster', 'node_id', 'log']);
  const overloaded = gauge('ndbtop_ndbinfo_transporter_overloaded', '1 while the link is overloaded (its send buffer nearly full; transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const slowed = gauge('ndbtop_ndbinfo_transporter_slowdown', '1 while the link is in slowdown (transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const dpbHit = gauge('ndbtop_ndbinfo_disk_page_buffer_hit_ratio', 'Page requests served from the disk page buffer without waiting for I/O since the last reading, 0-1 (diskpagebuffer)', ['cluster', 'node_id']);
  const sendBuffer = gauge('ndbtop_ndbinfo_send_buffer_used_bytes', 'Send buffer in use over all the node\'s transporters (transporter_details)', ['cluster', 'node_id']);
  const diskWrite = gauge('ndbtop_ndbinfo_disk_written_last_second_bytes', "Bytes written to disk in the last second, the server's own speed figure (disk_write_speed_aggregate_node); no counter exists to rate()", ['cluster', 'node_id', 'kind']);
  const sent = counter('ndbtop_ndbinfo_transporter_sent_bytes_total', 'Bytes a data node sent to a remote node since it started (transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const received = counter('ndbtop_ndbinfo_transporter_received_bytes_total', 'Bytes a data node received from a remote node since it started (transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const overloads = counter('ndbtop_ndbinfo_transporter_overloads_total', 'Times the link became overloaded since the data node started (transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const slowdowns = counter('ndbtop_ndbinfo_transporter_slowdowns_total', 'Times the link entered slowdown since the data node started (transporters)', ['cluster', 'node_id', 'remote_node_id']);
  const up = gauge('ndbtop_ndbinfo_source_up', '1 while the SQL source is connected to an SQL node and its readings answer, 0 otherwise (failing, lost, connecting)', ['cluster']);
  const state = gauge('ndbtop_ndbinfo_source_state', "1 for the SQL source's state (connecting, up, failing: connected but its readings fail, lost, closed), 0 for the others", ['cluster', 'state']);
  const queryMs = gauge('ndbtop_ndbinfo_query_seconds', 'Mean time the SQL node took for one query of a reading (recent queries)', ['cluster', 'reading']);
  const share = gauge('ndbtop_ndbinfo_self_load_ratio', 'Share of wall time the SQL node spent on ndbtop\'s queries over the budget window', ['cluster']);
  const shedding = gauge('ndbtop_ndbinfo_shedding', '1 while the SQL source pauses non-essential readings to keep within its budget', ['cluster']);

  return ({ cluster, snapshot, links }) => {
    const view = snapshot.ndbinfo;
    if (!view) return;
    up.set({ cluster }, view.source.status === 'up' ? 1 : 0);
    for (const s of SOURCE_STATES) state.set({ cluster, state: s }, view.source.status === s ? 1 : 0);
    if (view.selfLoad) {
      share.set({ cluster }, view.selfLoad.load);
      shedding.set({ cluster }, view.selfLoad.shedding ? 1 : 0);
      for (const [reading, r] of Object.entries(view.selfLoad.readings)) if (r.meanMs !== null) queryMs.set({ cluster, reading }, r.meanMs / 1000);
    }
    for (const n of snapshot.ndbinfoNodes ?? []) {
      if (n.stale) continue;
      const node_id = String(n.nodeId);
      for (const t of n.threads?.threads ?? []) busy.set({ cluster, node_id, thread: String(t.thrNo), thread_name: t.name ?? '' }, t.busy / 100);
      for (const [log, fill] of [['redo', n.redo], ['undo', n.undo]] as const) {
        if (!fill) continue;
        logUsed.set({ cluster, node_id, log }, fill.used);
        logTotal.set({ cluster, node_id, log }, fill.total);
        if (fill.percent !== null) logFill.set({ cluster, node_id, log }, fill.percent / 100);
      }
      const hit = n.diskPageBuffer?.hitRatio;
      if (hit !== null && hit !== undefined) dpbHit.set({ cluster, node_id }, hit);
      if (n.sendBuffer) sendBuffer.set({ cluster, node_id }, n.sendBuffer.used);
      if (n.diskWrite) {
        diskWrite.set({ cluster, node_id, kind: 'redo' }, n.diskWrite.redoBytesPerSec);
        diskWrite.set({ cluster, node_id, kind: 'lcp' }, n.diskWrite.lcpBytesPerSec);
      }
    }
    if (!links || links.stale) return;
    for (const l of links.links) {
      const labels = { cluster, node_id: String(l.nodeId), remote_node_id: String(l.remoteNodeId) };
      sent.inc(labels, l.bytesSent);
      received.inc(labels, l.bytesReceived);
      overloads.inc(labels, l.overloadCount);
      slowdowns.inc(labels, l.slowdownCount);
      overloaded.set(labels, l.overloaded ? 1 : 0);
      slowed.set(labels, l.slowdown ? 1 : 0);
    }
  };
}
