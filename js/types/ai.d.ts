// Types of `filetools/ai`.
import type { Tool } from 'ai';
import type { CallToolResult, CreateToolsOptions, Tools } from './index.js';

export function aiTools(
  toolsOrOptions: Tools | CreateToolsOptions | string,
): Promise<{ read: Tool; write: Tool; edit: Tool; undo: Tool }>;
export function modelOutput(result: CallToolResult): unknown;
