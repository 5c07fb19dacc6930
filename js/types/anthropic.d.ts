// Types of `filetools/anthropic`.
import type { CallToolResult, CreateToolsOptions, Tools } from './index.js';

/** The image types a read returns. */
export type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<
    | { type: 'text'; text: string }
    | { type: 'image'; source: { type: 'base64'; media_type: ImageMediaType; data: string } }
  >;
  is_error: boolean;
}

export interface AnthropicTools {
  /** For `messages.create({ tools })`. */
  tools: Array<{
    name: string;
    description: string;
    input_schema: { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };
  }>;
  /** The tool_result answering one tool_use block. */
  result(toolUse: { id: string; name: string; input: unknown }): Promise<AnthropicToolResult>;
  /** The user message answering every tool_use block of a response. */
  results(message: { content: Array<{ type: string }> }): Promise<{ role: 'user'; content: AnthropicToolResult[] }>;
  filetools: Tools;
}

export function anthropicTools(toolsOrOptions: Tools | CreateToolsOptions | string): Promise<AnthropicTools>;
export function toolResult(toolUseId: string, result: CallToolResult): AnthropicToolResult;
