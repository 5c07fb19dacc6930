// Types of `filetools/openai`.
import type { CreateToolsOptions, Tools } from './index.js';

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** The Responses API's built-in patch tool, offered with the apply-patch tool set. */
export interface ResponsesApplyPatchTool {
  type: 'apply_patch';
}

export interface OpenAITools {
  /** For `chat.completions.create({ tools })`. */
  chatTools: ChatFunctionTool[];
  /** For `responses.create({ tools })`. */
  responsesTools: Array<ResponsesFunctionTool | ResponsesApplyPatchTool>;
  /** Tool messages (and one user message with any images) answering a chat message's tool calls. */
  chatResults(message: { tool_calls?: Array<unknown> | null }): Promise<Array<Record<string, unknown>>>;
  /** `function_call_output` and `apply_patch_call_output` items answering a response's calls. */
  responsesResults(response: { output?: Array<unknown> }): Promise<Array<Record<string, unknown>>>;
  filetools: Tools;
}

export function openaiTools(toolsOrOptions: Tools | CreateToolsOptions | string, options?: { strict?: boolean }): Promise<OpenAITools>;
