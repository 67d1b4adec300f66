/** Test files not run on Windows, each with why (scripts/test-platforms.mjs). */
export declare const POSIX_ONLY: Record<string, string>;
