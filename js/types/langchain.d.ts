// Types of `filetools/langchain`.
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CreateToolsOptions, Tools } from './index.js';

export function langchainTools(toolsOrOptions: Tools | CreateToolsOptions | string): Promise<StructuredToolInterface[]>;
