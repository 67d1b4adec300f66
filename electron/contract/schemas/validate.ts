import type { z } from 'zod';
import { contractMismatch } from '../page-safe/contract-error.js';
import type { PageValidators } from '../page-safe/page-validators.js';
import { PushMessageSchema, REQUESTS, type ParsedRequestOf, type PushMessage, type RequestName, type ResponseOf } from './channels.js';

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(REQUESTS, name);
}

function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw contractMismatch(what, issue?.path ?? [], issue?.message);
  }
  return result.data;
}

/** Engine side: whatever arrives from a renderer or a browser is untrusted until it passes here. */
export function parseRequest<K extends RequestName>(name: K, value: unknown): ParsedRequestOf<K> {
  return check(REQUESTS[name].request, value ?? {}, `request ${name}`) as ParsedRequestOf<K>;
}

/** UI side: a response that does not match is a bug or a version skew, reported rather than rendered. */
export function parseResponse<K extends RequestName>(name: K, value: unknown): ResponseOf<K> {
  return check(REQUESTS[name].response, value, `response to ${name}`) as ResponseOf<K>;
}

export function parsePush(value: unknown): PushMessage {
  return check(PushMessageSchema, value, 'push message');
}

/** The UI side's checks through zod: what Node clients of the contract (tests, scripts) use; the page's are compiled. */
export const zodPageValidators: PageValidators = { requestNames: Object.keys(REQUESTS) as RequestName[], push: parsePush, response: parseResponse };
