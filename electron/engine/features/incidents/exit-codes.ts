import type { IncidentCauseKind } from '../../../contract/schemas/incidents.js';

/**
 * A data node's exit code (NDBStopForced `error`, spec §6.6.3: "`error` = ndbd exit code") with the manual's text for
 * it and the cause it names, when it names one. The protocol reference gives the field, not the codes: these are the
 * codes and texts of the manual's "data node error messages" (the server's `ndbd_exit_codes`), the ones a monitor
 * meets when a node falls; any other code is an `error` incident quoting the code alone.
 */
interface ExitCode {
  text: string;
  kind: IncidentCauseKind;
}

const CODES: Readonly<Record<number, ExitCode>> = {
  2300: { text: 'Generic error', kind: 'error' },
  2301: { text: 'Assertion', kind: 'error' },
  2303: { text: 'System error, node killed during node restart by other node', kind: 'error' },
  2305: { text: 'Node lost connection to other nodes and can not form a unpartitioned cluster, please investigate if there are error(s) on other node(s)', kind: 'arbitration' },
  2307: { text: 'Partitioned cluster detected. Please check if cluster is already running', kind: 'arbitration' },
  2308: { text: 'Another node failed during system restart, please investigate error(s) on other node(s)', kind: 'error' },
  2309: { text: 'Internal node state conflict, most probably resolved by restarting node again', kind: 'error' },
  2310: { text: 'Error while reading the REDO log', kind: 'error' },
  2312: { text: 'No more free UNDO log, increase UndoIndexBuffer', kind: 'undo-full' },
  2315: { text: 'Node declared dead. See error log for details', kind: 'heartbeat' },
  2327: { text: 'Memory allocation failure, please decrease some configuration parameters', kind: 'memory' },
  2334: { text: 'Job buffer congestion', kind: 'error' },
  2341: { text: 'Internal program error (failed ndbrequire)', kind: 'error' },
  2354: { text: 'Fatal error due to end of REDO log. Increase NoOfFragmentLogFiles or FragmentLogFileSize', kind: 'redo-full' },
  2343: { text: 'Internal program error (failed ndbassert)', kind: 'error' },
  2350: { text: 'Invalid configuration received from Management Server', kind: 'error' },
  2351: { text: 'Signal lost, out of long signal memory, please increase LongMessageBuffer', kind: 'error' },
  2500: { text: 'Resource allocation error, please review the configuration', kind: 'error' },
  6000: { text: 'Error OS signal received', kind: 'error' },
  6050: { text: 'WatchDog terminate, internal error or massive overload on the machine running this node', kind: 'error' },
  6051: { text: 'Signal lost (unknown reason)', kind: 'error' },
  6052: { text: 'Signal lost, out of send buffer memory, please increase SendBufferMemory or lower the load', kind: 'error' },
  6100: { text: 'Total restart time too long, consider increasing StartFailureTimeout or investigate error(s) on other node(s)', kind: 'error' },
  6302: { text: 'All nodes in a node group are unavailable', kind: 'arbitration' },
  6600: { text: 'Out of index memory during system restart, please increase DataMemory', kind: 'memory' },
  6800: { text: 'Out of data memory during system restart, please increase DataMemory', kind: 'memory' },
  2810: { text: 'The file system is full', kind: 'error' },
};

export interface ExitCodeMeaning {
  code: number;
  /** The manual's text, null for a code it has none for here. */
  text: string | null;
  kind: IncidentCauseKind;
}

export function exitCodeMeaning(code: number): ExitCodeMeaning {
  const known = CODES[code];
  return { code, text: known?.text ?? null, kind: known?.kind ?? 'error' };
}

/** The manual's text for `code` ("Internal program error (failed ndbrequire)"), or that ndbtop has none: the code is the event's to name. */
export function exitCodeText(code: number): string {
  return exitCodeMeaning(code).text ?? "no text for this code in ndbtop's table of the manual's data node error messages";
}
