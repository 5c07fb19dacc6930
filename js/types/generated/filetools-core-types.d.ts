/** @module Interface filetools:core/types@0.7.0 **/
/**
 * # Variants
 * 
 * ## `"file"`
 * 
 * ## `"directory"`
 * 
 * ## `"symlink"`
 * 
 * ## `"fifo"`
 * 
 * ## `"socket"`
 * 
 * ## `"block-device"`
 * 
 * ## `"char-device"`
 * 
 * ## `"other"`
 */
export type FileKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'block-device' | 'char-device' | 'other';
export interface Metadata {
  kind: FileKind,
  size: bigint,
  mtimeNs: bigint,
  readonly: boolean,
  createdNs: bigint,
  accessedNs: bigint,
  mode: number,
}
export type FsError = FsErrorNotFound | FsErrorPermissionDenied | FsErrorIsADirectory | FsErrorNotADirectory | FsErrorOutsideSandbox | FsErrorReadOnly | FsErrorConflict | FsErrorIo;
export interface FsErrorNotFound {
  tag: 'not-found',
}
export interface FsErrorPermissionDenied {
  tag: 'permission-denied',
}
export interface FsErrorIsADirectory {
  tag: 'is-a-directory',
}
export interface FsErrorNotADirectory {
  tag: 'not-a-directory',
}
export interface FsErrorOutsideSandbox {
  tag: 'outside-sandbox',
}
export interface FsErrorReadOnly {
  tag: 'read-only',
}
export interface FsErrorConflict {
  tag: 'conflict',
}
export interface FsErrorIo {
  tag: 'io',
  val: string,
}
export interface DirEntry {
  name: string,
  kind: FileKind,
  size: bigint,
  mtimeNs: bigint,
}
