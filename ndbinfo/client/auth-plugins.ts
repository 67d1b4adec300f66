import type { authPlugins, ConnectionOptions } from 'mysql2';
import { NdbinfoError } from './errors.js';

type AuthPlugins = NonNullable<ConnectionOptions['authPlugins']>;

/** How far the SQL node has proved itself, which decides what ndbtop may send it of the password. */
export interface ServerProof {
  /** TLS with the server's certificate checked against a CA the user gave (--sql-ca). */
  verifiedTls: boolean;
  /** The server's RSA public key as the user gave it (--sql-server-public-key): a key the server did not choose. */
  serverPublicKey?: string;
  /** The SQL node as the user named it, for the message. */
  where: string;
}

/** caching_sha2_password's "perform full authentication" (AuthMoreData 0x04): the server wants the password itself. */
const FULL_AUTH = Buffer.from([4]);

function refusal(proof: ServerProof, plugin: string): Error {
  const why = new NdbinfoError(
    'UNSAFE_AUTH',
    `${proof.where}: the server asks for the password itself (${plugin}) on a connection that has not proved which server it is, and ndbtop does not send it there: ` +
      'use TLS with the server verified (--sql-ca FILE, the CA that signed its certificate), or give the server\'s RSA public key (--sql-server-public-key FILE), ' +
      'or give the MySQL user mysql_native_password',
  );
  // mysql2 rewrites the code of the error a plugin throws; ours travels as the cause (classify unwraps it).
  return new Error(why.message, { cause: why });
}

/**
 * mysql2's own caching_sha2_password and sha256_password, guarded. Unguarded, mysql2 asks a server without TLS for
 * its RSA public key and sends the password encrypted under whatever key comes back, and over TLS it sends the
 * password in clear without asking whether the certificate was checked: a hostile SQL node reads it either way.
 * Guarded, the password leaves only under a key the user gave or over TLS whose server was verified; otherwise the
 * login is refused before anything of the password is sent. The fast path (a scramble, as mysql_native_password's)
 * is unchanged. Naming these two plugins also makes mysql2 answer the handshake with mysql_native_password first,
 * so every use of them passes through here.
 */
export function guardedAuthPlugins(stock: typeof authPlugins, proof: ServerProof): AuthPlugins {
  const keyed = { ...(proof.serverPublicKey !== undefined ? { serverPublicKey: proof.serverPublicKey } : {}), overrideIsSecure: proof.verifiedTls };
  const mayReveal = proof.verifiedTls || proof.serverPublicKey !== undefined;
  const cachingSha2 = stock.caching_sha2_password(keyed);
  const sha256 = stock.sha256_password(keyed);
  return {
    caching_sha2_password: (ctx) => {
      const inner = cachingSha2(ctx);
      let first = true;
      return (data: Buffer) => {
        if (!first && !mayReveal && FULL_AUTH.equals(data)) throw refusal(proof, 'caching_sha2_password full authentication');
        first = false;
        return inner(data);
      };
    },
    sha256_password: (ctx) => {
      const inner = sha256(ctx);
      // mysql2's sha256_password sends the password in clear on any TLS socket, verified or not: only a verified
      // one may have it that way, and an unverified one gets the user's key only without TLS in between.
      const tls = Boolean(ctx.connection.config.ssl);
      return (data: Buffer) => {
        if (!mayReveal || (tls && !proof.verifiedTls)) throw refusal(proof, 'sha256_password');
        return inner(data);
      };
    },
  };
}
