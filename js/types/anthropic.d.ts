// Types of `agent-filetools/anthropic`, in the Anthropic SDK's own types
// (`@anthropic-ai/sdk`, an optional peer dependency) so that what the
// adapter gives goes into `messages.create` without a cast.
import type Anthropic from '@anthropic-ai/sdk';
import type { CallToolResult, CreateToolsOptions, Tools } from './index.js';

/** A `tool_result` block as the adapter makes it: text and image blocks, `is_error` always set. */
export interface AnthropicToolResult extends Anthropic.ToolResultBlockParam {
  content: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam>;
  is_error: boolean;
}

/** The user message answering a response's tool calls. */
export interface AnthropicToolResults extends Anthropic.UserMessageParam {
  content: AnthropicToolResult[];
}

export interface AnthropicToolsOptions {
  /**
   * Tools with `strict: true` and input schemas Anthropic's strict tool use
   * accepts (the `anthropic-strict` schema format), so the model's input
   * always matches them.
   */
  strict?: boolean;
}

export interface AnthropicTools {
  /** For `messages.create({ tools })`: custom tools, or the built-in text editor with the text-editor set. */
  tools: Array<Anthropic.Tool | Anthropic.ToolTextEditor20250728>;
  /** The tool_result answering one tool_use block. */
  result(toolUse: Pick<Anthropic.ToolUseBlock, 'id' | 'name' | 'input'>): Promise<AnthropicToolResult>;
  /** The user message answering every tool_use block of a response. */
  results(message: Pick<Anthropic.Message, 'content'>): Promise<AnthropicToolResults>;
  filetools: Tools;
}

export function anthropicTools(
  toolsOrOptions: Tools | CreateToolsOptions | string,
  options?: AnthropicToolsOptions,
): Promise<AnthropicTools>;
export function toolResult(toolUseId: string, result: CallToolResult): AnthropicToolResult;
