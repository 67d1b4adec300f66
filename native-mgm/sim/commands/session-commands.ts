import { decodeVersion, encodeVersion, mysqlVersionOf } from '../../version.js';
import { reply, resultReply } from '../wire/reply.js';
import { intArg, type CommandHandler } from './context.js';

/** Spec §4.1: the NDB number and parts, `mysql-<x.y.z> ndb-<x.y.z>`, and the MySQL release built in (5.7 for 7.x). */
function versionReply(version: number): string {
  const mysql = mysqlVersionOf(version);
  return reply('version', [
    ['id', version],
    ['major', (version >>> 16) & 0xff],
    ['minor', (version >>> 8) & 0xff],
    ['build', version & 0xff],
    ['string', `mysql-${decodeVersion(mysql) ?? ''} ndb-${decodeVersion(version) ?? ''}`],
    ['mysql_major', (mysql >>> 16) & 0xff],
    ['mysql_minor', (mysql >>> 8) & 0xff],
    ['mysql_build', mysql & 0xff],
  ]);
}

export const SESSION_COMMANDS: Record<string, CommandHandler> = {
  'get version': (ctx) => versionReply(ctx.mgmd.version),
  'set clientversion': (ctx) => {
    const major = intArg(ctx, 'major');
    // A major of 0 counts as "not set" (spec §4.2).
    ctx.session.clientVersion = major === 0 ? 0 : encodeVersion(major, intArg(ctx, 'minor'), intArg(ctx, 'build'));
    return resultReply('set clientversion reply', 'Ok');
  },
  // No space after the colon: that is how the server prints it (spec §4.4).
  'get mgmd nodeid': (ctx) => `get mgmd nodeid reply\nnodeid:${ctx.mgmd.nodeId}\n\n`,
  'check connection': () => resultReply('check connection reply', 'Ok'),
  'get session id': (ctx) => reply('get session id reply', [['id', ctx.session.id]]),
  'get session': (ctx) => {
    const id = intArg(ctx, 'id');
    const s = ctx.mgmd.sessions().find((x) => x.id === id);
    if (!s) return reply('get session reply', [['id', 0]]);
    return reply('get session reply', [
      ['id', s.id],
      ['m_stopSelf', 0],
      ['m_stop', 0],
      ['tls', s.tls ? 1 : 0],
      ['parser_buffer_len', 0],
      ['parser_status', s.parsing ? 1 : 0],
    ]);
  },
  // No header at all, one empty line at the end (spec §4.6).
  'list sessions': (ctx) =>
    ctx.mgmd
      .sessions()
      .map((s) => {
        const p = `session.${s.id}.`;
        return `session: ${s.id}\n${p}m_stopSelf: 0\n${p}m_stop: 0\n${p}tls: ${s.tls ? 1 : 0}\n${p}parser.buffer.len: 0\n${p}parser.buffer: \n${p}parser.status: ${s.parsing ? 1 : 0}\n`;
      })
      .join('') + '\n',
  'purge stale sessions': () => resultReply('purge stale sessions reply', 'Ok'),
  // A single line and no empty line; the session stays open (spec §4.20).
  'end session': () => 'end session reply\n',
  bye: (ctx) => {
    ctx.session.closeAfterReply();
    return '';
  },
};
