import { oracleSuite } from './scenarios.js';

oracleSuite(4);
