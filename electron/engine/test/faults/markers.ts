import { once } from 'node:events';
import { connect } from 'node:net';
import type { ClusterEvent } from '../../../../native-mgm/index.js';

/** InfoEvent (type 49, INFO at level 2): within the monitor's filter, and carrying one free data word. */
const INFO_EVENT = 49;
const MARKER_BASE = 0x4d4b0000;

/**
 * Numbered events put into a management server's cluster log with `report event` (spec §4.17), on a raw
 * short-lived socket so it is not one of the monitor's connections. Each must reach the monitor exactly once:
 * twice means two subscriptions at a time, never means a lost event.
 */
export class Markers {
  /** Local ports of the marker sockets, so connection counts can leave them out. */
  readonly localPorts = new Set<number>();
  /**
   * Marker sockets dialled whose local port is not known yet: the kernel has them ESTABLISHED before Node's
   * 'connect' event tells us the port, so a count taken in between would take a marker for a monitor connection.
   */
  connecting = 0;
  private next = 1;

  /** Sends marker n to every given server (a listener sees only its own server's events); true if one took it. */
  async send(ports: readonly number[]): Promise<number | null> {
    const n = this.next++;
    const word = MARKER_BASE + n;
    const results = await Promise.all(ports.map((port) => this.sendTo(port, word)));
    return results.some(Boolean) ? n : null;
  }

  private async sendTo(port: number, word: number): Promise<boolean> {
    this.connecting += 1;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    try {
      try {
        await Promise.race([once(socket, 'connect'), timeout(2000)]);
        if (socket.localPort) this.localPorts.add(socket.localPort);
      } finally {
        this.connecting -= 1;
      }
      socket.write(`report event\nlength: 2\ndata: ${(1 << 16) | INFO_EVENT} ${word}\n\n`);
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      await Promise.race([waitForText(socket, () => text.includes('\n\n')), timeout(2000)]);
      return /result: ok/.test(text);
    } catch {
      return false;
    } finally {
      socket.destroy();
    }
  }
}

/** The marker number an event carries, or null for any other event. */
export function markerOf(e: Pick<ClusterEvent, 'typeId' | 'data'>): number | null {
  const word = e.typeId === INFO_EVENT ? e.data?.[0] : undefined;
  return word !== undefined && word > MARKER_BASE && word < MARKER_BASE + 0x10000 ? word - MARKER_BASE : null;
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref());
}

function waitForText(socket: NodeJS.EventEmitter, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!done()) return;
      socket.off('data', check);
      resolve();
    };
    socket.on('data', check);
  });
}
