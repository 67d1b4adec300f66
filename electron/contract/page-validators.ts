import type { PushMessage, RequestName, ResponseOf } from './channels.js';
import { ContractError } from './contract-error.js';

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

/** A validator as Ajv's standalone code exports it: a verdict, and on failure the first error on the function. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}
export interface CompiledValidators {
  push: CompiledValidator;
  /** One per request of the contract, by its name. */
  responses: Readonly<Record<string, CompiledValidator>>;
}

function check<T>(validate: CompiledValidator | undefined, value: unknown, what: string): T {
  if (!validate) throw new ContractError(`invalid ${what}: the contract has no such request`);
  if (validate(value)) return value as T;
  const issue = validate.errors?.[0];
  // A JSON pointer (/nodes/3/status) read as zod prints a path (nodes.3.status), so both sides word errors alike.
  const path = (issue?.instancePath ?? '')
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  throw new ContractError(`invalid ${what}${path ? ` at ${path}` : ''}: ${issue?.message ?? 'does not match the contract'}`);
}

export function compiledPageValidators(compiled: CompiledValidators): PageValidators {
  return {
    requestNames: Object.keys(compiled.responses) as RequestName[],
    push: (value) => check<PushMessage>(compiled.push, value, 'push message'),
    response: <K extends RequestName>(name: K, value: unknown) => check<ResponseOf<K>>(compiled.responses[name], value, `response to ${name}`),
  };
}
