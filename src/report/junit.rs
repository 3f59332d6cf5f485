//! JUnit XML (`arbiter check --format junit`) for CI test-report viewers: one `<testsuite>` a
//! source file, one `<testcase>` a game; a finding at the `--fail-on` level is a `<failure>`,
//! `parse-error` and `unsupported-game` (the game could not be judged) an `<error>`, and the
//! findings below the level are listed in the case's `<system-out>`, so nothing is dropped.
//! Checked against the Jenkins xunit-plugin's `junit-10.xsd` (vendored in
//! `schemas/vendor/junit/`).
//!
//! Text from a log is made visible ([`super::escape`]) and the two characters XML 1.0 forbids
//! that are left (U+FFFE, U+FFFF) become U+FFFD, so the document always parses.
//!
//! A suite's counts come before its cases, so a file's cases are held until the file ends:
//! in memory up to [`SPOOL_LIMIT`] bytes, then in an anonymous temporary file.

use super::{escape, headline, help_and_rule, relative_path, SourceWindow};
use crate::finding::{Finding, Severity};
use crate::pipeline::GameReport;
use std::borrow::Cow;
use std::io::{Read, Seek, Write};

/// Bytes of a file's cases held in memory before they go to a temporary file.
pub const SPOOL_LIMIT: usize = 8 << 20;

/// `s` as XML character data: visible, allowed by XML 1.0, markup escaped.
fn xml(s: &str) -> String {
    let v = escape::visible(s);
    let v: Cow<str> = if v.contains(['\u{fffe}', '\u{ffff}']) {
        v.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}").into()
    } else {
        v
    };
    quick_xml::escape::partial_escape(v.as_ref()).into_owned()
}

/// `s` as an attribute value: [`xml`], quotes escaped too, line feeds and tabs kept as
/// references (an XML parser turns them into spaces otherwise).
fn attr(s: &str) -> String {
    let s = xml(s).replace('"', "&quot;").replace('\'', "&apos;");
    s.replace('\n', "&#10;").replace('\t', "&#9;")
}

/// Where a finding is and what it says, as a failure's text: `path:line:column: headline`,
/// then the help, the rule and the other places it points at.
fn details(f: &Finding, src: &SourceWindow, path: &str, game_index: usize) -> String {
    let at = |start: usize| match src.position(start) {
        Some((l, c)) => format!("{path}:{l}:{c}"),
        None => format!("{path} byte {start}"),
    };
    let mut s = format!(
        "{}: {}\n{}",
        at(f.span.start),
        headline(f, game_index),
        help_and_rule(f)
    );
    for l in &f.labels {
        s.push_str(&format!("\nsee {}: {}", at(l.span.start), l.text));
    }
    s
}

/// The `<testcase>` of game `g`, whose findings point into `src`; findings at `fail_on` or
/// above fail it.
pub fn testcase(g: &GameReport, src: &SourceWindow, fail_on: Severity) -> String {
    let path = relative_path(src.name);
    let name = match g.game {
        Some(id) => format!("game {} ({})", g.index.saturating_add(1), id.as_str()),
        None => format!("game {}", g.index.saturating_add(1)),
    };
    let mut out = format!(
        "    <testcase name=\"{}\" classname=\"{}\"",
        attr(&name),
        attr(&path)
    );
    let mut body = String::new();
    let mut passed = Vec::new();
    for f in &g.findings {
        let element = if f.code.is_unusable() {
            "error"
        } else if f.severity() >= fail_on {
            "failure"
        } else {
            passed.push(details(f, src, &path, g.index));
            continue;
        };
        body.push_str(&format!(
            "      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n",
            f.code,
            attr(&headline(f, g.index)),
            xml(&details(f, src, &path, g.index)),
        ));
    }
    if !passed.is_empty() {
        body.push_str(&format!(
            "      <system-out>{}</system-out>\n",
            xml(&passed.join("\n"))
        ));
    }
    if body.is_empty() {
        out.push_str("/>\n");
    } else {
        out.push_str(">\n");
        out.push_str(&body);
        out.push_str("    </testcase>\n");
    }
    out
}

/// How one game counts in its suite: (tests, failures, errors). A game with an `<error>`
/// counts as an error, else one with a `<failure>` as a failure.
pub fn counts(g: &GameReport, fail_on: Severity) -> (usize, usize, usize) {
    if g.findings.iter().any(|f| f.code.is_unusable()) {
        (1, 0, 1)
    } else if g.findings.iter().any(|f| f.severity() >= fail_on) {
        (1, 1, 0)
    } else {
        (1, 0, 0)
    }
}

/// The cases of one file, held until the file ends.
struct Suite {
    name: String,
    tests: usize,
    failures: usize,
    errors: usize,
    memory: Vec<u8>,
    file: Option<std::fs::File>,
    /// No temporary file could be made: the cases stay in memory.
    in_memory: bool,
}

impl Suite {
    /// Adds a case. Past [`SPOOL_LIMIT`] the cases go to a temporary file; where none can
    /// be made (`TMPDIR` missing or full), they stay in memory: the report is still written,
    /// where the run once failed blaming standard output.
    fn push(&mut self, case: &str) -> std::io::Result<()> {
        if self.file.is_none() && !self.in_memory && self.memory.len() + case.len() > SPOOL_LIMIT {
            match tempfile::tempfile().and_then(|mut f| f.write_all(&self.memory).map(|_| f)) {
                Ok(f) => {
                    self.memory = Vec::new();
                    self.file = Some(f);
                }
                Err(_) => self.in_memory = true,
            }
        }
        match &mut self.file {
            Some(f) => f.write_all(case.as_bytes()),
            None => {
                self.memory.extend_from_slice(case.as_bytes());
                Ok(())
            }
        }
    }

    fn write(self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
            attr(&self.name),
            self.tests,
            self.failures,
            self.errors
        )?;
        out.write_all(&self.memory)?;
        if let Some(mut f) = self.file {
            f.rewind()?;
            let mut buf = vec![0; 64 << 10];
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                out.write_all(&buf[..n])?;
            }
        }
        writeln!(out, "  </testsuite>")
    }
}

/// The document: suites written as their files end, in input order.
#[derive(Default)]
pub struct Suites {
    current: Option<Suite>,
}

impl std::fmt::Debug for Suites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Suites")
    }
}

impl Suites {
    /// What the document starts with.
    pub const HEAD: &'static str =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"arbiter\">\n";

    /// Adds game `g`'s `case` ([`testcase`]) to the suite of its source; the suite before it
    /// is written to `out` when `g` starts a new source.
    pub fn add(
        &mut self,
        out: &mut dyn Write,
        g: &GameReport,
        case: &str,
        fail_on: Severity,
    ) -> std::io::Result<()> {
        let name = relative_path(&g.source);
        if self.current.as_ref().is_some_and(|s| s.name != name) {
            if let Some(s) = self.current.take() {
                s.write(out)?;
            }
        }
        let suite = self.current.get_or_insert_with(|| Suite {
            name,
            tests: 0,
            failures: 0,
            errors: 0,
            memory: Vec::new(),
            file: None,
            in_memory: false,
        });
        let (t, f, e) = counts(g, fail_on);
        (suite.tests, suite.failures, suite.errors) =
            (suite.tests + t, suite.failures + f, suite.errors + e);
        suite.push(case)
    }

    /// Writes the last suite and closes the document.
    pub fn finish(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(s) = self.current.take() {
            s.write(out)?;
        }
        writeln!(out, "</testsuites>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(source: &str) -> GameReport {
        GameReport {
            source: source.into(),
            index: 0,
            game: None,
            parameters: Default::default(),
            plies: 0,
            result: None,
            termination: None,
            outcome: None,
            findings: Vec::new(),
            ..GameReport::default()
        }
    }

    /// A file whose cases outgrow [`SPOOL_LIMIT`] is spooled to a temporary file and written
    /// back whole and in order; the next file starts a new suite.
    #[test]
    fn a_large_suite_goes_through_a_temporary_file() {
        let mut suites = Suites::default();
        let mut out = Vec::new();
        let case = |i: usize| format!("    <testcase name=\"{i:08}\"/>{}\n", " ".repeat(990));
        let n = SPOOL_LIMIT / 1000 + 10;
        for i in 0..n {
            suites
                .add(&mut out, &game("a.arb"), &case(i), Severity::Error)
                .unwrap();
        }
        assert!(out.is_empty(), "a suite is held until its file ends");
        assert!(suites.current.as_ref().unwrap().file.is_some(), "spooled");
        suites
            .add(&mut out, &game("b.arb"), &case(n), Severity::Error)
            .unwrap();
        suites.finish(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut want =
            format!("  <testsuite name=\"a.arb\" tests=\"{n}\" failures=\"0\" errors=\"0\">\n");
        for i in 0..n {
            want.push_str(&case(i));
        }
        want.push_str("  </testsuite>\n  <testsuite name=\"b.arb\" tests=\"1\" failures=\"0\" errors=\"0\">\n");
        want.push_str(&case(n));
        want.push_str("  </testsuite>\n</testsuites>\n");
        assert!(text == want, "the spooled suite differs");
    }

    /// Where no temporary file can be made, a large suite stays in memory and is written
    /// whole: the report once failed, blaming standard output.
    #[test]
    fn a_large_suite_without_a_temporary_file_stays_in_memory() {
        let mut suites = Suites::default();
        let mut out = Vec::new();
        let case = |i: usize| format!("    <testcase name=\"{i:08}\"/>{}\n", " ".repeat(990));
        let n = SPOOL_LIMIT / 1000 + 10;
        suites
            .add(&mut out, &game("a.arb"), &case(0), Severity::Error)
            .unwrap();
        suites.current.as_mut().unwrap().in_memory = true;
        for i in 1..n {
            suites
                .add(&mut out, &game("a.arb"), &case(i), Severity::Error)
                .unwrap();
        }
        assert!(suites.current.as_ref().unwrap().file.is_none());
        suites.finish(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let cases: String = (0..n).map(case).collect();
        assert!(text.contains(&format!(
            "tests=\"{n}\" failures=\"0\" errors=\"0\">\n{cases}  </testsuite>\n</testsuites>\n"
        )));
    }

    #[test]
    fn text_xml_forbids_is_replaced_and_markup_escaped() {
        assert_eq!(
            xml("a<b>&\"'\u{0}\u{1b}\u{fffe}\u{ffff}\u{85}c"),
            "a&lt;b&gt;&amp;\"'\u{2400}\u{241b}\u{fffd}\u{fffd}\u{fffd}c"
        );
        // A tab is drawn as a space (escape::visible), a line feed kept as a reference.
        assert_eq!(attr("a\nb\t\"'<"), "a&#10;b &quot;&apos;&lt;");
    }
}
