//! Helpers shared by the Xiangqi test crates (`tests/xiangqi.rs`, `tests/xiangqi_notation.rs`):
//! the hand-worked fixtures in `fixtures/xiangqi/` and their header lines.
#![allow(dead_code)]

use arbiter::pipeline::Source;
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture files (`.arb`, `.pgn`), sorted by name.
pub fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/xiangqi"))
        .expect("fixtures/xiangqi exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("arb" | "pgn")))
        .collect();
    v.sort();
    v
}

/// The `; key: value` line of a fixture's header comment.
pub fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("; {key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(str::trim)
}

/// Reads a fixture as the CLI does, with the name relative to the crate root.
pub fn source(path: &Path) -> Source {
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    Source::from_bytes(name, std::fs::read(path).expect("readable fixture"))
}

/// Runs the `arbiter` binary in the crate root with `NO_COLOR` set; returns its exit code,
/// stdout and stderr as one text for snapshots.
pub fn arbiter(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(root())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("arbiter runs");
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
