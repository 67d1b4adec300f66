import { oracleSuite } from './scenarios.js';

// The long variant (bench or soak) sets NDBTOP_ORACLE_DATA_NODES=144 with NDBTOP_ORACLE_SECONDS and NDBTOP_ORACLE_SPEED.
oracleSuite(Number(process.env.NDBTOP_ORACLE_DATA_NODES ?? 48));
