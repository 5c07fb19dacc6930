// Types of `agent-filetools/mastra`, in Mastra's own types (`@mastra/core`
// 0.24, an optional peer dependency): the tools go into an `Agent`'s
// `tools` as any of its tools do.
import type { Tool } from '@mastra/core/tools';
import type { CallToolResult, CreateToolsOptions, Tools } from './index.js';

/** What a tool gives Mastra, and so the model: the answer's text, or `{ error: true, message }` when the call failed. */
export type MastraToolOutput = string | { error: true; message: string };

/**
 * One tool: it runs the filetools call. Its input schema is the tool's JSON
 * Schema (not a zod schema), which Mastra converts for the model and the
 * core checks.
 */
export type FiletoolsMastraTool = Omit<Tool, 'inputSchema'> & { inputSchema: Record<string, unknown> };

/** The tools by name: `read`, `write`, `edit`, `undo`, `grep` and `find`, or those of the configured tool sets. */
export function mastraTools(
  toolsOrOptions: Tools | CreateToolsOptions | string,
): Promise<Record<string, FiletoolsMastraTool>>;
/** A filetools result as a Mastra tool's output. */
export function modelOutput(result: CallToolResult): MastraToolOutput;
