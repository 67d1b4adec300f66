import { createPrng, type Prng } from '../../sim/state/prng.js';
import { SPEC_REPLIES } from '../fixtures/spec-transcripts.js';

/** What a hostile management server does (issue 12); `mutated` is the bulk of a fuzz run. */
export const BEHAVIOURS = [
  'random-bytes',
  'truncated-reply',
  'huge-line',
  'endless-ping',
  'huge-status',
  'nul-and-invalid-utf8',
  'one-byte-per-100ms',
  'accept-never-answer',
  'mutated',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface HostileCase {
  behaviour: Behaviour;
  seed: number;
}

/** What the server does with one request: bytes to send now, bytes trickled slowly, a PING flood, or nothing. */
export type Answer =
  | { kind: 'send'; bytes: Buffer; thenClose?: boolean }
  | { kind: 'trickle'; bytes: Buffer; everyMs: number }
  | { kind: 'ping-forever'; after: Buffer }
  | { kind: 'silent' };

const REPLY_BY_COMMAND: Record<string, string> = {
  'get version': SPEC_REPLIES.getVersion,
  'set clientversion': SPEC_REPLIES.setClientVersion,
  'get mgmd nodeid': SPEC_REPLIES.getMgmdNodeId,
  'check connection': SPEC_REPLIES.checkConnection,
  'get status': SPEC_REPLIES.getStatus,
  'listen event': SPEC_REPLIES.eventStream,
  'end session': SPEC_REPLIES.endSession,
  'dump events': 'dump events reply\nresult: Ok\nevents: 0\n\n',
};

/** The honest answer of a real server (spec transcripts), or a parser error for anything else. */
export function honestReply(command: string): Buffer {
  return Buffer.from(REPLY_BY_COMMAND[command] ?? `result: Unknown command, '${command}'\n\n`, 'latin1');
}

let hugeStatus: Buffer | null = null;
/** `get status` listing 100,000 nodes (a real cluster has at most 255). Built once: ~20 MB. */
function hugeStatusReply(): Buffer {
  if (hugeStatus) return hugeStatus;
  const parts = ['node status\nnodes: 100000\n'];
  for (let id = 1; id <= 100_000; id++) parts.push(`node.${id}.type: NDB\nnode.${id}.status: STARTED\nnode.${id}.version: 525315\nnode.${id}.node_group: 0\n`);
  parts.push('\n');
  hugeStatus = Buffer.from(parts.join(''), 'latin1');
  return hugeStatus;
}

const TEN_MB_NO_LF = Buffer.alloc(10 * 1024 * 1024, 0x41);

function randomBytes(prng: Prng, max: number): Buffer {
  const out = Buffer.alloc(1 + Math.floor(prng() * max));
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(prng() * 256);
  return out;
}

/** Bytes spliced into values: NUL, invalid UTF-8 (lone continuation, overlong, surrogate), a terminal escape. */
const POISON = [Buffer.from([0]), Buffer.from([0xff, 0xfe]), Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\x1b]0;pwned\x07', 'latin1')];

function poisoned(reply: Buffer, prng: Prng): Buffer {
  const text = reply.toString('latin1');
  const out: Buffer[] = [];
  let last = 0;
  // After each ': ' or '=' (inside a value) now and then.
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    if (prng() < 0.3) {
      out.push(reply.subarray(last, i + 1), POISON[Math.floor(prng() * POISON.length)] ?? Buffer.alloc(0));
      last = i + 1;
    }
  }
  out.push(reply.subarray(last));
  return Buffer.concat(out);
}

function mutated(reply: Buffer, prng: Prng): Buffer {
  const at = Math.floor(prng() * (reply.length + 1));
  switch (Math.floor(prng() * 6)) {
    case 0: {
      const out = Buffer.from(reply);
      if (out.length > 0) out[at % out.length] = Math.floor(prng() * 256);
      return out;
    }
    case 1:
      return Buffer.concat([reply.subarray(0, at), Buffer.from([[10, 13, 58, 61, 32, 45, 0, 255][Math.floor(prng() * 8)] ?? 10]), reply.subarray(at)]);
    case 2:
      return Buffer.concat([reply.subarray(0, at), reply.subarray(at + 1 + Math.floor(prng() * 20))]);
    case 3:
      return reply.subarray(0, at);
    case 4:
      return Buffer.concat([reply.subarray(0, at), randomBytes(prng, 64), reply.subarray(at)]);
    default:
      return Buffer.concat([reply, reply.subarray(0, at)]);
  }
}

/**
 * Turns a case into per-request answers. The n-th request of a connection is answered honestly until the
 * case's chosen request, which gets the hostile answer; so the bootstrap sometimes succeeds and the attack
 * lands on `get status` or `listen event`, where a naive client would trust more.
 */
export function answerer(c: HostileCase): (command: string, index: number) => Answer {
  const prng = createPrng(c.seed);
  const target = Math.floor(prng() * 4);
  return (command, index) => {
    const honest = honestReply(command);
    if (c.behaviour === 'accept-never-answer') return { kind: 'silent' };
    if (c.behaviour === 'one-byte-per-100ms') return { kind: 'trickle', bytes: honest, everyMs: 100 };
    if (index < target && command !== 'get status' && command !== 'listen event') return { kind: 'send', bytes: honest };
    switch (c.behaviour) {
      case 'random-bytes':
        return { kind: 'send', bytes: randomBytes(prng, 4096), thenClose: prng() < 0.5 };
      case 'truncated-reply':
        return { kind: 'send', bytes: honest.subarray(0, Math.floor(prng() * honest.length)), thenClose: prng() < 0.5 };
      case 'huge-line':
        return { kind: 'send', bytes: TEN_MB_NO_LF };
      case 'endless-ping':
        return { kind: 'ping-forever', after: command === 'listen event' ? Buffer.from(SPEC_REPLIES.listenEventOk, 'latin1') : Buffer.alloc(0) };
      case 'huge-status':
        return { kind: 'send', bytes: command === 'get status' ? hugeStatusReply() : honest };
      case 'nul-and-invalid-utf8':
        return { kind: 'send', bytes: poisoned(honest, prng) };
      default:
        return { kind: 'send', bytes: mutated(honest, prng), thenClose: prng() < 0.1 };
    }
  };
}
