import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featuresOf, ndbVersionOf } from '../capabilities.js';

test("an SQL node's NDB release is read from its version string, both forms, and unknown otherwise", () => {
  assert.equal(ndbVersionOf('5.7.44-ndb-7.6.29'), '7.6.29');
  assert.equal(ndbVersionOf('8.0.40-cluster'), '8.0.40');
  assert.equal(ndbVersionOf('9.1.0-cluster-commercial'), '9.1.0');
  // A plain MySQL or MariaDB number says nothing of NDB.
  assert.equal(ndbVersionOf('10.11.6-MariaDB-0+deb12u1'), null);
  assert.equal(ndbVersionOf('8.4.3'), null);
});

test('what a release lacks is said with the table, the reference release and the one the SQL node runs; a table a new enough release lacks is hidden or left out', () => {
  const why = (serverVersion: string, missing: string[], absentColumns: string[] = []) => Object.fromEntries(featuresOf({ serverVersion, missing, absentColumns }).map((f) => [f.key, f.why]));
  assert.deepEqual(why('8.0.22-cluster', ['cpudata', 'transporter_details']), {
    'host-cpu': 'host CPU: needs ndbinfo.cpudata (NDB 8.0.23 or later, Linux only); this SQL node runs NDB 8.0.22.',
    'send-buffers': 'send buffers: needs ndbinfo.transporter_details (NDB 8.3.0 or later); this SQL node runs NDB 8.0.22.',
  });
  assert.deepEqual(why('8.4.3-cluster', ['cpudata']), {
    'host-cpu': 'host CPU: needs ndbinfo.cpudata (NDB 8.0.23 or later, Linux only); this SQL node runs NDB 8.4.3, so it is hidden from this user or left out of this build.',
    'send-buffers': null,
  });
  // The table without the columns the figure needs: the column is named, dated by its table.
  assert.equal(why('8.4.3-cluster', [], ['transporter_details.sendbuffer_used_bytes'])['send-buffers'], 'send buffers: needs ndbinfo.transporter_details.sendbuffer_used_bytes (NDB 8.3.0 or later); this SQL node runs NDB 8.4.3, so it is hidden from this user or left out of this build.');
  assert.equal(why('10.11.6-MariaDB', ['cpudata'])['host-cpu'], 'host CPU: needs ndbinfo.cpudata (NDB 8.0.23 or later, Linux only); this SQL node\'s NDB release is not known (it says "10.11.6-MariaDB").');
  assert.deepEqual(why('9.1.0-cluster', []), { 'host-cpu': null, 'send-buffers': null });
});
