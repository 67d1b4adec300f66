import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { eventText } from '../event-text.js';

function stopForced(sphase: number): ClusterEvent {
  return {
    typeId: 59,
    name: 'NDBStopForced',
    category: 'STARTUP',
    severity: 'ALERT',
    sourceNodeId: 3,
    receivedAt: 0,
    fields: { action: 1, signum: 0, error: 2315, sphase, extra: 0 },
    data: null,
    known: true,
    raw: {},
  };
}

test('a forced shutdown names its start phase only while the node was starting (255 and over: it was started)', () => {
  assert.equal(eventText(stopForced(4)), 'Node 3: forced shutdown (restart) in start phase 4, error 2315');
  assert.equal(eventText(stopForced(255)), 'Node 3: forced shutdown (restart), error 2315');
});
