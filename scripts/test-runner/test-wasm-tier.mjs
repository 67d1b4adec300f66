// Loaded into every process a test starts (run-tests.mjs puts it in NODE_OPTIONS, which the CLI processes the tests
// start inherit): WebAssembly stays on V8's baseline compiler. The simulator's SQL node is sql.js, and building its
// schema makes hundreds of its functions hot: optimising them costs each process ~0.5–1 s of CPU on background
// threads, which a test process living seconds never earns back (an engine with the SQL node, 3 s: 2.4 against
// 1.4 s of CPU). JavaScript is left alone: turning its optimiser off made the 144-node files half as slow again.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
