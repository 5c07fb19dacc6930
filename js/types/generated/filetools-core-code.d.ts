/** @module Interface filetools:core/code@0.1.0 **/
export function outline(language: string, text: string): Array<Symbol> | undefined;
export function syntaxErrors(language: string, text: string, max: number): Array<SyntaxError> | undefined;
export interface SyntaxError {
  line: bigint,
  message: string,
}
/**
 * # Variants
 * 
 * ## `"time"`
 * 
 * ## `"memory"`
 */
export type Stopped = 'time' | 'memory';
export interface Symbol {
  kind: string,
  name: string,
  visibility?: string,
  start: bigint,
  end: bigint,
  depth: number,
}
