import { reply, resultReply } from '../wire/reply.js';
import type { CommandHandler } from './context.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `DD-Mon-YYYY`, the date format of `list certs` (spec §9). */
function ddMonYyyy(date: Date): string {
  return `${String(date.getUTCDate()).padStart(2, '0')}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()}`;
}

const commonName = (subject: string): string => /(?:^|\n)CN=([^\n]*)/.exec(subject)?.[1] ?? subject;

/** The TLS commands of spec §9, with the server's counters. */
export const TLS_COMMANDS: Record<string, CommandHandler> = {
  'start tls': (ctx) => {
    if (ctx.session.tls) return resultReply('start tls reply', 'Already Connected');
    // Without keys the server has no TLS context: the session goes on in clear text.
    if (!ctx.mgmd.tlsAvailable) return resultReply('start tls reply', 'Failed');
    ctx.session.startTlsAfterReply();
    return resultReply('start tls reply', 'Ok');
  },
  'list certs': (ctx) => {
    const lines = ctx.mgmd
      .sessions()
      .flatMap((s) => {
        const cert = s.tls ? s.peerCert : null;
        if (cert === null) return [];
        return `session: ${s.id}\naddress: ${s.address}\nserial: ${cert.serialNumber.toUpperCase()}\nname: ${commonName(cert.subject)}\nexpires: ${ddMonYyyy(new Date(cert.validTo))}\n`;
      });
    return `list certs reply\n${lines.join('')}\n`;
  },
  'get tls stats': (ctx) => {
    const sessions = ctx.mgmd.sessions();
    return reply('get tls stats reply', [
      ['accepted', ctx.mgmd.accepted],
      ['upgraded', ctx.mgmd.upgraded],
      ['current', sessions.length],
      ['tls', sessions.filter((s) => s.tls).length],
      ['authfail', ctx.mgmd.authfail],
    ]);
  },
};
