import { constants, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';

export type AuthPluginName = 'caching_sha2_password' | 'sha256_password';

export interface HostileAuthServer {
  readonly url: string;
  /** Every password the server recovered from what clients sent. */
  readonly captured: string[];
  /** Whether a client asked for the server's public key. */
  readonly keyRequests: number;
  close(): Promise<void>;
}

// PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH, PLUGIN_AUTH_LENENC_CLIENT_DATA, LONG_PASSWORD, LONG_FLAG, CONNECT_WITH_DB, TRANSACTIONS: no SSL.
const CAPABILITIES = 0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x80000 | 0x200000;

function packet(seq: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = seq & 0xff;
  return Buffer.concat([head, payload]);
}

function greeting(scramble: Buffer, plugin: string): Buffer {
  const caps = Buffer.alloc(2);
  caps.writeUInt16LE(CAPABILITIES & 0xffff);
  const capsHigh = Buffer.alloc(2);
  capsHigh.writeUInt16LE(CAPABILITIES >>> 16);
  return Buffer.concat([
    Buffer.from([10]), Buffer.from('8.4.3-cluster\0'), Buffer.from([7, 0, 0, 0]), scramble.subarray(0, 8), Buffer.from([0]), caps,
    Buffer.from([45, 2, 0]), capsHigh, Buffer.from([21]), Buffer.alloc(10), scramble.subarray(8, 20), Buffer.from([0]), Buffer.from(`${plugin}\0`),
  ]);
}

/** The password from what caching_sha2_password and sha256_password send under the server's key. */
function recover(blob: Buffer, scramble: Buffer, key: KeyObject): string | null {
  try {
    const xored = privateDecrypt({ key, oaepHash: 'sha1', padding: constants.RSA_PKCS1_OAEP_PADDING }, blob);
    const plain = Buffer.from(xored.map((b, i) => b ^ (scramble[i % scramble.length] ?? 0)));
    return plain.toString('utf8').replace(/\0$/, '');
  } catch {
    return null;
  }
}

const OK = Buffer.from([0, 0, 0, 2, 0, 0, 0]);
const denied = (): Buffer => Buffer.concat([Buffer.from([0xff, 0x15, 0x04]), Buffer.from('#28000Access denied')]);

/**
 * A fake MySQL server after the password, written from the protocol (mysql2's server side offers only
 * mysql_native_password): it greets with `plugin`, switches the client to it, asks caching_sha2_password's "full
 * authentication" (or is asked by sha256_password for its key), hands out its own RSA public key and decrypts what
 * comes back with its private key. A client that sends the password under that key loses it to `captured`.
 */
export async function startHostileAuthServer(plugin: AuthPluginName, keys: { publicPem: string; privateKey: KeyObject }): Promise<HostileAuthServer> {
  const captured: string[] = [];
  let keyRequests = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const scramble = Buffer.from(randomBytes(20).map((b) => (b % 94) + 33));
    let buffered = Buffer.alloc(0);
    let step: 'response' | 'switched' | 'more' | 'in' = 'response';
    const send = (seq: number, payload: Buffer): void => void socket.write(packet(seq, payload));
    const moreData = (seq: number, bytes: Buffer): void => send(seq, Buffer.concat([Buffer.from([1]), bytes]));
    const onEncrypted = (seq: number, data: Buffer): void => {
      const password = recover(data, scramble, keys.privateKey);
      if (password === null) return send(seq, denied());
      captured.push(password);
      step = 'in';
      send(seq, OK);
    };
    const handle = (seq: number, data: Buffer): void => {
      const next = seq + 1;
      // Logged in: it has what it wanted, and answers no query.
      if (step === 'in') return;
      if (step === 'response') {
        // The client's own choice of plugin, or a switch to ours.
        const ours = data.includes(Buffer.from(`${plugin}\0`));
        step = 'switched';
        if (ours && plugin === 'caching_sha2_password') {
          step = 'more';
          return moreData(next, Buffer.from([4]));
        }
        return send(next, Buffer.concat([Buffer.from([0xfe]), Buffer.from(`${plugin}\0`), scramble, Buffer.from([0])]));
      }
      const askedForKey = data.length === 1 && data[0] === (plugin === 'caching_sha2_password' ? 2 : 1);
      if (askedForKey) {
        keyRequests += 1;
        return moreData(next, Buffer.from(keys.publicPem));
      }
      if (step === 'switched' && plugin === 'caching_sha2_password') {
        // The scramble token: ask for the password itself.
        step = 'more';
        return moreData(next, Buffer.from([4]));
      }
      onEncrypted(next, data);
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = buffered.readUIntLE(0, 3);
        if (buffered.length < 4 + length) return;
        const seq = buffered[3] ?? 0;
        const data = buffered.subarray(4, 4 + length);
        buffered = buffered.subarray(4 + length);
        handle(seq, data);
      }
    });
    send(0, greeting(scramble, plugin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mysql://app@127.0.0.1:${port}`,
    captured,
    get keyRequests() {
      return keyRequests;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
