//! Report stage: findings out, for people (miette, [`human`], [`statistics`]) and machines
//! ([`json`], [`sarif`], [`github`], [`junit`], [`rdjson`], [`gitlab`]), put together by
//! [`writer`]. Every renderer takes the findings and the one [`SourceWindow`] they point into.

pub use crate::escape;
pub mod board;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod rdjson;
pub mod sarif;
pub mod statistics;
pub mod stream;
pub mod svg;
pub mod verdict;
pub mod writer;

use crate::finding::Severity;
use crate::pipeline::GameReport;
use serde::Serialize;
use std::cell::OnceCell;

/// The part of a source a game was read from: `text` starts at byte `offset` and line `line`
/// (0-based) of the source called `name`, so a game read on its own from a stream is reported
/// with the source's own lines, columns and offsets. Lines and columns are found through an
/// index built once per window, so reporting any number of findings stays linear.
#[derive(Debug)]
pub struct SourceWindow<'a> {
    /// The source's name as reports print it.
    pub name: &'a str,
    /// The window's text.
    pub text: &'a str,
    /// Byte offset of `text` in the source.
    pub offset: usize,
    /// 0-based line of `text`'s first byte in the source.
    pub line: usize,
    /// Characters before `text`'s first byte on its line of the source.
    pub column: usize,
    /// Bytes before `text`'s first byte on its line of the source.
    pub column_bytes: usize,
    /// A binary source (XQF): spans are byte offsets with no line, no column and no excerpt.
    pub binary: bool,
    index: OnceCell<LineIndex>,
}

impl<'a> SourceWindow<'a> {
    /// The window `text` of the source `name`, starting at byte `offset` and line `line`
    /// (0-based).
    pub fn new(name: &'a str, text: &'a str, offset: usize, line: usize) -> Self {
        SourceWindow {
            name,
            text,
            offset,
            line,
            column: 0,
            column_bytes: 0,
            binary: false,
            index: OnceCell::new(),
        }
    }

    /// The window of `chunk`, with its place in the source.
    pub fn of(chunk: &'a crate::input::Chunk) -> Self {
        let mut w = SourceWindow::new(&chunk.source, &chunk.text, chunk.offset, chunk.line);
        w.column = chunk.column;
        w.column_bytes = chunk.column_bytes;
        w.binary = chunk.kind == crate::input::ChunkKind::Xqf;
        w
    }

    /// [`SourceWindow::line_col`], or `None` in a binary source, which has no lines.
    pub fn position(&self, at: usize) -> Option<(usize, usize)> {
        (!self.binary).then(|| self.line_col(at))
    }

    /// A whole source read into memory.
    pub fn whole(name: &'a str, text: &'a str) -> Self {
        SourceWindow::new(name, text, 0, 0)
    }

    /// Line (1-based, in the source) and column (1-based, in characters) of the source byte
    /// offset `at`; an offset outside the window is clamped to it.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let local = at.saturating_sub(self.offset).min(self.text.len());
        let (l, c) = self
            .index
            .get_or_init(|| LineIndex::new(self.text))
            .line_col(self.text, local);
        (l + self.line, if l == 1 { c + self.column } else { c })
    }

    /// Line (1-based, in the source) and column (1-based, in UTF-8 bytes, as reviewdog counts
    /// them) of the source byte offset `at`, clamped to the window; `None` in a binary source.
    pub fn line_byte_col(&self, at: usize) -> Option<(usize, usize)> {
        if self.binary {
            return None;
        }
        let local = at.saturating_sub(self.offset).min(self.text.len());
        let l = self.lines_before(local);
        let col = local - self.index().starts[l] + 1;
        Some((
            l + 1 + self.line,
            if l == 0 { col + self.column_bytes } else { col },
        ))
    }

    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(self.text))
    }

    /// The number of line breaks in the window before its byte `local` (0-based offset in
    /// `text`): the window's line (from 0) that holds it.
    pub fn lines_before(&self, local: usize) -> usize {
        let local = local.min(self.text.len());
        self.index().starts.partition_point(|&s| s <= local) - 1
    }

    /// The window's lines `first..=last` (from 0, clamped to the window) as a byte range of
    /// `text`, line breaks included.
    pub fn lines_range(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        let starts = &self.index().starts;
        let first = first.min(starts.len() - 1);
        let end = starts.get(last + 1).copied().unwrap_or(self.text.len());
        starts[first]..end.max(starts[first])
    }
}

/// Where the lines of a text start, and the character count at every [`SAMPLE`] bytes.
#[derive(Debug)]
struct LineIndex {
    /// Byte offset of every line's first byte (the first is 0).
    starts: Vec<usize>,
    /// Characters before byte `i * SAMPLE`, for every sample point in the text.
    chars: Vec<usize>,
}

/// Bytes between two character-count samples.
const SAMPLE: usize = 1024;

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
        let mut chars = Vec::with_capacity(bytes.len() / SAMPLE + 1);
        let mut count = 0;
        for block in bytes.chunks(SAMPLE) {
            chars.push(count);
            count += char_count(block);
        }
        chars.push(count);
        LineIndex { starts, chars }
    }

    /// Characters before byte `at` (on a character boundary).
    fn chars_before(&self, bytes: &[u8], at: usize) -> usize {
        let s = at / SAMPLE;
        self.chars[s] + char_count(&bytes[s * SAMPLE..at])
    }

    /// 1-based line and character column of byte `at` of `text`.
    fn line_col(&self, text: &str, at: usize) -> (usize, usize) {
        let mut at = at.min(text.len());
        while at > 0 && !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at);
        let start = self.starts[line - 1];
        let bytes = text.as_bytes();
        let col = self.chars_before(bytes, at) - self.chars_before(bytes, start) + 1;
        (line, col)
    }
}

/// Characters in UTF-8 bytes: the bytes that are not continuation bytes.
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Line (1-based) and column (1-based, in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    SourceWindow::whole("", text).line_col(offset)
}

/// `path` as the CI formats name it: relative to the current directory when it lies below
/// it, `/`-separated, without a leading `./`.
pub fn relative_path(path: &str) -> String {
    let p = std::path::Path::new(path);
    let rel = std::env::current_dir()
        .ok()
        .and_then(|cwd| p.strip_prefix(&cwd).ok().map(|r| r.to_path_buf()))
        .unwrap_or_else(|| p.to_path_buf());
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

/// [`relative_path`] as the file name's own bytes (SARIF percent-encodes them): `path` is the name reports print
/// ([`crate::input::path_name`]), whose escapes of bytes that are not UTF-8 are read back.
pub fn relative_path_bytes(path: &str) -> Vec<u8> {
    let raw = crate::input::name_bytes(path);
    #[cfg(unix)]
    let p =
        std::path::Path::new(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(&raw));
    #[cfg(not(unix))]
    let p = std::path::Path::new(path);
    let rel = std::env::current_dir()
        .ok()
        .and_then(|cwd| p.strip_prefix(&cwd).ok().map(|r| r.to_path_buf()))
        .unwrap_or_else(|| p.to_path_buf());
    #[cfg(unix)]
    let s = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::as_bytes(rel.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let s = rel.to_string_lossy().replace('\\', "/").into_bytes();
    match s.strip_prefix(b"./") {
        Some(rest) => rest.to_vec(),
        None => s,
    }
}

/// A finding's headline as the CI formats print it: `ply 7: <message>`, then ` (game N)`
/// (counting from 1) from the second game of a source on. Not escaped.
pub fn headline(f: &crate::finding::Finding, game_index: usize) -> String {
    let mut s = ply_prefix(f);
    s.push_str(&f.message);
    if game_index > 0 {
        s.push_str(&format!(" (game {})", game_index.saturating_add(1)));
    }
    s
}

/// A finding's help (when it has one) and rule, one a line: `help: ...`, `rule: ...`. Not
/// escaped.
pub fn help_and_rule(f: &crate::finding::Finding) -> String {
    match &f.help {
        Some(h) => format!("help: {h}\nrule: {}", f.rule),
        None => format!("rule: {}", f.rule),
    }
}

/// What heads a finding's message in a report: `ply 7: `, `ply 7 of line 3: ` for a
/// variation's ply (line `n` is the record's variation `n`), `line 3: ` for a variation's
/// finding without a ply; nothing for a record-level finding of the main line.
pub fn ply_prefix(f: &crate::finding::Finding) -> String {
    match (f.ply, f.line) {
        (Some(p), 0) => format!("ply {p}: "),
        (Some(p), n) => format!("ply {p} of line {n}: "),
        (None, 0) => String::new(),
        (None, n) => format!("line {n}: "),
    }
}

/// The sentence that names variation `f.line` by where it branches off
/// ([`crate::pipeline::Branch::describe`]), when the finding is a variation's and `branches`
/// (a game's, variation `n` at index `n - 1`) knows it.
pub fn branch_note(
    f: &crate::finding::Finding,
    branches: &[crate::pipeline::Branch],
) -> Option<String> {
    let b = f.line.checked_sub(1).and_then(|i| branches.get(i))?;
    Some(b.describe(f.line))
}

/// Counts of one run, for the summary line and the JSON `summary`.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Summary {
    /// Sources read.
    pub files: usize,
    /// Games judged or attempted.
    pub games: usize,
    /// Lines of play judged: every game's main line and variations.
    pub lines: usize,
    /// Plies replayed, main lines' and variations' (a ply a variation shares with its
    /// parent line counted once).
    pub plies: usize,
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
    /// True when some input could not be read, parsed or judged (exit code 2).
    #[serde(skip)]
    pub unusable: bool,
    /// True when some finding reached the `--fail-on` severity (exit code 1).
    #[serde(skip)]
    pub failing: bool,
}

impl Summary {
    /// Adds one game's counts; a finding at `fail_on` or above makes the run failing.
    pub fn add(&mut self, g: &GameReport, fail_on: Severity) {
        self.games += 1;
        self.lines += g.lines;
        self.plies += g.plies + g.variation_plies;
        for f in &g.findings {
            match f.severity() {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
            self.failing |= f.severity() >= fail_on;
            if f.code.is_unusable() {
                self.unusable = true;
            }
        }
    }
}

/// `1 error`, `3 plies`: a count with its noun.
pub fn counted(k: usize, one: &str, many: &str) -> String {
    format!("{k} {}", if k == 1 { one } else { many })
}

/// `1 error, 0 warnings, 2 infos`.
pub fn by_severity(errors: usize, warnings: usize, infos: usize) -> String {
    format!(
        "{}, {}, {}",
        counted(errors, "error", "errors"),
        counted(warnings, "warning", "warnings"),
        counted(infos, "info", "infos")
    )
}

impl Summary {
    /// The summary line (`arbiter: 2 files, 3 games, 40 plies: 1 error, 0 warnings, 0 infos`;
    /// with the lines of play after the games when some game holds variations).
    pub fn line(&self) -> String {
        let mut games = counted(self.games, "game", "games");
        if self.lines > self.games {
            games = format!("{games}, {}", counted(self.lines, "line", "lines"));
        }
        format!(
            "arbiter: {}, {games}, {}: {}",
            counted(self.files, "file", "files"),
            counted(self.plies, "ply", "plies"),
            by_severity(self.errors, self.warnings, self.infos)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col() {
        let t = "ab\ncé d";
        assert_eq!(super::line_col(t, 0), (1, 1));
        assert_eq!(super::line_col(t, 3), (2, 1));
        assert_eq!(super::line_col(t, 6), (2, 3));
        assert_eq!(super::line_col(t, 99), (2, 5));
        // inside é: the character's start
        assert_eq!(super::line_col(t, 5), (2, 2));
    }

    #[test]
    fn windows_count_from_their_place_in_the_source() {
        let text = "x\ny\nzé\n";
        let w = SourceWindow::new("f", &text[2..], 2, 1);
        assert_eq!(w.line_col(2), (2, 1));
        assert_eq!(w.line_col(6), (3, 2));
        assert_eq!(w.lines_before(2), 1);
    }

    #[test]
    fn byte_columns_count_utf8_bytes() {
        let text = "x\nyé z\n";
        let mut w = SourceWindow::new("f", &text[2..], 2, 1);
        w.column_bytes = 5;
        // é is two bytes: z is the 5th byte of its line
        assert_eq!(w.line_byte_col(6), Some((2, 10)));
        assert_eq!(w.line_byte_col(9), Some((3, 1)));
        w.binary = true;
        assert_eq!(w.line_byte_col(6), None);
    }

    #[test]
    fn sampled_columns_agree_with_counting() {
        let line: String = (0..3000)
            .map(|i| if i % 7 == 0 { 'é' } else { 'a' })
            .collect();
        let text = format!("first\n{line}\nlast");
        let w = SourceWindow::whole("f", &text);
        for at in (6..text.len()).step_by(97) {
            if !text.is_char_boundary(at) {
                continue;
            }
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let want = text[start..at].chars().count() + 1;
            let line = text[..at].matches('\n').count() + 1;
            assert_eq!(w.line_col(at), (line, want), "at {at}");
        }
    }
}
