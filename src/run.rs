//! The `check` driver: paths in, a report on a writer and an [`ExitStatus`] out. The command
//! line only maps its flags onto [`CheckOptions`] and calls [`check`].
//!
//! Inputs are streamed game by game ([`input::chunks`]); batches of games are judged and
//! rendered in parallel, then written in input order, so memory is bounded by the games in
//! flight in every output format, and the work stops as soon as the report cannot be written.

use crate::finding::{Code, Finding, Severity};
use crate::input::{self, Chunk};
use crate::pipeline::{self, GameReport, Options};
use crate::record::GameRecord;
use crate::report::stream::Streamed;
use crate::report::{human, json, sarif, SourceWindow, Summary};
use crate::rules::Overrides;
pub use crate::types::ExitStatus;
use rayon::prelude::*;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// The output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// miette reports for people.
    Human,
    /// One JSON document.
    Json,
    /// One JSON object per game, then a summary object.
    Jsonl,
    /// SARIF 2.1.0.
    Sarif,
}

/// Everything that shapes one `check` run.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Parameter overrides (`--game`, `--two-squares`, `--repetition`).
    pub overrides: Overrides,
    /// The output format.
    pub format: Format,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Only the summary (human format).
    pub quiet: bool,
    /// Exit 0 despite findings (unusable input still exits 2).
    pub exit_zero: bool,
    /// Report only these codes (all when empty); `parse-error` and `unsupported-game` always.
    pub select: Vec<Code>,
    /// Never report these codes (`parse-error` and `unsupported-game` cannot be ignored).
    pub ignore: Vec<Code>,
    /// The lowest severity that makes the exit status [`ExitStatus::Findings`].
    pub fail_on: Severity,
    /// ANSI colours in the human report.
    pub color: bool,
    /// Draw the board under every error finding (human format).
    pub show: bool,
    /// Judge only this game (from 0) of each input, cut out without parsing or judging the
    /// games before it ([`pipeline::chunk_of_game`]); an input with fewer games is reported
    /// as unusable.
    pub game_index: Option<usize>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            overrides: Overrides::default(),
            format: Format::Human,
            jobs: 1,
            quiet: false,
            exit_zero: false,
            select: Vec::new(),
            ignore: Vec::new(),
            fail_on: Severity::Error,
            color: false,
            show: false,
            game_index: None,
        }
    }
}

impl CheckOptions {
    /// Whether a finding of `code` is reported.
    fn keeps(&self, code: Code) -> bool {
        code.is_unusable()
            || ((self.select.is_empty() || self.select.contains(&code))
                && !self.ignore.contains(&code))
    }
}

/// What one chunk gave: its games, judged and filtered, and their report text.
struct Done {
    games: Vec<GameReport>,
    text: Vec<String>,
}

/// The document a format writes around its games, and how far it has got.
enum Document {
    /// Human and JSON Lines: nothing around the games.
    Plain,
    /// A JSON document or SARIF log with a streamed array.
    Streamed { items: Streamed, written: usize },
}

/// The pretty document of `format` around `array`, with the run's `summary`.
fn document(format: Format, array: Value, summary: &Summary) -> Value {
    match format {
        Format::Sarif => sarif::document(array),
        _ => json::document(array, summary),
    }
}

/// Judges every game of `chunk` and renders what `opts.format` prints of it; `items` renders
/// the array items of a streamed document.
fn judge_chunk(chunk: &Chunk, opts: &CheckOptions, items: Option<&Streamed>) -> Done {
    let uri = if opts.format == Format::Sarif {
        sarif::artifact_uri(&chunk.source)
    } else {
        String::new()
    };
    // With --game-index the chunk is the one game's ([`pipeline::chunk_of_game`]), or the
    // input's unreadable, empty or no-such-game report.
    let records = pipeline::parse_chunk(chunk);
    let pipeline_opts = Options {
        overrides: opts.overrides.clone(),
    };
    let src = SourceWindow::of(chunk);
    let mut done = Done {
        games: Vec::with_capacity(records.len()),
        text: Vec::new(),
    };
    for rec in &records {
        let mut g = pipeline::check_record(&chunk.source, rec, &pipeline_opts);
        g.findings.retain(|f| opts.keeps(f.code));
        g.replay = None;
        if !opts.quiet {
            let target = Target {
                src: &src,
                uri: &uri,
                items,
            };
            render_game(&g, rec, opts, &target, &mut done.text);
        }
        done.games.push(g);
    }
    done
}

/// Where a game's report goes: the source window its findings point into, the SARIF
/// artifact URI, and the streamed document's item renderer.
struct Target<'a> {
    src: &'a SourceWindow<'a>,
    uri: &'a str,
    items: Option<&'a Streamed>,
}

impl Target<'_> {
    /// Pretty JSON text indented as an array item of the streamed document.
    fn indent(&self, text: &str) -> String {
        self.items
            .map_or_else(|| text.to_string(), |s| s.indent(text))
    }

    /// An array item of the streamed document.
    fn item(&self, v: &Value) -> String {
        self.items.map_or_else(|| v.to_string(), |s| s.item(v))
    }
}

/// Appends what `opts.format` prints of one game to `out` (one piece per array item for
/// the streamed formats).
fn render_game(
    g: &GameReport,
    rec: &GameRecord,
    opts: &CheckOptions,
    to: &Target,
    out: &mut Vec<String>,
) {
    let src = to.src;
    match opts.format {
        Format::Human => {
            let style = human::Style {
                color: opts.color,
                width: 100,
            };
            let boards = if opts.show {
                crate::show::finding_boards(rec, g, opts.color)
            } else {
                vec![None; g.findings.len()]
            };
            let mut text = String::new();
            for (f, board) in g.findings.iter().zip(boards) {
                text.push_str(&human::render(f, src, g.index, style));
                text.push_str(board.as_deref().unwrap_or(""));
            }
            out.push(text);
        }
        Format::Jsonl => out.push(json::game_text(g, src, false) + "\n"),
        Format::Json => out.push(to.indent(&json::game_text(g, src, true))),
        Format::Sarif => out.extend(
            g.findings
                .iter()
                .map(|f: &Finding| to.item(&sarif::result(f, to.uri, src))),
        ),
    }
}

/// Writes the pieces a batch rendered, in order: plain text as it is, the array items of a
/// streamed document with their separators.
fn write_pieces(out: &mut dyn Write, doc: &mut Document, pieces: &[String]) -> std::io::Result<()> {
    for p in pieces {
        if let Document::Streamed { items, written } = doc {
            let sep = if *written == 0 {
                items.first()
            } else {
                Streamed::SEPARATOR
            };
            out.write_all(sep.as_bytes())?;
            *written += 1;
        }
        out.write_all(p.as_bytes())?;
    }
    Ok(())
}

/// Checks the games of `paths` (files, directories walked for logs, `-` for standard input)
/// under `opts`, writing the report to `out` and the summary line to `err`.
pub fn check(
    paths: &[PathBuf],
    opts: &CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitStatus {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(
                err,
                "arbiter: cannot start {} worker threads: {e}",
                opts.jobs
            );
            return ExitStatus::Unusable;
        }
    };
    let inputs = input::expand(paths);
    let mut summary = Summary {
        files: inputs.len(),
        ..Summary::default()
    };
    let streamed = matches!(opts.format, Format::Json | Format::Sarif);
    let mut doc = Document::Plain;
    let mut written = Ok(());
    if streamed {
        let (head, items) =
            Streamed::head(&document(opts.format, Streamed::placeholder(), &summary));
        written = out.write_all(head.as_bytes());
        doc = Document::Streamed { items, written: 0 };
    }
    let chunks: Box<dyn Iterator<Item = Chunk>> = match opts.game_index {
        Some(n) => Box::new(inputs.iter().map(move |i| pipeline::chunk_of_game(i, n))),
        None => Box::new(inputs.iter().flat_map(input::chunks)),
    };
    let mut chunks = chunks.peekable();
    // Batches bound memory (at most 256 chunks or about 8 MB of text in flight) while the
    // workers judge the games of a batch in parallel; output keeps the input order.
    while written.is_ok() && chunks.peek().is_some() {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while let Some(c) = chunks.next_if(|_| batch.len() < 256 && bytes < (8 << 20)) {
            bytes += c.text.len();
            batch.push(c);
        }
        let items = match &doc {
            Document::Streamed { items, .. } => Some(items),
            Document::Plain => None,
        };
        let done: Vec<Done> = pool.install(|| {
            batch
                .par_iter()
                .map(|c| judge_chunk(c, opts, items))
                .collect()
        });
        for d in done {
            for g in &d.games {
                summary.add(g, opts.fail_on);
            }
            if written.is_ok() {
                written = write_pieces(out, &mut doc, &d.text);
            }
        }
    }
    if written.is_ok() {
        written = finish(out, &doc, opts.format, &summary);
    }
    let _ = writeln!(err, "{}", summary.line());
    if let Err(e) = written {
        let _ = writeln!(
            err,
            "arbiter: cannot write the report to standard output: {e}"
        );
        return ExitStatus::Unusable;
    }
    status(&summary, opts.exit_zero)
}

/// Closes the document of a streamed format, or writes JSON Lines' summary object.
fn finish(
    out: &mut dyn Write,
    doc: &Document,
    format: Format,
    summary: &Summary,
) -> std::io::Result<()> {
    match (doc, format) {
        (Document::Streamed { written, .. }, _) => {
            let tail = Streamed::tail(
                &document(format, Streamed::placeholder(), summary),
                *written == 0,
            );
            writeln!(out, "{tail}")?;
        }
        (Document::Plain, Format::Jsonl) => {
            let v = serde_json::json!({
                "arbiter": {"version": env!("CARGO_PKG_VERSION")},
                "summary": summary,
            });
            writeln!(out, "{}", serde_json::to_string(&v).unwrap_or_default())?;
        }
        _ => {}
    }
    out.flush()
}

/// The exit status of rulings §5 for a finished run.
pub fn status(summary: &Summary, exit_zero: bool) -> ExitStatus {
    if summary.unusable {
        ExitStatus::Unusable
    } else if summary.failing && !exit_zero {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    }
}
