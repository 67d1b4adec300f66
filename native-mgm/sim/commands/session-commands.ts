import { encodeVersion } from '../../version.js';
import { reply, resultReply } from '../wire/reply.js';
import { intArg, type CommandHandler } from './context.js';

function versionReply(version: number): string {
  const [major, minor, build] = [(version >>> 16) & 0xff, (version >>> 8) & 0xff, version & 0xff];
  const text = `${major}.${minor}.${build}`;
  return reply('version', [
    ['id', version],
    ['major', major],
    ['minor', minor],
    ['build', build],
    ['string', `mysql-${text} ndb-${text}`],
    ['mysql_major', major],
    ['mysql_minor', minor],
    ['mysql_build', build],
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
