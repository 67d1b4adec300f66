/** Every test file of the project at `root`, project-relative and `/`-separated. */
export declare function allTestFiles(root: string): string[];
