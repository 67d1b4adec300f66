/** The cluster's configuration: the packed v2 format (spec §4.18.1) and the key table. */
export { decodeConfig, decodeConfigBase64, decodePackedConfig } from './decode.js';
export { encodeConfigBase64, encodePackedConfig } from './encode.js';
export type { ClusterConfig, ConfigConnection, ConfigNode, ConfigNodeType, ConfigParams } from './cluster-config.js';
export { defaultOf, keyName, NO_NODEGROUP, paramByKey, paramByName, paramsOf } from './params.js';
export type { ConfigParam, ConfigSectionType, ConfigUnit, ConfigValue } from './params.js';
export { buildClusterConfig } from './build-config.js';
export type { ClusterSpec, NodeSpec } from './build-config.js';
export { ConfigIniError, parseConfigIni } from './config-ini.js';
export { blockInstances, threadConfigFor, threadCounts } from './thread-instances.js';
export type { BlockInstances, ThreadCounts } from './thread-instances.js';
