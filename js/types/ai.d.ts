// Types of `agent-filetools/ai`, in the AI SDK's own types (`ai`, an
// optional peer dependency): the tools are a `ToolSet` for `generateText`
// and `streamText`.
import type { Tool, ToolResultPart } from 'ai';
import type { Args, CallToolResult, CreateToolsOptions, Tools } from './index.js';

/** One tool: it runs the filetools call and shows the model its text and images. */
export type FiletoolsAiTool = Tool<Args, CallToolResult>;

/** The tools by name: `read`, `write`, `edit`, `undo`, `grep` and `find`, or those of the configured tool sets. */
export function aiTools(toolsOrOptions: Tools | CreateToolsOptions | string): Promise<Record<string, FiletoolsAiTool>>;
/** A filetools result as the AI SDK's tool output for the model. */
export function modelOutput(result: CallToolResult): ToolResultPart['output'];
