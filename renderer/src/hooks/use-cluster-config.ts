import { useEffect, useState } from 'react';
import type { ClusterConfigView } from '../contract.js';
import { useApp, useAppContext } from '../store/use-app.js';

/** The configuration is not pushed; ask for it again when the snapshot says its generation changed. */
export function useClusterConfig(): ClusterConfigView | null {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const generation = useApp((s) => s.shown.configGeneration);
  const [config, setConfig] = useState<ClusterConfigView | null>(null);
  useEffect(() => {
    if (clusterId === null) return;
    let current = true;
    api
      .getClusterConfig({ clusterId })
      .then((c) => current && setConfig(c))
      .catch((err: unknown) => store.setUi({ error: `configuration: ${err instanceof Error ? err.message : String(err)}` }));
    return () => {
      current = false;
    };
  }, [api, store, clusterId, generation]);
  return config;
}
