//! Human output: one miette report per finding, pointing into the log, with the code, the
//! ply, the rule and its source, and a help line.

use super::SourceWindow;
use crate::finding::{Finding, Severity};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use std::fmt;

/// How to draw reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours on or off.
    pub color: bool,
    /// Terminal width in columns.
    pub width: usize,
}

/// A window of a source: `text` starts at byte `offset`, line `line` (0-based) of the file, so
/// a game read on its own from a stream is shown with the file's own line numbers.
struct Window<'a> {
    name: &'a str,
    text: &'a str,
    offset: usize,
    line: usize,
}

impl miette::SourceCode for Window<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let local_start = span
            .offset()
            .saturating_sub(self.offset)
            .min(self.text.len());
        let local_len = span.len().min(self.text.len() - local_start);
        let local = miette::SourceSpan::new(local_start.into(), local_len);
        let c = self.text.read_span(&local, before, after)?;
        let data: &'b [u8] = c.data();
        let start = c.span().offset() + self.offset;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_string(),
            data,
            miette::SourceSpan::new(start.into(), c.span().len()),
            c.line() + self.line,
            c.column(),
            c.line_count(),
        )))
    }
}

struct Report<'a> {
    finding: &'a Finding,
    source: Window<'a>,
    help: String,
    message: String,
    /// Without the source excerpt (its line is too long to draw): the places are in `help`.
    plain: bool,
}

/// Longest source line (in bytes) a report draws; a finding on a longer line (a whole game on
/// one line) is reported with its line and column instead of the excerpt.
const MAX_DRAWN_LINE: usize = 4_000;

/// True when a span starting at `start` (window bytes) with `len` bytes lies on a line longer
/// than [`MAX_DRAWN_LINE`], or is longer itself.
fn too_long(text: &str, start: usize, len: usize) -> bool {
    let start = start.min(text.len());
    let bytes = text.as_bytes();
    let line_start = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &bytes[start..]).map_or(text.len(), |i| start + i);
    len > MAX_DRAWN_LINE || line_end - line_start > MAX_DRAWN_LINE
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for Report<'_> {}

impl Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.finding.code.as_str()))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity() {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.help))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        (!self.plain).then_some(&self.source as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.plain {
            return None;
        }
        let f = self.finding;
        let primary = LabeledSpan::new_primary_with_span(
            Some(if f.label.is_empty() {
                f.message.clone()
            } else {
                f.label.clone()
            }),
            (f.span.start, f.span.len()),
        );
        let rest = f.labels.iter().map(|l| {
            LabeledSpan::new_with_span(Some(l.text.clone()), (l.span.start, l.span.len()))
        });
        Some(Box::new(std::iter::once(primary).chain(rest)))
    }
}

/// Renders one finding against the window of its source it points into; `game_index` (from
/// 0) is named in the headline from the second game of a file on.
pub fn render(f: &Finding, src: &SourceWindow, game_index: usize, style: Style) -> String {
    let (text, offset) = (src.text, src.offset);
    let mut message = String::new();
    if let Some(p) = f.ply {
        message.push_str(&format!("ply {p}: "));
    }
    message.push_str(&f.message);
    if game_index > 0 {
        message.push_str(&format!(" (game {})", game_index + 1));
    }
    let mut help = String::new();
    if let Some(h) = &f.help {
        help.push_str(h);
        help.push('\n');
    }
    let local = |start: usize| start.saturating_sub(offset);
    let plain = too_long(text, local(f.span.start), f.span.len())
        || f.labels
            .iter()
            .any(|l| too_long(text, local(l.span.start), l.span.len()));
    if plain {
        let at = |start: usize| {
            let (l, c) = src.line_col(start);
            format!("{}:{l}:{c}", src.name)
        };
        let primary = if f.label.is_empty() {
            &f.message
        } else {
            &f.label
        };
        help.push_str(&format!("at {}: {primary}\n", at(f.span.start)));
        for l in &f.labels {
            help.push_str(&format!("at {}: {}\n", at(l.span.start), l.text));
        }
    }
    help.push_str("rule: ");
    help.push_str(f.rule.citation());
    // Hand miette only the lines the report draws (the spans' lines and one line of context
    // either side): it reads its source from the start, and a game with thousands of
    // findings would otherwise be read thousands of times.
    let spans = std::iter::once(f.span).chain(f.labels.iter().map(|l| l.span));
    let (lo, hi) = spans.fold((usize::MAX, 0), |(lo, hi), s| {
        (lo.min(local(s.start)), hi.max(local(s.end)))
    });
    let (lo, hi) = (
        lo.min(text.len()),
        hi.min(text.len()).max(lo.min(text.len())),
    );
    let bytes = text.as_bytes();
    let line_start = |at: usize| memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let line_end =
        |at: usize| memchr::memchr(b'\n', &bytes[at..]).map_or(text.len(), |i| at + i + 1);
    let first = line_start(lo);
    let from = if first == 0 { 0 } else { line_start(first - 1) };
    let last = line_end(hi);
    let to = if last >= text.len() {
        text.len()
    } else {
        line_end(last)
    };
    let skipped = src.lines_before(from);
    let report = Report {
        plain,
        finding: f,
        source: Window {
            name: src.name,
            text: &text[from..to],
            offset: offset + from,
            line: src.line + skipped,
        },
        help,
        message,
    };
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{}: {} [{}]\n", src.name, f.message, f.code);
    }
    out
}

/// Prints `findings` of game `index` (from 0) of `chunk` to `err` as the human report draws
/// them (the commands that read one game say so why they cannot go on).
pub fn print_findings(
    chunk: &crate::input::Chunk,
    findings: &[Finding],
    index: usize,
    color: bool,
    err: &mut dyn std::io::Write,
) {
    let src = SourceWindow::new(&chunk.source, &chunk.text, chunk.offset, chunk.line);
    let style = Style { color, width: 100 };
    for f in findings {
        let _ = err.write_all(render(f, &src, index, style).as_bytes());
    }
}
