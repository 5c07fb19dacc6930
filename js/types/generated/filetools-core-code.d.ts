/** @module Interface filetools:core/code@0.7.0 **/
export function outline(grammar: Grammar, text: string): Array<OutlineEntry> | undefined;
export function syntaxErrors(grammar: Grammar, text: string, max: number): Array<SyntaxError> | undefined;
export type Grammar = import('./filetools-core-code-types.js').Grammar;
export type SyntaxError = import('./filetools-core-code-types.js').SyntaxError;
export type Stopped = import('./filetools-core-code-types.js').Stopped;
export type OutlineEntry = import('./filetools-core-code-types.js').OutlineEntry;
