/** @module Interface filetools:core/host-fs@0.7.0 **/
export function stat(path: string): Metadata;
export function read(path: string, offset: bigint, len: number): Uint8Array;
export function listDir(path: string): Array<DirEntry>;
export function listNames(path: string): Array<DirEntry>;
export function writeFile(path: string, data: Uint8Array, precondition: Precondition): Metadata;
export function removeFile(path: string, precondition: Precondition): void;
export function createDir(path: string): void;
export function rename(source: string, destination: string, precondition: Precondition): Metadata;
export function beginChange(intent: Uint8Array): void;
export function endChange(): void;
export function batchBegin(): boolean;
export function batchEnd(commit: boolean): void;
export function digests(data: Uint8Array): ContentDigests | undefined;
export function claimUnfinished(): Uint8Array | undefined;
export function scanStart(files: Array<ScanFile>, request: ScanRequest): bigint | undefined;
export function scanResults(ticket: bigint): Array<Result<ScanOutcome, FsError>>;
export function walkStart(dirs: Array<string>, request: string): bigint | undefined;
export function walkResults(ticket: bigint): Array<string>;
export type Metadata = import('./filetools-core-types.js').Metadata;
export type FsError = import('./filetools-core-types.js').FsError;
export interface ContentDigests {
  sha256: string,
  xxh3?: string,
}
export interface BatchFailure {
  index: number,
  error: FsError,
  stuck: Uint32Array,
}
export type DirEntry = import('./filetools-core-types.js').DirEntry;
export interface ScanFile {
  path: string,
  size: bigint,
}
export interface ScanRequest {
  config: string,
  pattern: string,
  caseInsensitive: boolean,
  multiline: boolean,
  firstOnly: boolean,
}
export interface FileStamp {
  size: bigint,
  mtimeNs: bigint,
  sha256?: string,
  xxh3?: string,
}
export type Precondition = PreconditionAny | PreconditionAbsent | PreconditionMatches;
export interface PreconditionAny {
  tag: 'any',
}
export interface PreconditionAbsent {
  tag: 'absent',
}
export interface PreconditionMatches {
  tag: 'matches',
  val: FileStamp,
}
export type ScanOutcome = ScanOutcomeBinary | ScanOutcomeTooLarge | ScanOutcomeMatches;
export interface ScanOutcomeBinary {
  tag: 'binary',
}
export interface ScanOutcomeTooLarge {
  tag: 'too-large',
}
export interface ScanOutcomeMatches {
  tag: 'matches',
  val: bigint,
}
export type Result<T, E> = { tag: 'ok', val: T } | { tag: 'err', val: E };
