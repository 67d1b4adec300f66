import type { ConnectionView } from '../../../contract/schemas/snapshot.js';
import type { EventView } from '../../../contract/schemas/events.js';
import type { NodeState } from '../../../../native-mgm/index.js';

/**
 * What ndbtop itself saw, as event-log entries next to the cluster's own events: whom it connected to, the first
 * status it read, losing and regaining the management server or the event stream. A cluster that is merely
 * running sends no loggable events (statistics reports are not listed), so without these a page opened after
 * minutes of watching said "No events yet" although the engine had seen plenty.
 */
export type EngineNote = Omit<EventView, 'seq'>;

/** Type id outside the cluster's catalogue (which is unsigned), so these never collide with a real event type. */
export const ENGINE_NOTE_TYPE = -1;
export const ENGINE_NOTE_CATEGORY = 'NDBTOP';

function note(at: number, name: string, severity: EventView['severity'], text: string, subjectNodeId: number | null = null): EngineNote {
  return { at, typeId: ENGINE_NOTE_TYPE, name, category: ENGINE_NOTE_CATEGORY, severity, sourceNodeId: 0, subjectNodeId, text, fields: {} };
}

const isLive = (s: ConnectionView['status']): boolean => s === 'live' || s === 'failed-over';
const where = (m: ConnectionView['mgmd']): string => (m ? `management server${m.nodeId !== null ? ` ${m.nodeId}` : ''} at ${m.host}:${m.port}` : 'the management server');

/** The notes a connection change deserves: none for a change of wording only. */
/** `hadEvents`: an event came before the stream went, so a stream that comes back is news (not its first start). */
export function connectionNotes(before: ConnectionView, after: ConnectionView, at: number, hadEvents: boolean): EngineNote[] {
  const out: EngineNote[] = [];
  const moved = before.mgmd?.host !== after.mgmd?.host || before.mgmd?.port !== after.mgmd?.port;
  // A stale session is not a lost one: it stays open and may answer again, and the note must not claim otherwise.
  if (after.status === 'stale' && before.status !== 'stale') {
    const silent = before.mgmd ?? after.mgmd;
    out.push(note(at, 'NdbtopMgmdSilent', 'WARNING', `${where(silent)} stopped answering ndbtop's polls${after.lastError ? `: ${after.lastError}` : ''}`, silent?.nodeId ?? null));
  } else if (before.status === 'stale' && isLive(after.status) && !moved) {
    out.push(note(at, 'NdbtopMgmdAnswers', 'INFO', `${where(after.mgmd)} answers ndbtop's polls again`, after.mgmd?.nodeId ?? null));
  } else if (isLive(after.status) && (!isLive(before.status) || moved)) {
    const how = after.status === 'failed-over' ? 'failed over to' : before.mgmd || before.failovers > 0 ? 'reconnected to' : 'connected to';
    out.push(note(at, 'NdbtopConnected', 'INFO', `ndbtop ${how} ${where(after.mgmd)}${after.serverVersion ? ` (${after.serverVersion})` : ''}`, after.mgmd?.nodeId ?? null));
  } else if (isLive(before.status) && !isLive(after.status)) {
    out.push(note(at, 'NdbtopLostMgmd', 'WARNING', `ndbtop lost ${where(before.mgmd)}${after.lastError ? `: ${after.lastError}` : ''}`, before.mgmd?.nodeId ?? null));
  }
  const wasLive = before.eventStream.status === 'live';
  const nowLive = after.eventStream.status === 'live';
  if (wasLive && !nowLive) out.push(note(at, 'NdbtopLostEvents', 'WARNING', 'ndbtop lost the event stream; state changes arrive by polling until it is back'));
  if (!wasLive && nowLive && hadEvents) out.push(note(at, 'NdbtopEventsBack', 'INFO', 'ndbtop has the event stream again'));
  return out;
}

/** One line for the first `get status`: what the cluster looked like when ndbtop began to watch it. */
export function firstStatusNote(nodes: readonly NodeState[], at: number): EngineNote {
  const count = (type: NodeState['type'], ok: (n: NodeState) => boolean = () => true): number => nodes.filter((n) => n.type === type && ok(n)).length;
  const data = count('NDB');
  const started = count('NDB', (n) => n.status === 'STARTED');
  const mgm = count('MGM', (n) => n.status === 'CONNECTED');
  const api = count('API', (n) => n.status === 'CONNECTED');
  const text = `First status read by ndbtop: ${started} of ${data} data nodes started, ${mgm} of ${count('MGM')} management servers and ${api} of ${count('API')} API nodes connected`;
  return note(at, 'NdbtopFirstStatus', started < data ? 'WARNING' : 'INFO', text);
}
