//! `get_file_info` and `list_allowed_directories`.

use serde_json::json;

use crate::answers::result::ToolResult;
use crate::fs::host::{FileKind, HostFs, Metadata};
use crate::paths::repair;
use crate::tools::session::Session;
use crate::tools::shapes::args::Args;

/// `get_file_info`: what the host tells of a path, in the reference's
/// keys and order; times in ISO 8601 UTC, permissions as the last three
/// octal digits of the mode.
pub(super) fn file_info<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let path = args.string("path")?;
        let (_, meta) = repair::existing(ctx.config, ctx.fs, &path, &ctx.state.repairs)?;
        Ok(ToolResult::from_text(describe(&meta), json!({})))
    })
}

/// The lines `get_file_info` answers with.
fn describe(meta: &Metadata) -> String {
    format!(
        "size: {}\ncreated: {}\nmodified: {}\naccessed: {}\nisDirectory: {}\nisFile: {}\npermissions: {:03o}",
        meta.size,
        iso8601(meta.created_ns),
        iso8601(meta.mtime_ns),
        iso8601(meta.accessed_ns),
        meta.kind == FileKind::Directory,
        meta.kind == FileKind::File,
        meta.mode & 0o777
    )
}

/// `list_allowed_directories`: the workspace root.
pub(super) fn allowed<F: HostFs>(session: &mut Session<F>) -> ToolResult {
    session.run(|ctx| {
        let root = if ctx.config.root.is_empty() {
            "."
        } else {
            ctx.config.root.as_str()
        };
        let text = format!("Allowed directories:\n{root}");
        Ok(ToolResult::from_text(text, json!({})))
    })
}

/// `ns` nanoseconds after the Unix epoch as an ISO 8601 UTC time.
fn iso8601(ns: u64) -> String {
    let secs = ns / 1_000_000_000;
    let millis = (ns / 1_000_000) % 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    // Days to a civil date (proleptic Gregorian), after Howard Hinnant's
    // published algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use crate::fs::host::{FileKind, Metadata};

    #[test]
    fn info_has_the_reference_keys_in_its_order() {
        let meta = Metadata {
            kind: FileKind::File,
            size: 12,
            mtime_ns: 2_000_000_000,
            readonly: false,
            created_ns: 1_000_000_000,
            accessed_ns: 3_000_000_000,
            mode: 0o4755,
        };
        assert_eq!(
            super::describe(&meta),
            "size: 12\ncreated: 1970-01-01T00:00:01.000Z\nmodified: 1970-01-01T00:00:02.000Z\n\
             accessed: 1970-01-01T00:00:03.000Z\nisDirectory: false\nisFile: true\npermissions: 755"
        );
        let dir = Metadata {
            kind: FileKind::Directory,
            mode: 0o700,
            ..meta
        };
        assert!(
            super::describe(&dir).ends_with("isDirectory: true\nisFile: false\npermissions: 700")
        );
    }

    #[test]
    fn times_are_iso_8601_in_utc() {
        assert_eq!(super::iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            super::iso8601(1_795_910_400_123_000_000),
            "2026-11-29T00:00:00.123Z"
        );
        assert_eq!(
            super::iso8601(951_782_400 * 1_000_000_000),
            "2000-02-29T00:00:00.000Z"
        );
    }
}
