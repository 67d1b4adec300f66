/**
 * The page's contract validators, generated at build time by `scripts/contract-validators.ts` (the renderer's Vite
 * build and the preload's esbuild bundle both resolve this name to its output); `compiledPageValidators` wraps them.
 */
declare module 'virtual:ndbtop-contract-validators' {
  type Validator = ((value: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };
  export const push: Validator;
  export const responses: Readonly<Record<string, Validator>>;
}
