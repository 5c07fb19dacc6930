/** @module Interface filetools:core/tools@0.7.0 **/
export function definitions(): Array<ToolDefinition>;
export function trapped(tool: string, arguments: string, cause: TrapCause, memoryKept: boolean): ToolResult;
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
  symbol?: string,
  encoding?: string,
}
export interface WriteArgs {
  filePath: string,
  content: string,
  encoding?: string,
  expect?: string,
}
export interface EditOp {
  oldString: string,
  newString: string,
  replaceAll: boolean,
}
export interface EditArgs {
  filePath: string,
  edits: Array<EditOp>,
  encoding?: string,
  expect?: string,
}
export interface UndoArgs {
  filePath: string,
  expect?: string,
}
export interface ToolDefinition {
  name: string,
  description: string,
  inputSchema: string,
}
export type TrapCause = TrapCauseMemory | TrapCauseTime | TrapCauseStack | TrapCauseFault;
export interface TrapCauseMemory {
  tag: 'memory',
  val: bigint,
}
export interface TrapCauseTime {
  tag: 'time',
  val: bigint,
}
export interface TrapCauseStack {
  tag: 'stack',
}
export interface TrapCauseFault {
  tag: 'fault',
  val: string,
}
export interface Generations {
  ledger: bigint,
  history: bigint,
}
export interface LedgerChange {
  changed: Array<[string, string]>,
  removed: Array<string>,
}
export interface KeptVersion {
  sha256: string,
  data: Uint8Array,
}
export interface HistoryChange {
  changed: Array<[string, string]>,
  removed: Array<string>,
  seq: bigint,
  added: Array<KeptVersion>,
  dropped: Array<string>,
}
export interface Checkpoint {
  core: string,
  generations: Generations,
  ledger?: LedgerChange,
  history?: HistoryChange,
}
export interface KeptMemory {
  core: string,
  records: Array<[string, string]>,
  entries: Array<[string, string]>,
  seq: bigint,
  versions: Array<KeptVersion>,
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
  schema(format: string): string;
  forgetOutputs(): void;
  save(): string;
  restore(state: string): void;
  checkpoint(held: Generations): Checkpoint;
  resume(kept: KeptMemory): Generations;
}
