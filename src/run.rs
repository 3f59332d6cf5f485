//! The `check` driver: paths in, a report on a writer and an [`ExitStatus`] out. The command
//! line only maps its flags onto [`CheckOptions`] and calls [`check`].
//!
//! Inputs are streamed game by game ([`input::chunks`]); batches of games are judged and
//! rendered in parallel, then written in input order, so memory is bounded by the games in
//! flight in every output format, and the work stops as soon as the report cannot be written.

use crate::finding::{Code, Severity};
use crate::input::{self, Chunk};
use crate::pipeline::{self, GameReport, Options};
use crate::report::statistics::Statistics;
use crate::report::verdict::{Counts, GameVerdict};
use crate::report::writer::{Renderer, Writer};
use crate::report::{SourceWindow, Summary};
use crate::rules::Overrides;
pub use crate::types::ExitStatus;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

pub use crate::report::writer::Format;

/// Everything that shapes one `check` run.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Parameter overrides (`--game`, `--two-squares`, `--repetition`).
    pub overrides: Overrides,
    /// The output format.
    pub format: Format,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// No human report, only the summary line (a machine format is printed whole).
    pub quiet: bool,
    /// Counts by code and by file in place of the human report (`--statistics`).
    pub statistics: bool,
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
            statistics: false,
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

impl CheckOptions {
    /// Whether games are rendered at all: `--quiet` and `--statistics` silence only the human
    /// report.
    fn renders(&self) -> bool {
        self.format != Format::Human || !(self.quiet || self.statistics)
    }
}

/// What one chunk gave: its games, judged and filtered, and the pieces of each game's report.
struct Done {
    games: Vec<GameReport>,
    pieces: Vec<Vec<String>>,
}

/// Judges every game of `chunk` and renders what `render`'s format prints of it.
fn judge_chunk(chunk: &Chunk, opts: &CheckOptions, render: &Renderer) -> Done {
    // With --game-index the chunk is the one game's ([`pipeline::chunk_of_game`]), or the
    // input's unreadable, empty or no-such-game report.
    pipeline::with_records(chunk, |records| judge_records(chunk, records, opts, render))
}

/// [`judge_chunk`] of the records read from `chunk`.
fn judge_records(
    chunk: &Chunk,
    records: &[crate::record::GameRecord],
    opts: &CheckOptions,
    render: &Renderer,
) -> Done {
    let pipeline_opts = Options {
        overrides: opts.overrides.clone(),
    };
    let src = SourceWindow::of(chunk);
    let mut done = Done {
        games: Vec::with_capacity(records.len()),
        pieces: Vec::with_capacity(records.len()),
    };
    for rec in records {
        let mut g = pipeline::check_record(&chunk.source, rec, &pipeline_opts);
        // The verdict reads every finding (a result-mismatch that --ignore hides still
        // decides whether the result agrees); it counts the findings reported.
        let mut verdict = (opts.format == Format::Human).then(|| GameVerdict::of(&g));
        g.findings.retain(|f| opts.keeps(f.code));
        if let Some(v) = &mut verdict {
            v.counts = Counts::of(&g.findings);
        }
        let boards = if opts.show && opts.renders() {
            crate::show::finding_boards(rec, &g, opts.color)
        } else {
            Vec::new()
        };
        g.replay = None;
        if opts.renders() {
            let mut pieces = render.game(&g, &src, &boards);
            // The human report opens each game with its verdict.
            if let (Some(v), Some(first)) = (&verdict, pieces.first_mut()) {
                first.insert_str(0, &v.render());
            }
            done.pieces.push(pieces);
        } else {
            done.pieces.push(Vec::new());
        }
        done.games.push(g);
    }
    done
}

/// The stack of every thread that reads games, in bytes: the check's workers and the thread
/// the command line runs on (`src/main.rs`), so that a game reads the same whichever command
/// reads it. Rayon's default is 2 MB; the pest grammar, which reads a game the fast path
/// refuses, recurses once a nested variation and stops at its stack's end.
pub const WORKER_STACK: usize = 32 << 20;

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
        .stack_size(WORKER_STACK)
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
    let mut statistics = Statistics::default();
    let batches = match cut_batches(opts.jobs, inputs, opts.game_index) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(
                err,
                "arbiter: cannot start the thread that cuts the input: {e}"
            );
            return ExitStatus::Unusable;
        }
    };
    let written = Writer::start(opts.format, opts.fail_on, out).and_then(|mut writer| {
        let render = writer.renderer(opts.color);
        // The workers judge the games of a batch in parallel; output keeps the input order.
        for batch in batches {
            let done: Vec<Done> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|c| judge_chunk(c, opts, &render))
                    .collect()
            });
            for d in done {
                for (g, pieces) in d.games.iter().zip(&d.pieces) {
                    summary.add(g, opts.fail_on);
                    statistics.add(g);
                    writer.write(out, g, pieces)?;
                }
            }
        }
        if opts.statistics {
            out.write_all(statistics.render().as_bytes())?;
        }
        writer.finish(out, &summary)
    });
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

/// The batches of chunks of `inputs` (with `game_index`, each input's game of that index:
/// [`pipeline::chunk_of_game`]), in order: at most 256 chunks or about 8 MB of text each,
/// which bounds the memory in flight. With more than one job they are cut on a thread of their
/// own, one batch ahead of the workers (cutting, a file's sequential part, overlaps judging);
/// that thread stops when the receiver is gone, and is not waited for (it may be waiting for
/// standard input). With one job they are cut as the loop asks for them. Errors: the thread
/// cannot be started.
pub fn cut_batches(
    jobs: usize,
    inputs: Vec<input::Input>,
    game_index: Option<usize>,
) -> std::io::Result<Box<dyn Iterator<Item = Vec<Chunk>>>> {
    let chunks: Box<dyn Iterator<Item = Chunk> + Send> = match game_index {
        Some(n) => Box::new(
            inputs
                .into_iter()
                .map(move |i| pipeline::chunk_of_game(&i, n)),
        ),
        None => Box::new(inputs.into_iter().flat_map(|i| input::chunks(&i))),
    };
    let mut chunks = chunks.peekable();
    let batches = std::iter::from_fn(move || {
        let (mut batch, mut bytes) = (Vec::new(), 0);
        while let Some(c) = chunks.next_if(|_| batch.len() < 256 && bytes < (8 << 20)) {
            bytes += c.text.len();
            batch.push(c);
        }
        (!batch.is_empty()).then_some(batch)
    });
    if jobs <= 1 {
        return Ok(Box::new(batches));
    }
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("arbiter-cutter".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            for batch in batches {
                if tx.send(batch).is_err() {
                    break;
                }
            }
        })?;
    Ok(Box::new(rx.into_iter()))
}

/// True when the shell started arbiter with standard output closed (`>&-`). Rust's runtime
/// then opens `/dev/null` for it, read-write, so every write would succeed and the user would
/// see nothing and a success: the commands exit 2 instead (issue 21). A shell's
/// `>/dev/null` opens it write-only, so a deliberate discard still runs.
pub fn stdout_closed() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
            return true;
        };
        let file = std::fs::File::from(fd);
        // SAFETY: F_GETFL on a descriptor this process owns; no memory is passed.
        let flags = unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&file), libc::F_GETFL) };
        let read_write = flags >= 0 && flags & libc::O_ACCMODE == libc::O_RDWR;
        let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino(), a.rdev()) == (b.dev(), b.ino(), b.rdev())
        };
        read_write
            && match (file.metadata(), std::fs::metadata("/dev/null")) {
                (Ok(a), Ok(b)) => same(&a, &b),
                _ => false,
            }
    }
    #[cfg(not(unix))]
    {
        false
    }
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
