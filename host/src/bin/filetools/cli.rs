//! The command line: every command and flag, with the help text `--help`
//! prints.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use filetools::Format;

/// The read, write, edit and undo tools of a coding agent, from a shell,
/// over JSON lines, or to an MCP client.
#[derive(Debug, Parser)]
#[command(
    name = "filetools",
    version,
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// One session over JSON lines: a call {"tool": "read", "args": {...}}
    /// per stdin line, a result {"content": [...], "isError": false,
    /// "structuredContent": {...}} per stdout line.
    Session(SessionArgs),
    /// An MCP server over stdio: one session for the connection.
    Mcp(McpArgs),
    /// An MCP server over Streamable HTTP, for many clients, workspaces and
    /// replicas: sessions kept in a store under handles the server mints.
    Serve(ServeArgs),
    /// Print the tool definitions as a JSON array, for a model's tool list.
    Schema(SchemaArgs),
    /// Read one file or directory; prints what the model would see, exit
    /// status 1 when it is an error.
    Read(ReadArgs),
    /// Create or replace one file.
    Write(WriteArgs),
    /// Replace text in one file.
    Edit(EditArgs),
    /// Take back the last change of one file made with the same --state.
    Undo(PathArgs),
    /// List the component's imports and check them against the allowed set.
    Imports,
    /// Show where the precompiled-component cache is and what it holds, or
    /// clear it.
    Cache(CacheArgs),
}

/// What `cache` takes.
#[derive(Debug, clap::Args)]
pub struct CacheArgs {
    /// Remove every artifact (each start then stores its own again).
    #[arg(long)]
    pub clear: bool,
}

/// The config and memory of the session a command opens.
#[derive(Debug, clap::Args)]
pub struct Limits {
    /// Session config as a JSON object, e.g. '{"max_lines": 500}' (docs/guide.md,
    /// "Configuration").
    #[arg(long, value_name = "JSON")]
    pub config: Option<String>,
    /// The tool sets to offer, comma-separated: filetools (read, write,
    /// edit, undo; the default), text-editor, apply-patch, mcp-filesystem,
    /// notebook.
    #[arg(long, value_name = "SETS", value_delimiter = ',')]
    pub tools: Vec<String>,
    /// Memory the component may use, in MiB.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_mib: u64,
}

#[derive(Debug, clap::Args)]
pub struct SessionArgs {
    /// The directory the tools may see.
    #[arg(long, value_name = "DIR")]
    pub root: PathBuf,
    /// Refuse every write, edit and undo.
    #[arg(long)]
    pub read_only: bool,
    /// Longest input line; a longer one gets an error answer.
    #[arg(long, value_name = "N", default_value_t = filetools::protocol::DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: u64,
    #[command(flatten)]
    pub limits: Limits,
}

#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// The directory the tools may see.
    #[arg(long, value_name = "DIR")]
    pub root: PathBuf,
    /// Offer only the tools that read, and refuse every change.
    #[arg(long)]
    pub read_only: bool,
    /// How often a long call reports progress to a client that asked, in
    /// milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub progress_ms: u64,
    /// Keep the session (what was read, dedup records, undo history) in
    /// FILE: restored at start, saved after every call, locked while the
    /// server runs. A client that starts the server anew for each call
    /// keeps one session.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// How long to wait for --state FILE while another filetools process
    /// holds it, in seconds; then the server stops, naming the file.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub lock_wait: u64,
    /// Longest message; a longer one gets a parse error.
    #[arg(long, value_name = "N", default_value_t = filetools::protocol::DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: u64,
    #[command(flatten)]
    pub limits: Limits,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The directory the tools may see, served at /mcp.
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "workspaces",
        conflicts_with = "workspaces"
    )]
    pub root: Option<PathBuf>,
    /// A directory of workspaces: each directory in it is served at
    /// /mcp/NAME.
    #[arg(long, value_name = "DIR")]
    pub workspaces: Option<PathBuf>,
    /// Where to listen; port 0 picks a free one (printed on stderr).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8765")]
    pub listen: std::net::SocketAddr,
    /// Where sessions are kept: `memory` (this process), `dir:PATH`,
    /// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or
    /// `redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT...]`
    /// (shared by replicas).
    #[arg(long, value_name = "STORE", default_value = "memory")]
    pub store: String,
    /// Redis replicas a session's save must reach before the call is
    /// answered (WAIT), so a failover loses no answered change; 0 answers
    /// once the primary has it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub store_replicas: u32,
    /// How long a save waits for --store-replicas, in milliseconds; then
    /// the call's answer says its record may be lost.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub store_wait_ms: u64,
    /// A file of bearer tokens: a line `TOKEN` opens every workspace, a
    /// line `WORKSPACE TOKEN` one. Or set FILETOOLS_TOKEN. Required when
    /// listening beyond loopback.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// A Host name (with or without :PORT) this server answers to, beside
    /// loopback's; `*` takes any (only behind a proxy that checks it).
    #[arg(long, value_name = "HOST")]
    pub allow_host: Vec<String>,
    /// An Origin a browser page may call from (none by default).
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// The largest request body, in bytes.
    #[arg(long, value_name = "N", default_value_t = 4 << 20)]
    pub max_body_bytes: u64,
    /// Connections open at once, at most; more get 503.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections: usize,
    /// Calls running at once, at most; more wait their turn.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub max_calls: usize,
    /// Seconds a session stays in memory after its last call (its state
    /// stays in the store).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub idle: u64,
    /// Sessions kept in memory at most; the least recently used leave
    /// first.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub resident: usize,
    /// MiB of instance memory the sessions kept in memory may have grown
    /// by (a session's memory grows with the files it handles); the least
    /// recently used leave first.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub resident_mib: usize,
    /// Seconds a session unused stays in the store.
    #[arg(long, value_name = "SECONDS", default_value_t = 7 * 86_400)]
    pub session_ttl: u64,
    /// Offer only the tools that read, and refuse every change.
    #[arg(long)]
    pub read_only: bool,
    /// How often a long call reports progress, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub progress_ms: u64,
    #[command(flatten)]
    pub limits: Limits,
}

/// The forms `schema` prints.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SchemaFormat {
    /// MCP tools/list entries, with annotations and output schemas.
    Mcp,
    /// Anthropic Messages API tools (input_schema).
    Anthropic,
    /// Anthropic Messages API tools with strict: true.
    AnthropicStrict,
    /// OpenAI function tools.
    Openai,
    /// OpenAI function tools with strict: true.
    OpenaiStrict,
    /// OpenAI Responses API tools (apply_patch as the built-in tool).
    OpenaiResponses,
    /// OpenAI Responses API tools with strict: true.
    OpenaiResponsesStrict,
    /// Gemini function declarations (name, description, parameters).
    Gemini,
}

impl From<SchemaFormat> for Format {
    fn from(format: SchemaFormat) -> Self {
        match format {
            SchemaFormat::Mcp => Format::Mcp,
            SchemaFormat::Anthropic => Format::Anthropic,
            SchemaFormat::AnthropicStrict => Format::AnthropicStrict,
            SchemaFormat::Openai => Format::Openai,
            SchemaFormat::OpenaiStrict => Format::OpenaiStrict,
            SchemaFormat::OpenaiResponses => Format::OpenaiResponses,
            SchemaFormat::OpenaiResponsesStrict => Format::OpenaiResponsesStrict,
            SchemaFormat::Gemini => Format::Gemini,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// The API the definitions are for.
    #[arg(long, value_enum, default_value = "mcp")]
    pub format: SchemaFormat,
    /// Session config as a JSON object; the descriptions state its caps.
    #[arg(long, value_name = "JSON")]
    pub config: Option<String>,
    /// The tool sets to describe, comma-separated (as for `mcp --tools`).
    #[arg(long, value_name = "SETS", value_delimiter = ',')]
    pub tools: Vec<String>,
    /// Describe the tools of a read-only workspace (as `mcp --read-only`
    /// lists them): only those that can succeed.
    #[arg(long)]
    pub read_only: bool,
}

/// What every one-shot command (read, write, edit, undo) takes.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// The file, relative to the current directory or absolute inside the
    /// root. Put `--` before a path that starts with `-`.
    #[arg(value_name = "PATH")]
    pub path: String,
    /// The directory the tools may see [default: the current directory].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Keep the session (what was read, dedup records, undo history) in
    /// FILE between commands.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// How long to wait for --state FILE while another filetools process
    /// holds it, in seconds; then the command fails, naming the file.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub lock_wait: u64,
    /// Print the whole result as one JSON line instead of its text.
    #[arg(long)]
    pub json: bool,
    /// The outputs of earlier commands left the model's context (the
    /// conversation was compacted): with --state, no read repeats them as
    /// an "unchanged" notice.
    #[arg(long, requires = "state")]
    pub forget_outputs: bool,
    #[command(flatten)]
    pub limits: Limits,
}

#[derive(Debug, clap::Args)]
pub struct PathArgs {
    #[command(flatten)]
    pub common: Common,
    /// Change the file only if it is at this version (as an answer gave
    /// it); with it, no read in this session is needed.
    #[arg(long, value_name = "VERSION")]
    pub expect: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    #[command(flatten)]
    pub common: Common,
    /// First line to show (1-based).
    #[arg(long, value_name = "N")]
    pub offset: Option<u64>,
    /// Most lines to show.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Character (1-based) of line --offset to start at, for a long line.
    #[arg(long, value_name = "N")]
    pub char_offset: Option<u64>,
    /// PDF pages to show: "3" or "3-7".
    #[arg(long, value_name = "RANGE")]
    pub pages: Option<String>,
    /// An outline entry whose lines to show, e.g. "Decimal.__new__".
    #[arg(long, value_name = "NAME")]
    pub symbol: Option<String>,
    /// With --offset alone: the innermost outline entry that holds that
    /// line, instead of the lines from there.
    #[arg(long, requires = "offset")]
    pub block: bool,
    /// The file's encoding when it has no BOM, e.g. "windows-1252" or
    /// "shift_jis" [default: UTF-8, or the legacy encoding detected].
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct WriteArgs {
    #[command(flatten)]
    pub common: Common,
    /// The new content [default: read from stdin].
    #[arg(long, value_name = "TEXT", conflicts_with = "content_file")]
    pub content: Option<String>,
    /// Take the new content from FILE.
    #[arg(long, value_name = "FILE")]
    pub content_file: Option<PathBuf>,
    /// The encoding to write in [default: a replaced file keeps its own, a
    /// new one is UTF-8].
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// Change the file only if it is at this version (as an answer gave
    /// it); with it, no read in this session is needed.
    #[arg(long, value_name = "VERSION")]
    pub expect: Option<String>,
}

/// Where `edit --symbol` puts its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Position {
    /// In place of the entry.
    Replace,
    /// On lines of its own before it.
    Before,
    /// On lines of its own after it.
    After,
}

#[derive(Debug, clap::Args)]
pub struct EditArgs {
    #[command(flatten)]
    pub common: Common,
    /// The exact text to replace.
    #[arg(
        long,
        value_name = "TEXT",
        requires = "new",
        required_unless_present_any = ["edits", "symbol"]
    )]
    pub old: Option<String>,
    /// The text to put in its place (with --symbol: the whole new entry,
    /// empty to delete it, or the lines to put beside it).
    #[arg(long, value_name = "TEXT")]
    pub new: Option<String>,
    /// Instead of --old: the outline entry to change, named as `read
    /// --symbol` names it, e.g. "Decimal.__new__".
    #[arg(long, value_name = "NAME", requires = "new", conflicts_with_all = ["old", "edits", "replace_all"])]
    pub symbol: Option<String>,
    /// With --symbol: where --new goes.
    #[arg(long, value_enum, default_value_t = Position::Replace, requires = "symbol")]
    pub position: Position,
    /// Replace every occurrence instead of requiring exactly one.
    #[arg(long, requires = "old")]
    pub replace_all: bool,
    /// Several replacements as JSON: [{"old_string": ..., "new_string": ...,
    /// "replace_all": false}, ...].
    #[arg(long, value_name = "JSON", conflicts_with_all = ["old", "new"])]
    pub edits: Option<String>,
    /// The file's encoding, needed when detection only guessed it.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// Change the file only if it is at this version (as an answer gave
    /// it); with it, no read in this session is needed.
    #[arg(long, value_name = "VERSION")]
    pub expect: Option<String>,
}
