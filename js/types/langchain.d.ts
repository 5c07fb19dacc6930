// Types of `agent-filetools/langchain`, in LangChain's own types
// (`@langchain/core`, an optional peer dependency).
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CreateToolsOptions, Tools } from './index.js';

export interface LangchainToolsOptions {
  /**
   * Tools whose input schemas are the `openai-strict` parameters (every
   * argument required and nullable, no other allowed), so that binding them
   * with `strict: true` (`model.bindTools(tools, { strict: true })`, or
   * `convertToOpenAITool(tool, { strict: true })`) gives tools OpenAI's strict
   * mode accepts; the core takes `null` as absent.
   */
  strict?: boolean;
}

export function langchainTools(
  toolsOrOptions: Tools | CreateToolsOptions | string,
  options?: LangchainToolsOptions,
): Promise<StructuredToolInterface[]>;
