import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NodeStatusSchema, NodeTypeSchema } from '../../contract/schemas/node.js';
import { NODE_STATUSES, NODE_TYPES } from '../../../native-mgm/types.js';

// The contract spells the protocol's words again because the renderer must not depend on native-mgm; this is
// what keeps the two spellings one vocabulary.
test('the contract and native-mgm name node types and statuses identically', () => {
  assert.deepEqual(NodeStatusSchema.options, [...NODE_STATUSES]);
  assert.deepEqual(NodeTypeSchema.options, [...NODE_TYPES]);
});
