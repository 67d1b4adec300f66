import type * as Compiled from 'virtual:ndbtop-contract-validators';
import type { PushMessage, RequestName, ResponseOf } from '../schemas/channels.js';
import { contractMismatch } from './contract-error.js';

/**
 * How the UI side (`buildApi`, under both transports) checks what the engine sends it. Two implementations give the
 * same answers: zod's (`validate.ts`, in Node) and the page's, compiled from the same schemas to plain functions at
 * build time (`scripts/contract-validators.ts`). The page's CSP forbids the code generation zod would use, so there
 * it would parse interpreted, and constructing its schemas on load was the page's longest task.
 */
export interface PageValidators {
  readonly requestNames: readonly RequestName[];
  push(value: unknown): PushMessage;
  response<K extends RequestName>(name: K, value: unknown): ResponseOf<K>;
}

/** What the generated module exports (declared in `compiled-validators.d.ts`). */
export type CompiledValidators = Pick<typeof Compiled, 'push' | 'responses'>;
type CompiledValidator = CompiledValidators['push'];

function check<T>(validate: CompiledValidator | undefined, value: unknown, what: string): T {
  if (!validate) throw contractMismatch(what, [], 'the contract has no such request');
  if (validate(value)) return value as T;
  const issue = validate.errors?.[0];
  // A JSON pointer (/nodes/3/status) as the keys of a path, the way zod reports one.
  const path = (issue?.instancePath ?? '')
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  throw contractMismatch(what, path, issue?.message);
}

export function compiledPageValidators(compiled: CompiledValidators): PageValidators {
  return {
    requestNames: Object.keys(compiled.responses) as RequestName[],
    push: (value) => check<PushMessage>(compiled.push, value, 'push message'),
    response: <K extends RequestName>(name: K, value: unknown) => check<ResponseOf<K>>(compiled.responses[name], value, `response to ${name}`),
  };
}
