/** @module Interface filetools:core/scanner@0.7.0 **/
export function scan(files: Array<ScanFile>, request: ScanRequest): Array<Result<ScanOutcome, FsError>>;
export function walk(dirs: Array<string>, request: string): Array<string>;
export type FsError = import('./filetools-core-types.js').FsError;
export type ScanFile = import('./filetools-core-host-fs.js').ScanFile;
export type ScanRequest = import('./filetools-core-host-fs.js').ScanRequest;
export type ScanOutcome = import('./filetools-core-host-fs.js').ScanOutcome;
export type Result<T, E> = { tag: 'ok', val: T } | { tag: 'err', val: E };
