/** @module Interface filetools:core/tools@0.1.0 **/
export function definitions(): Array<ToolDefinition>;
export interface Image {
  mimeType: string,
  data: Uint8Array,
  width: number,
  height: number,
}
export type ContentBlock = ContentBlockText | ContentBlockImage;
export interface ContentBlockText {
  tag: 'text',
  val: string,
}
export interface ContentBlockImage {
  tag: 'image',
  val: Image,
}
export interface ToolResult {
  content: Array<ContentBlock>,
  isError: boolean,
  metadata: string,
}
export interface ReadArgs {
  filePath: string,
  offset?: bigint,
  limit?: bigint,
  charOffset?: bigint,
  pages?: string,
}
export interface WriteArgs {
  filePath: string,
  content: string,
}
export interface EditOp {
  oldString: string,
  newString: string,
  replaceAll: boolean,
}
export interface EditArgs {
  filePath: string,
  edits: Array<EditOp>,
}
export interface UndoArgs {
  filePath: string,
}
export interface ToolDefinition {
  name: string,
  description: string,
  inputSchema: string,
}

export class Session {
  /**
   * This type does not have a public constructor.
   */
  private constructor();
  static open(config: string): Session;
  call(tool: string, arguments: string): ToolResult;
  read(args: ReadArgs): ToolResult;
  write(args: WriteArgs): ToolResult;
  edit(args: EditArgs): ToolResult;
  undo(args: UndoArgs): ToolResult;
  save(): string;
  restore(state: string): void;
}
