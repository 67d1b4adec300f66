import type { FamilyMaker, FamilyRecorder } from './family.js';

/**
 * What changes rarely but matters when it does: the configuration generation (a reconfiguration shows as a step)
 * and when the TLS certificates of the management connection expire (alert on `… - time() < 30 * 86400`).
 */
export function securityFamilies({ gauge }: FamilyMaker): FamilyRecorder {
  const generation = gauge('ndbtop_config_generation', 'Generation of the cluster configuration last read from the management server', ['cluster']);
  const expiry = gauge('ndbtop_tls_certificate_expiry_timestamp_seconds', 'When a TLS certificate of the management connection expires, Unix time (peer: server = the management server\'s, client = ndbtop\'s own)', ['cluster', 'peer']);
  const secured = gauge('ndbtop_tls_secured', '1 while the management connection runs over TLS, 0 in clear text', ['cluster']);

  return ({ cluster, snapshot: s }) => {
    if (s.configGeneration !== undefined && s.configGeneration !== null) generation.set({ cluster }, s.configGeneration);
    const tls = s.connection.tls;
    if (!tls || tls.mode === 'off') return;
    secured.set({ cluster }, tls.secured ? 1 : 0);
    if (tls.server) expiry.set({ cluster, peer: 'server' }, tls.server.validTo / 1000);
    if (tls.client) expiry.set({ cluster, peer: 'client' }, tls.client.validTo / 1000);
  };
}
