//! Human output: one miette report per finding, pointing into the log, with the code, the
//! ply, the rule and its source, and a help line.

use crate::finding::{Finding, Severity};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use std::fmt;

/// How to draw reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours on or off.
    pub color: bool,
    /// Terminal width in columns.
    pub width: usize,
}

struct Report<'a> {
    finding: &'a Finding,
    source: NamedSource<String>,
    help: String,
    message: String,
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
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
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

/// Renders one finding against its source text (`name` is the file's name).
pub fn render(f: &Finding, name: &str, text: &str, game_index: usize, style: Style) -> String {
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
    help.push_str("rule: ");
    help.push_str(&f.rule);
    let report = Report {
        finding: f,
        source: NamedSource::new(name, text.to_string()),
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
        out = format!("{}: {} [{}]\n", name, f.message, f.code);
    }
    out
}
