import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterSnapshot } from '../../../../contract/schemas/snapshot.js';
import { createEngine } from '../../../create-engine.js';
import { PushWatcher, waitFor } from '../../../test/helpers.js';

// Short intervals so every reading arrives within a couple of seconds.
const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, restarts: 500, hostCpu: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };

/**
 * Each family the references describe, as `sim --version` plays it, and what its SQL node's ndbinfo must give by
 * the reference's dating: cpudata from 8.0.23, transporter_details (the send buffers) from 8.3.
 */
const RELEASES = [
  { version: '7.6.36', sqlVersion: '5.7.36-ndb-7.6.36', mgmdString: 'mysql-5.7.36 ndb-7.6.36', hostCpu: false, sendBuffers: false },
  { version: '8.0.40', sqlVersion: '8.0.40-cluster', mgmdString: 'mysql-8.0.40 ndb-8.0.40', hostCpu: true, sendBuffers: false },
  { version: '8.4.3', sqlVersion: '8.4.3-cluster', mgmdString: 'mysql-8.4.3 ndb-8.4.3', hostCpu: true, sendBuffers: true },
  { version: '9.1.0', sqlVersion: '9.1.0-cluster', mgmdString: 'mysql-9.1.0 ndb-9.1.0', hostCpu: true, sendBuffers: true },
] as const;

/** Everything a release gives is in: threads and redo of both data nodes, and host CPU and send buffers where it has them. */
function settled(s: ClusterSnapshot | null, r: (typeof RELEASES)[number]): ClusterSnapshot | null {
  if (!s || s.connection.status !== 'live' || s.ndbinfo?.source.status !== 'up' || !s.ndbinfo.links) return null;
  const nodes = s.ndbinfoNodes ?? [];
  const full = nodes.filter((n) => n.threads && n.threads.threads.length > 0 && n.redo && n.diskWrite && !n.stale && (!r.hostCpu || n.hostCpu) && (!r.sendBuffers || n.sendBuffer));
  // The source's own cost per reading is summed every `loadEveryMs`: a release's richer readings are in once one sum
  // came after them (with the simulated SQL node answering in time slices, the figures can land before it).
  const timed = Object.keys(s.ndbinfo.selfLoad?.readings ?? {});
  const costed = (!r.hostCpu || timed.includes('hostCpu')) && (!r.sendBuffers || timed.includes('transporterDetails'));
  return costed && full.length === 2 && s.nodes.filter((n) => n.type === 'NDB').every((n) => n.status === 'STARTED') ? s : null;
}

for (const r of RELEASES) {
  test(`NDB ${r.version}: watched without a false error; the richer tables read where the release has them, the missing ones said with why`, { timeout: 120_000 }, async (t) => {
    const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 2, version: r.version }, pollIntervalMs: 200, sqlWatch: FAST });
    t.after(() => engine.close());
    const watcher = new PushWatcher(engine);
    t.after(() => watcher.unsubscribe());

    const s = await waitFor(`every figure NDB ${r.version} gives`, () => settled(watcher.current, r), 60_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; last: ${JSON.stringify({ connection: watcher.current?.connection, source: watcher.current?.ndbinfo?.source, nodes: watcher.current?.ndbinfoNodes })}`);
    });
    // The management server and SQL node speak their release.
    assert.equal(s.connection.serverVersion, r.mgmdString);
    assert.equal(s.ndbinfo!.source.serverVersion, r.sqlVersion);
    assert.equal(s.ndbinfo!.source.ndbVersion, r.version);
    assert.ok(s.nodes.filter((n) => n.type === 'NDB').every((n) => n.version === r.version), JSON.stringify(s.nodes.map((n) => n.version)));

    // The richer figures where present, and never figures the release cannot give.
    for (const n of s.ndbinfoNodes ?? []) {
      if (r.hostCpu) {
        assert.ok(n.hostCpu && n.hostCpu.cpus > 0 && n.hostCpu.online === n.hostCpu.cpus, JSON.stringify(n.hostCpu));
        assert.ok(n.hostCpu.busy !== null && n.hostCpu.busy > 0 && n.hostCpu.busy < 100, `host busy ${n.hostCpu.busy}`);
      } else assert.equal(n.hostCpu ?? null, null);
      if (r.sendBuffers) assert.ok(n.sendBuffer && n.sendBuffer.allocated > 0);
      else assert.equal(n.sendBuffer, null);
    }
    const readings = Object.keys(s.ndbinfo!.selfLoad?.readings ?? {});
    assert.equal(readings.includes('hostCpu'), r.hostCpu, readings.join(','));
    assert.equal(readings.includes('transporterDetails'), r.sendBuffers, readings.join(','));

    // What is missing is said, with the table, the reference's release and the one this SQL node runs.
    const features = new Map((s.ndbinfo!.source.features ?? []).map((f) => [f.key, f]));
    const host = features.get('host-cpu')!;
    const send = features.get('send-buffers')!;
    assert.equal(host.available, r.hostCpu);
    assert.equal(send.available, r.sendBuffers);
    if (!r.hostCpu) assert.equal(host.why, `host CPU: needs ndbinfo.cpudata (NDB 8.0.23 or later, Linux only); this SQL node runs NDB ${r.version}.`);
    else assert.equal(host.why, null);
    if (!r.sendBuffers) assert.equal(send.why, `send buffers: needs ndbinfo.transporter_details (NDB 8.3.0 or later); this SQL node runs NDB ${r.version}.`);
    else assert.equal(send.why, null);
    assert.deepEqual(
      s.ndbinfo!.source.missing,
      [...(r.sendBuffers ? [] : ['transporter_details']), ...(r.hostCpu ? [] : ['cpudata'])],
    );

    // No false error: no alert, no error on either link, the event stream live, the SQL source without complaint.
    assert.deepEqual(s.alerts, []);
    assert.equal(s.connection.lastError, null);
    assert.equal(s.connection.eventStream.status, 'live');
    assert.equal(s.ndbinfo!.source.lastError, null);
  });
}
