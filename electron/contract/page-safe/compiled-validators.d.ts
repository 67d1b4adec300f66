/**
 * The page's contract validators, generated at build time by `scripts/contract-validators.ts` (the renderer's Vite
 * build and the preload's esbuild bundle both resolve this name to its output); `compiledPageValidators` wraps them.
 */
declare module 'virtual:ndbtop-contract-validators' {
  /** As Ajv's standalone code exports one: a verdict, and on failure the first error on the function. */
  type Validator = ((value: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };
  export const push: Validator;
  /** One per request of the contract, by its name. */
  export const responses: Readonly<Record<string, Validator>>;
}
