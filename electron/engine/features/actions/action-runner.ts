import type { ParsedOperatorAction } from '../../../contract/schemas/actions.js';
import type { MgmClient } from '../../../../native-mgm/index.js';
import { CommandFailedError } from '../../../../native-mgm/index.js';

/** Sends one operator action; resolves to a sentence for the UI, rejects with the server's own words. */
export async function sendAction(client: MgmClient, action: ParsedOperatorAction): Promise<string> {
  switch (action.kind) {
    case 'stop':
      await client.stop([action.nodeId], { abort: action.abort });
      return `node ${action.nodeId} stopped`;
    case 'restart':
      await client.restart([action.nodeId], { initial: action.initial, noStart: action.noStart, abort: action.abort });
      return `node ${action.nodeId} restarted${action.noStart ? ', waiting for a start order' : ''}`;
    case 'start':
      await client.start(action.nodeId);
      return `node ${action.nodeId} start order sent`;
    case 'startBackup': {
      // Wait for "started", not "completed": a backup can take hours.
      const { backupId } = await client.startBackup({ wait: 1 });
      return backupId === null ? 'backup started' : `backup ${backupId} started`;
    }
    case 'abortBackup':
      await client.abortBackup(action.backupId);
      return `abort of backup ${action.backupId} requested`;
    case 'enterSingleUser':
      await client.enterSingleUser(action.apiNodeId);
      return `entering single user mode for API node ${action.apiNodeId}`;
    case 'exitSingleUser':
      await client.exitSingleUser();
      return 'exiting single user mode';
  }
}

/** The server's refusal text exactly as it sent it (e.g. `5028-Node shutdown would cause system crash`). */
export function refusalText(err: unknown): string {
  if (err instanceof CommandFailedError) return err.result;
  return err instanceof Error ? err.message : String(err);
}
