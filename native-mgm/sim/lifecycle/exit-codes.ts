/**
 * ndbd exit codes an NDBStopForced `error` carries. The protocol reference names the field only; these numbers are
 * the server's `ndbd_exit_codes.h`, and the texts its `ndbd_exit_codes.cpp` (the cluster log appends them).
 */
export const NDBD_EXIT = {
  /** "System error, node killed during node restart by other node": another node's SYSTEM_ERROR, e.g. a GCP stop. */
  systemError: 2303,
  /** "Node lost connection to other nodes and can not form a unpartitioned cluster": lost arbitration. */
  arbitShutdown: 2305,
  /** "Node declared dead. See error log for details": its neighbours stopped hearing its heartbeats. */
  nodeDeclaredDead: 2315,
  /** "Internal program error (failed ndbrequire)": a consistency check in the kernel failed. */
  ndbrequire: 2341,
  /** "Fatal error due to end of REDO log. Increase NoOfFragmentLogFiles or FragmentLogFileSize". */
  noMoreRedoLog: 2354,
  /** "Error OS signal received": the process died of a signal (a crash, SIGABRT; the angel reports it). */
  osSignal: 6000,
} as const;
