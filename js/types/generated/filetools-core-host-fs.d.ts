/** @module Interface filetools:core/host-fs@0.2.0 **/
export function stat(path: string): Metadata;
export function read(path: string, offset: bigint, len: number): Uint8Array;
export function listDir(path: string): Array<DirEntry>;
export function writeFile(path: string, data: Uint8Array, precondition: Precondition): Metadata;
export function removeFile(path: string, precondition: Precondition): void;
export function createDir(path: string): void;
export function rename(source: string, destination: string, precondition: Precondition): Metadata;
export function beginChange(intent: Uint8Array): void;
export function endChange(): void;
export function sha256(data: Uint8Array): string | undefined;
export function claimUnfinished(): Uint8Array | undefined;
export type Metadata = import('./filetools-core-types.js').Metadata;
export type FsError = import('./filetools-core-types.js').FsError;
export interface FileStamp {
  size: bigint,
  mtimeNs: bigint,
  sha256?: string,
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
export type DirEntry = import('./filetools-core-types.js').DirEntry;
