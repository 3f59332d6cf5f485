//! Human output: one miette report per finding, pointing into the log, with the code, the
//! ply, the rule and its source, and a help line.

use super::{escape, SourceWindow};
use crate::finding::{Finding, Severity};
use crate::types::Span;
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

/// A run of whole lines of the source that the report draws, escaped for the terminal
/// ([`escape::visible_mapped`]); regions are laid end to end in one virtual text, which is
/// what miette sees, so it never reads more than the lines it draws.
struct Region {
    /// The lines' bytes in the source.
    src: std::ops::Range<usize>,
    /// Where the region starts in the virtual text.
    virt: usize,
    /// The region's first line (0-based, in the source).
    line: usize,
    /// Characters before the region on its first line (a window that starts inside a line).
    column: usize,
    /// The escaped lines.
    text: String,
    /// Offsets of `src` where the escaped text shifts ([`escape::map_offset`]).
    map: Vec<(usize, usize)>,
}

/// The lines a report draws, as miette reads them.
struct Excerpt {
    /// The source's name, escaped.
    name: String,
    regions: Vec<Region>,
}

impl Excerpt {
    /// The virtual offset of source byte `at` (a byte past every region maps to the end).
    fn virt(&self, at: usize) -> usize {
        let i = self
            .regions
            .partition_point(|r| r.src.start <= at)
            .saturating_sub(1);
        match self.regions.get(i) {
            Some(r) => {
                let local = at.clamp(r.src.start, r.src.end) - r.src.start;
                r.virt + escape::map_offset(&r.map, local)
            }
            None => 0,
        }
    }

    /// A source span as a virtual one (start, length).
    fn span(&self, s: Span) -> (usize, usize) {
        let a = self.virt(s.start);
        (a, self.virt(s.end).saturating_sub(a))
    }
}

/// The char boundary of `text` at or before byte `at` (its length past the end).
fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The char boundary of `text` at or after byte `at` (its length past the end).
fn ceil_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl miette::SourceCode for Excerpt {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let i = self
            .regions
            .partition_point(|r| r.virt <= span.offset())
            .saturating_sub(1);
        let r = self
            .regions
            .get(i)
            .ok_or(miette::MietteError::OutOfBounds)?;
        // A span from decoded text (GB18030) may end inside a character of the excerpt's
        // UTF-8: widen it to whole characters.
        let local_start = floor_char(&r.text, span.offset().saturating_sub(r.virt));
        let local_end = ceil_char(&r.text, local_start + span.len());
        let local = miette::SourceSpan::new(local_start.into(), local_end - local_start);
        let c = r.text.as_str().read_span(&local, before, after)?;
        let data: &'b [u8] = c.data();
        // miette counts the header's column in bytes; the JSON's is in characters (an
        // escaped control character is three bytes and one character).
        let start = floor_char(&r.text, c.span().offset());
        let line_start = r.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let column = r.text[line_start..start].chars().count();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            data,
            miette::SourceSpan::new((start + r.virt).into(), c.span().len()),
            c.line() + r.line,
            if line_start == 0 {
                column + r.column
            } else {
                column
            },
            c.line_count(),
        )))
    }
}

/// The regions that draw `spans` with one line of context either side (miette's), merged
/// where they touch.
fn excerpt(src: &SourceWindow, spans: &[Span]) -> Excerpt {
    let local = |at: usize| at.saturating_sub(src.offset).min(src.text.len());
    let mut lines: Vec<(usize, usize)> = spans
        .iter()
        .map(|s| {
            let (a, b) = (
                src.lines_before(local(s.start)),
                src.lines_before(local(s.end)),
            );
            (a.saturating_sub(1), b + 1)
        })
        .collect();
    lines.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in lines {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let mut virt = 0;
    let regions = merged
        .into_iter()
        .map(|(a, b)| {
            let range = src.lines_range(a, b);
            let (text, map) = escape::visible_mapped(&src.text[range.clone()]);
            let r = Region {
                src: src.offset + range.start..src.offset + range.end,
                virt,
                line: src.line + src.lines_before(range.start),
                column: if range.start == 0 { src.column } else { 0 },
                text,
                map,
            };
            virt += r.text.len() + 1;
            r
        })
        .collect();
    Excerpt {
        name: escape::visible_line(src.name).into_owned(),
        regions,
    }
}

struct Report<'a> {
    finding: &'a Finding,
    source: Excerpt,
    help: String,
    message: String,
    /// Without the source excerpt (its line is too long to draw): the places are in `help`.
    plain: bool,
}

/// Longest source line (in bytes) a report draws; a finding on a longer line (a whole game on
/// one line) is reported with its line and column instead of the excerpt.
const MAX_DRAWN_LINE: usize = 4_000;

/// True when `s` lies on a line longer than [`MAX_DRAWN_LINE`], or is longer itself.
fn too_long(src: &SourceWindow, s: Span) -> bool {
    let local = s.start.saturating_sub(src.offset).min(src.text.len());
    let line = src.lines_before(local);
    s.len() > MAX_DRAWN_LINE || src.lines_range(line, line).len() > MAX_DRAWN_LINE + 1
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
        let text = if f.label.is_empty() {
            &f.message
        } else {
            &f.label
        };
        let primary = LabeledSpan::new_primary_with_span(
            Some(escape::visible(text).into_owned()),
            self.source.span(f.span),
        );
        let rest = f.labels.iter().map(|l| {
            LabeledSpan::new_with_span(
                Some(escape::visible(&l.text).into_owned()),
                self.source.span(l.span),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(rest)))
    }
}

/// Renders one finding against the window of its source it points into; `game_index` (from
/// 0) is named in the headline from the second game of a file on. Every text from the log
/// is escaped for the terminal ([`escape`]); the excerpt's line numbers are the JSON's. A
/// variation's finding is headed with its line (`ply 7 of line 3: `); [`render_in`] also
/// says where the line branches off.
pub fn render(f: &Finding, src: &SourceWindow, game_index: usize, style: Style) -> String {
    render_in(f, src, game_index, &[], style)
}

/// [`render`] for a finding of a game whose variations branch off as `branches` say
/// ([`crate::pipeline::GameReport::branches`]): a variation's finding gets a help line naming
/// where its line branches off.
pub fn render_in(
    f: &Finding,
    src: &SourceWindow,
    game_index: usize,
    branches: &[crate::pipeline::Branch],
    style: Style,
) -> String {
    let mut message = super::ply_prefix(f);
    message.push_str(&escape::visible(&f.message));
    if game_index > 0 {
        message.push_str(&format!(" (game {})", game_index.saturating_add(1)));
    }
    let mut help = String::new();
    if let Some(h) = &f.help {
        help.push_str(&escape::visible(h));
        help.push('\n');
    }
    if let Some(b) = super::branch_note(f, branches) {
        help.push_str(&escape::visible(&b));
        help.push('\n');
    }
    let spans: Vec<Span> = std::iter::once(f.span)
        .chain(f.labels.iter().map(|l| l.span))
        .collect();
    let plain = src.binary || spans.iter().any(|s| too_long(src, *s));
    if plain {
        let at = |start: usize| match src.position(start) {
            Some((l, c)) => format!("{}:{l}:{c}", escape::visible_line(src.name)),
            None => format!("{} byte {start}", escape::visible_line(src.name)),
        };
        let primary = if f.label.is_empty() {
            &f.message
        } else {
            &f.label
        };
        help.push_str(&format!(
            "at {}: {}\n",
            at(f.span.start),
            escape::visible(primary)
        ));
        for l in &f.labels {
            help.push_str(&format!(
                "at {}: {}\n",
                at(l.span.start),
                escape::visible(&l.text)
            ));
        }
    }
    help.push_str("rule: ");
    help.push_str(f.rule.citation());
    let report = Report {
        plain,
        finding: f,
        source: excerpt(src, if plain { &[] } else { &spans }),
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
        out = format!(
            "{}: {} [{}]\n",
            escape::visible_line(src.name),
            report.message,
            f.code
        );
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
    let src = SourceWindow::of(chunk);
    let style = Style { color, width: 100 };
    for f in findings {
        let _ = err.write_all(render(f, &src, index, style).as_bytes());
    }
}
