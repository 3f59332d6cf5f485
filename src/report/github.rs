//! GitHub Actions workflow commands (`arbiter check --format github`): one annotation a
//! finding, `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=CODE::MESSAGE`
//! (`warning` and `notice` for the other severities), which a workflow run shows on the
//! file and in the summary.
//!
//! Nothing a log holds can start a workflow command of its own: in the message `%`, CR and LF
//! are written `%25`, `%0D` and `%0A` (so a message is always one line of the log), and in
//! the properties `:` and `,` too; every other character a terminal acts on is first made
//! visible ([`super::escape`]), since the workflow log is a terminal.

use super::{escape, headline, help_and_rule, relative_path, SourceWindow};
use crate::finding::{Finding, Severity};

/// The command of a severity.
fn command(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// `s` escaped as a workflow command's message.
fn data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape::visible(s).chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// `s` escaped as a workflow command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The annotation of one finding of game `game_index` (from 0); `src` is the window of the
/// source it points into. One line, ending in a line feed. A finding in a binary source
/// (XQF) is annotated on the file, without a line.
pub fn annotation(f: &Finding, src: &SourceWindow, game_index: usize) -> String {
    let mut props = format!("file={}", property(&relative_path(src.name)));
    if let Some((line, col)) = src.position(f.span.start) {
        props.push_str(&format!(",line={line},col={col}"));
        if !f.span.is_empty() {
            let (end_line, end_col) = src.line_col(f.span.end);
            props.push_str(&format!(",endLine={end_line},endColumn={end_col}"));
        }
    }
    props.push_str(&format!(",title={}", property(f.code.as_str())));
    let message = format!("{}\n{}", headline(f, game_index), help_and_rule(f));
    format!("::{} {props}::{}\n", command(f.severity()), data(&message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Code, Rule};
    use crate::types::Span;

    #[test]
    fn a_log_cannot_start_a_command_of_its_own() {
        let text = "1. a1-a2 *\n";
        let src = SourceWindow::whole("x,y:z%.arb", text);
        let f = Finding::new(
            Code::IllegalMove,
            Span::new(3, 8),
            "bad\n::error file=evil::owned %0A\r\u{1b}[31m",
            Rule::LogMoves,
        );
        let a = annotation(&f, &src, 0);
        assert_eq!(a.matches('\n').count(), 1, "{a}");
        assert_eq!(
            a,
            "::error file=x%2Cy%3Az%25.arb,line=1,col=4,endLine=1,endColumn=9,title=illegal-move\
             ::bad%0A::error file=evil::owned %250A\u{240d}\u{241b}[31m\
             %0Arule: docs/log-format.md (moves)\n"
        );
        let crlf = Finding::new(Code::IllegalMove, Span::new(0, 0), "a\r\nb", Rule::LogMoves);
        // A carriage return in a message is drawn (escape::visible), never sent.
        assert!(annotation(&crlf, &src, 1).contains("::a\u{240d}%0Ab (game 2)%0A"));
    }
}
