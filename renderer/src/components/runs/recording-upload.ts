import type { Run } from '../../contract.js';

export interface UploadProgress {
  stage: 'uploading' | 'reading';
  done: number;
  total: number;
}

type Reply = { progress: { done: number; total: number } } | { runs: Run[] } | { error: { code: string; message: string } };

/**
 * Serve mode: a recording goes to `POST api/recordings` as a stream of bytes (the WebSocket takes no message
 * over 1 MiB). XMLHttpRequest, because fetch reports no upload progress: first the upload's bytes, then the
 * server's NDJSON lines while it reads the file, ending with the runs or an error. The page's token cookie
 * authorises it.
 */
export function uploadRecording(file: File, onProgress: (p: UploadProgress) => void): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let parsed = 0;
    let result: Run[] | null = null;
    let failure: string | null = null;
    const take = (): void => {
      const text = xhr.responseText;
      let nl = text.indexOf('\n', parsed);
      for (; nl !== -1; nl = text.indexOf('\n', parsed)) {
        const row = text.slice(parsed, nl);
        parsed = nl + 1;
        let reply: Reply;
        try {
          reply = JSON.parse(row) as Reply;
        } catch {
          failure = `the server answered ${xhr.status} ${row.slice(0, 200)}`;
          continue;
        }
        if ('progress' in reply) onProgress({ stage: 'reading', ...reply.progress });
        else if ('runs' in reply) result = reply.runs;
        else if ('error' in reply) failure = reply.error.message;
      }
    };
    xhr.upload.onprogress = (e) => onProgress({ stage: 'uploading', done: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onprogress = take;
    xhr.onload = () => {
      take();
      if (result && xhr.status === 200) resolve(result);
      else reject(new Error(failure ?? `the server answered ${xhr.status} ${xhr.statusText}`));
    };
    xhr.onerror = () => reject(new Error('the upload failed (connection lost, or the server refused it)'));
    xhr.open('POST', `api/recordings?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.send(file);
  });
}
