import type { ServerVersion } from '../../types.js';
import type { Reply } from '../frames.js';
import { acceptReply } from './reply-fields.js';

/** `get version` (spec §4.1); the mysql_* keys are optional because very old servers lack them. */
export function parseVersionReply(reply: Reply): ServerVersion {
  const { fields } = acceptReply(reply, 'get version');
  return {
    id: fields.int('id'),
    major: fields.int('major'),
    minor: fields.int('minor'),
    build: fields.int('build'),
    string: fields.str('string'),
    mysqlMajor: fields.optInt('mysql_major'),
    mysqlMinor: fields.optInt('mysql_minor'),
    mysqlBuild: fields.optInt('mysql_build'),
  };
}
