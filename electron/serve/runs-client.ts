import type { Run } from '../contract/schemas/runs.js';
import type { RunMarker } from '../../native-mgm/sim/index.js';

export interface RunsEndpoint {
  /** Where ndbtop serves (`ndbtop serve`, or `ndbtop record --port`): http://127.0.0.1:8080/ */
  url: string;
  token?: string;
}

export class RunsHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One call of the runs endpoint, as a benchmark script makes it; rejects with the server's error code. */
export const postRuns = (endpoint: RunsEndpoint, path: string, body: object): Promise<Run> => postApi<Run>(endpoint, `runs${path}`, body);

/** A POST to ndbtop's HTTP API (`api/<path>`: runs, maintenance); rejects with the server's error code. */
export const postApi = <T>(endpoint: RunsEndpoint, path: string, body: object): Promise<T> => callApi<T>(endpoint, path, body);

/** A GET of ndbtop's HTTP API (`api/<path>`); rejects with the server's error code. */
export const getApi = <T>(endpoint: RunsEndpoint, path: string): Promise<T> => callApi<T>(endpoint, path, null);

/** The runs the serving ndbtop knows (`GET /api/runs`), newest last. */
export const listRunsOver = async (endpoint: RunsEndpoint): Promise<Run[]> => (await getApi<{ runs: Run[] }>(endpoint, 'runs')).runs;


/** A GET (no body) or POST to ndbtop's HTTP API; rejects with the server's error code. */
async function callApi<T>(endpoint: RunsEndpoint, path: string, body: object | null): Promise<T> {
  const url = new URL(`api/${path}`, endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`);
  url.search = '';
  const headers: Record<string, string> = body === null ? {} : { 'Content-Type': 'application/json' };
  if (endpoint.token) headers.Authorization = `Bearer ${endpoint.token}`;
  const res = await fetch(url, body === null ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's or an auth failure's plain text; reported below with the status.
  }
  if (!res.ok) {
    const error = (value as { error?: { code?: string; message?: string } } | null)?.error;
    throw new RunsHttpError(res.status, error?.code ?? `HTTP_${res.status}`, `${url.pathname}: ${error?.message ?? (text.trim() || res.statusText)}`);
  }
  return value as T;
}

export const startRunOver = (e: RunsEndpoint, name: string, tags: Record<string, string> = {}, phase?: string): Promise<Run> => postRuns(e, '', { name, tags, ...(phase ? { phase } : {}) });
export const markPhaseOver = (e: RunsEndpoint, runId: string, name: string): Promise<Run> => postRuns(e, `/${encodeURIComponent(runId)}/phase`, { name });
export const stopRunOver = (e: RunsEndpoint, runId: string): Promise<Run> => postRuns(e, `/${encodeURIComponent(runId)}/stop`, {});

/** The simulator's benchmark drivers, marking their runs over HTTP like any benchmark script. */
export function httpRunMarker(endpoint: RunsEndpoint): RunMarker {
  let runId: string | null = null;
  return {
    async start(name, tags, phase) {
      runId = (await startRunOver(endpoint, name, tags, phase)).id;
    },
    async phase(name) {
      if (runId !== null) await markPhaseOver(endpoint, runId, name);
    },
    async stop() {
      if (runId === null) return;
      const id = runId;
      runId = null;
      await stopRunOver(endpoint, id);
    },
  };
}
