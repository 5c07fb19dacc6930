/** @module Interface filetools:core/code-types@0.7.0 **/
/**
 * # Variants
 * 
 * ## `"rust"`
 * 
 * ## `"python"`
 * 
 * ## `"javascript"`
 * 
 * ## `"typescript"`
 * 
 * ## `"tsx"`
 * 
 * ## `"go"`
 * 
 * ## `"java"`
 * 
 * ## `"c"`
 * 
 * ## `"cpp"`
 */
export type Grammar = 'rust' | 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'java' | 'c' | 'cpp';
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
export interface OutlineEntry {
  kind: string,
  name: string,
  visibility?: string,
  start: bigint,
  end: bigint,
  depth: number,
}
