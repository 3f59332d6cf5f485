//! One report of `arbiter check` in any format, written as the games are judged: a
//! [`Renderer`] turns one game into text on a worker thread, a [`Writer`] writes the
//! document's head, the games' pieces in input order, and its tail. Every renderer takes the
//! game's findings and the one [`SourceWindow`] they point into.

use super::junit::Suites;
use super::stream::Streamed;
use super::{github, gitlab, human, json, junit, rdjson, sarif, SourceWindow, Summary};
use crate::finding::Severity;
use crate::pipeline::GameReport;
use serde_json::Value;
use std::io::Write;

/// The output formats of `check` (`--format`; the doc lines are its help).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette reports for people (findings on stdout, summary on stderr)
    Human,
    /// one JSON document (schemas/check.schema.json)
    Json,
    /// one JSON object per game, then one summary object (schemas/check-jsonl.schema.json)
    Jsonl,
    /// SARIF 2.1.0 for code-scanning tools
    Sarif,
    /// GitHub Actions annotations (workflow commands), one per finding
    Github,
    /// JUnit XML: a test suite per file, a test case per game
    Junit,
    /// reviewdog's diagnostic format (reviewdog -f=rdjson)
    Rdjson,
    /// GitLab Code Quality report (artifacts:reports:codequality)
    Gitlab,
}

impl Format {
    /// True for the formats whose document is built around one streamed JSON array.
    fn streamed(self) -> bool {
        matches!(
            self,
            Format::Json | Format::Sarif | Format::Rdjson | Format::Gitlab
        )
    }

    /// The pretty document around `array` (the streamed array), with the run's `summary`.
    fn document(self, array: Value, summary: &Summary) -> Value {
        match self {
            Format::Sarif => sarif::document(array),
            Format::Rdjson => rdjson::document(array),
            Format::Gitlab => array,
            _ => json::document(array, summary),
        }
    }
}

/// Renders games in one format; shared by the worker threads.
#[derive(Debug, Clone)]
pub struct Renderer {
    /// The format.
    pub format: Format,
    /// ANSI colours in the human report.
    pub color: bool,
    /// The lowest severity that fails a game (JUnit).
    pub fail_on: Severity,
    items: Option<Streamed>,
}

impl Renderer {
    /// The pieces of game `g`, whose findings point into `src`: one text for the human
    /// report, JSON Lines, GitHub and JUnit, one array item a game (JSON) or a finding (SARIF,
    /// rdjson, GitLab) for the others. `boards` (human only) holds a board drawn under each
    /// finding, or is empty.
    pub fn game(
        &self,
        g: &GameReport,
        src: &SourceWindow,
        boards: &[Option<String>],
    ) -> Vec<String> {
        let item = |v: Value| match &self.items {
            Some(s) => s.item(&v),
            None => v.to_string(),
        };
        match self.format {
            Format::Human => {
                let style = human::Style {
                    color: self.color,
                    width: 100,
                };
                let mut text = String::new();
                for (i, f) in g.findings.iter().enumerate() {
                    text.push_str(&human::render_in(f, src, g.index, &g.branches, style));
                    text.push_str(boards.get(i).and_then(|b| b.as_deref()).unwrap_or(""));
                }
                vec![text]
            }
            Format::Jsonl => vec![json::game_text(g, src, false) + "\n"],
            Format::Json => {
                let text = json::game_text(g, src, true);
                vec![match &self.items {
                    Some(s) => s.indent(&text),
                    None => text,
                }]
            }
            Format::Sarif => {
                let uri = sarif::artifact_uri(src.name);
                let results = g.findings.iter().map(|f| sarif::result(f, &uri, src));
                results.map(item).collect()
            }
            Format::Rdjson => {
                let diagnostics = g
                    .findings
                    .iter()
                    .map(|f| rdjson::diagnostic(f, src, g.index));
                diagnostics.map(item).collect()
            }
            Format::Gitlab => gitlab::issues(&g.findings, src, g.index)
                .into_iter()
                .map(item)
                .collect(),
            Format::Github => {
                let lines = g
                    .findings
                    .iter()
                    .map(|f| github::annotation(f, src, g.index));
                vec![lines.collect()]
            }
            Format::Junit => vec![junit::testcase(g, src, self.fail_on)],
        }
    }
}

/// What is written around the games, and how far it has got.
#[derive(Debug)]
enum Document {
    /// Human, JSON Lines and GitHub: nothing around the games.
    Plain,
    /// A JSON document with a streamed array.
    Streamed { items: Streamed, written: usize },
    /// JUnit's suites.
    Junit(Suites),
}

/// Writes one report to a stream, in input order.
#[derive(Debug)]
pub struct Writer {
    format: Format,
    fail_on: Severity,
    doc: Document,
}

impl Writer {
    /// Starts a report in `format` (games at `fail_on` or above fail, in JUnit): writes the
    /// document's head to `out`.
    pub fn start(format: Format, fail_on: Severity, out: &mut dyn Write) -> std::io::Result<Self> {
        let doc = if format.streamed() {
            let head = format.document(Streamed::placeholder(), &Summary::default());
            let (text, items) = Streamed::head(&head);
            out.write_all(text.as_bytes())?;
            Document::Streamed { items, written: 0 }
        } else if format == Format::Junit {
            out.write_all(Suites::HEAD.as_bytes())?;
            Document::Junit(Suites::default())
        } else {
            Document::Plain
        };
        Ok(Writer {
            format,
            fail_on,
            doc,
        })
    }

    /// The renderer of this report's games (`color`: ANSI colours in the human report).
    pub fn renderer(&self, color: bool) -> Renderer {
        Renderer {
            format: self.format,
            color,
            fail_on: self.fail_on,
            items: match &self.doc {
                Document::Streamed { items, .. } => Some(items.clone()),
                _ => None,
            },
        }
    }

    /// Writes the `pieces` [`Renderer::game`] made of game `g`.
    pub fn write(
        &mut self,
        out: &mut dyn Write,
        g: &GameReport,
        pieces: &[String],
    ) -> std::io::Result<()> {
        match &mut self.doc {
            Document::Junit(suites) => {
                for p in pieces {
                    suites.add(out, g, p, self.fail_on)?;
                }
            }
            Document::Streamed { items, written } => {
                for p in pieces {
                    let sep = if *written == 0 {
                        items.first()
                    } else {
                        Streamed::SEPARATOR
                    };
                    out.write_all(sep.as_bytes())?;
                    out.write_all(p.as_bytes())?;
                    *written += 1;
                }
            }
            Document::Plain => {
                for p in pieces {
                    out.write_all(p.as_bytes())?;
                }
            }
        }
        Ok(())
    }

    /// Ends the report: the document's tail with the run's `summary` (JSON Lines: the summary
    /// line), then flushes `out`.
    pub fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
        match &mut self.doc {
            Document::Streamed { written, .. } => {
                let doc = self.format.document(Streamed::placeholder(), summary);
                writeln!(out, "{}", Streamed::tail(&doc, *written == 0))?;
            }
            Document::Junit(suites) => suites.finish(out)?,
            Document::Plain if self.format == Format::Jsonl => {
                writeln!(out, "{}", json::jsonl_summary(summary))?
            }
            Document::Plain => {}
        }
        out.flush()
    }
}
