/** Types of import-cycles.js for the tests (the scripts are plain JavaScript run by node). */
export declare function importCycles(roots: string[], cwd?: string): string[][];
