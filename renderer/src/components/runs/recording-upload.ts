import type { Run } from '../../contract.js';

export interface UploadProgress {
  stage: 'uploading' | 'reading';
  done: number;
  total: number;
}

type Reply = { progress: { done: number; total: number } } | { runs: Run[] } | { error: { code: string; message: string } };

const uploadUrl = (file: File): string => `api/recordings?name=${encodeURIComponent(file.name)}`;
const HEADERS = { 'Content-Type': 'application/octet-stream' };

/** The answer's NDJSON lines as they come: progress, then the runs or an error. */
function replyReader(onProgress: (p: UploadProgress) => void) {
  let result: Run[] | null = null;
  let failure: string | null = null;
  return {
    line(row: string, status: number): void {
      let reply: Reply;
      try {
        reply = JSON.parse(row) as Reply;
      } catch {
        failure = `the server answered ${status} ${row.slice(0, 200)}`;
        return;
      }
      if ('progress' in reply) onProgress({ stage: 'reading', ...reply.progress });
      else if ('runs' in reply) result = reply.runs;
      else if ('error' in reply) failure = reply.error.message;
    },
    outcome(status: number, statusText: string): Run[] {
      if (result && status === 200) return result;
      throw new Error(failure ?? `the server answered ${status} ${statusText}`);
    },
  };
}

/**
 * A recording goes to `POST api/recordings` as a stream of bytes (the WebSocket takes no message over 1 MiB), the
 * same handler in serve mode and on the desktop's app:// origin. Serve mode uses XMLHttpRequest, because fetch
 * reports no upload progress: first the upload's bytes, then the server's NDJSON lines while it reads the file,
 * ending with the runs or an error. The page's token cookie authorises it.
 */
export function uploadRecording(file: File, onProgress: (p: UploadProgress) => void): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const replies = replyReader(onProgress);
    let parsed = 0;
    const take = (): void => {
      const text = xhr.responseText;
      for (let nl = text.indexOf('\n', parsed); nl !== -1; nl = text.indexOf('\n', parsed)) {
        replies.line(text.slice(parsed, nl), xhr.status);
        parsed = nl + 1;
      }
    };
    xhr.upload.onprogress = (e) => onProgress({ stage: 'uploading', done: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onprogress = take;
    xhr.onload = () => {
      take();
      try {
        resolve(replies.outcome(xhr.status, xhr.statusText));
      } catch (err) {
        reject(err as Error);
      }
    };
    xhr.onerror = () => reject(new Error('the upload failed (connection lost, or the server refused it)'));
    xhr.open('POST', uploadUrl(file));
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.send(file);
  });
}

/**
 * The desktop app: Chromium's XMLHttpRequest sends a body to http(s) only, so the page fetches its own app://
 * origin, where main hands the request to the same handler. The file goes in-process (no upload progress to
 * show); the reading's progress comes as in serve mode.
 */
export async function postRecording(file: File, onProgress: (p: UploadProgress) => void): Promise<Run[]> {
  const response = await fetch(uploadUrl(file), { method: 'POST', body: file, headers: HEADERS });
  const replies = replyReader(onProgress);
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
    const rows = (pending + chunk.value).split('\n');
    pending = rows.pop() ?? '';
    for (const row of rows) replies.line(row, response.status);
  }
  if (pending) replies.line(pending, response.status);
  return replies.outcome(response.status, response.statusText);
}
