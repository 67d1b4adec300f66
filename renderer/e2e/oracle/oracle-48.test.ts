import { oracleSuite } from './scenarios.js';

oracleSuite(48);
