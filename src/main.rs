//! The `arbiter` command line: arguments in, exit code out. All judgement lives in the library.

use arbiter::convert::ConvertError;
use arbiter::games::xiangqi::notation::Notation;
use arbiter::input::{self, Chunk};
use arbiter::pipeline::{self, GameReport, Options, Summary};
use arbiter::report::{self, human, json};
use arbiter::rules::{GameId, Overrides};
use arbiter::{Code, Severity};
use clap::{Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

// std's eprintln!/eprint! panic when standard error cannot be written (closed, a full
// disk). Messages on stderr are a courtesy: the exit code carries the outcome, so these
// shadow them and drop a failed write.
macro_rules! eprintln {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}
macro_rules! eprint {
    ($($t:tt)*) => {{
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

/// Replays recorded games and judges them the way a tournament arbiter would.
#[derive(Parser, Debug)]
#[command(name = "arbiter", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check game logs: every move, every rule, the recorded result.
    Check(CheckArgs),
    /// Print a record (native log or Gravon XML) as a native log.
    Convert(ConvertArgs),
    /// Does a claim hold in the position after a ply? Exit 0 holds, 1 does not, 2 unusable.
    Claim(ClaimArgs),
    /// Draw the position after a ply, as the arbiter or one player sees it (docs/show.md).
    Show(ShowArgs),
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
    /// The game log (`-` for stdin).
    file: PathBuf,
    /// The position after this ply (0: the start).
    #[arg(long)]
    ply: u32,
    /// Which game of the file (counting from 0).
    #[arg(long, default_value_t = 0)]
    game_index: usize,
    /// Only what this player knows at that ply (the game's own side names).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    as_side: Option<SideName>,
    /// Also write the picture as a standalone SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Colours (NO_COLOR is honoured with auto).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum SideName {
    Red,
    Blue,
    White,
    Black,
}

#[derive(clap::Args, Debug)]
struct ClaimArgs {
    /// The game log (`-` for stdin).
    file: PathBuf,
    /// The claim: draw, two-squares, chase, repetition, perpetual-check or perpetual-chase.
    #[arg(value_parser = parse_claim)]
    claim: arbiter::claim::Claim,
    /// The claim is made in the position after this ply (0: the start).
    #[arg(long)]
    ply: u32,
    /// Which game of the file (counting from 0).
    #[arg(long, default_value_t = 0)]
    game_index: usize,
    #[command(flatten)]
    rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ClaimFormat::Human)]
    format: ClaimFormat,
}

fn parse_claim(s: &str) -> Result<arbiter::claim::Claim, String> {
    arbiter::claim::Claim::parse(s)
        .ok_or_else(|| {
            format!("unknown claim `{s}`; one of draw, two-squares, chase, repetition, perpetual-check, perpetual-chase")
        })
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    /// miette reports for people (findings on stdout, summary on stderr)
    Human,
    /// one JSON document on stdout
    Json,
    /// one JSON object per game, then one summary object
    Jsonl,
    /// SARIF 2.1.0 for code-scanning tools
    Sarif,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum ClaimFormat {
    /// a few lines for people
    Human,
    /// one JSON object
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Options that change verdicts, shared by `check` and `claim`.
#[derive(clap::Args, Debug)]
struct RuleArgs {
    /// Ruleset for logs without a Game tag.
    #[arg(long, value_parser = parse_game)]
    game: Option<GameId>,
    /// Two-squares limit for every game (0 turns the rule off); overrides tags.
    #[arg(long, value_name = "N")]
    two_squares: Option<u32>,
    /// Xiangqi: whether a third occurrence ends the game (`ends`, the rule) or is reported
    /// and play goes on (`claim`, as tournament archives are played); overrides tags.
    #[arg(long, value_enum, value_name = "MODE")]
    repetition: Option<RepetitionMode>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum RepetitionMode {
    /// the third occurrence ends the game (rulings §4.3)
    Ends,
    /// the third occurrence is reported with its verdict; play goes on
    Claim,
}

impl RuleArgs {
    fn options(&self) -> Options {
        Options {
            overrides: Overrides {
                game: self.game,
                two_squares: self.two_squares.map(arbiter::rules::TwoSquares::from_count),
                repetition: self.repetition.map(|r| match r {
                    RepetitionMode::Ends => arbiter::rules::RepetitionMode::Ends,
                    RepetitionMode::Claim => arbiter::rules::RepetitionMode::Claim,
                }),
            },
        }
    }
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files, directories (walked for .arb, .pgn and .xml files) or `-` for stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print only the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Exit 0 even when findings reach the --fail-on level (unusable input still exits 2).
    #[arg(long)]
    exit_zero: bool,
    /// Only report these finding codes (comma-separated).
    #[arg(long, value_delimiter = ',', value_parser = parse_code, value_name = "CODE,...")]
    select: Vec<Code>,
    /// Never report these finding codes (comma-separated); parse-error and unsupported-game
    /// cannot be ignored.
    #[arg(long, value_delimiter = ',', value_parser = parse_code, value_name = "CODE,...")]
    ignore: Vec<Code>,
    /// The lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error, value_name = "SEVERITY")]
    fail_on: FailOn,
    /// Colours in human output (NO_COLOR is honoured with auto).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Under each error finding, draw the board (arbiter's view) at the finding's ply
    /// (human format only; docs/show.md says which position).
    #[arg(long)]
    show: bool,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The record to convert (native log or Gravon XML; `-` for stdin).
    file: PathBuf,
    /// Ruleset for logs without a Game tag.
    #[arg(long, value_parser = parse_game)]
    game: Option<GameId>,
    /// Write Xiangqi moves in this notation (default: as the record writes them); wxf and
    /// chinese are for Xiangqi games only.
    #[arg(long, value_enum)]
    notation: Option<NotationArg>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum NotationArg {
    /// coordinates, h2e2
    Iccs,
    /// WXF, C2.5
    Wxf,
    /// Chinese, 炮二平五
    Chinese,
}

fn parse_code(s: &str) -> Result<Code, String> {
    Code::parse(s.trim()).ok_or_else(|| {
        let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown finding code `{s}`; one of {}", all.join(", "))
    })
}

fn parse_game(s: &str) -> Result<GameId, String> {
    GameId::parse(s).ok_or_else(|| format!("unknown game `{s}`; one of {}", GameId::NAMES))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Check(a) => check(a),
        Command::Convert(a) => convert(a),
        Command::Claim(a) => claim(a),
        Command::Show(a) => show(a),
    };
    ExitCode::from(code as u8)
}

fn use_color(c: Color) -> bool {
    match c {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// What one chunk produced, rendered in the worker so that printing stays sequential.
struct Done {
    games: Vec<GameReport>,
    text: String,
    sarif: Vec<serde_json::Value>,
}

fn check(a: CheckArgs) -> i32 {
    if a.show && a.format != Format::Human {
        eprintln!("arbiter: --show draws boards in the human format only; drop --format or --show");
        return 2;
    }
    let opts = a.rules.options();
    let style = human::Style {
        color: use_color(a.color),
        width: 100,
    };
    // More workers than MAX_JOBS only cost thread start-up: the work is split by games.
    const MAX_JOBS: usize = 256;
    let jobs = a
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .min(MAX_JOBS);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arbiter: cannot start {jobs} worker threads: {e}");
            return 2;
        }
    };
    let inputs = input::expand(&a.paths);
    let mut summary = Summary {
        files: inputs.len(),
        ..Summary::default()
    };
    let keep = |code: Code| {
        if code.is_unusable() {
            return true;
        }
        (a.select.is_empty() || a.select.contains(&code)) && !a.ignore.contains(&code)
    };
    let threshold = match a.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    let mut failing = false;
    let mut json_games = Vec::new();
    let mut sarif_results = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write_error: Option<std::io::Error> = None;
    let work = |chunk: &Chunk| -> Done {
        let records = pipeline::parse_chunk(chunk);
        let mut games: Vec<GameReport> = records
            .iter()
            .map(|r| pipeline::check_record(&chunk.source, r, &opts))
            .collect();
        let mut text = String::new();
        let mut sarif = Vec::new();
        let uri = if a.format == Format::Sarif {
            report::sarif::artifact_uri(&chunk.source)
        } else {
            String::new()
        };
        for (g, rec) in games.iter_mut().zip(&records) {
            g.findings.retain(|f| keep(f.code));
            g.replay = None;
            if a.quiet {
                continue;
            }
            match a.format {
                Format::Human => {
                    let boards = if a.show {
                        arbiter::show::finding_boards(rec, g, style.color)
                    } else {
                        vec![None; g.findings.len()]
                    };
                    for (f, board) in g.findings.iter().zip(boards) {
                        text.push_str(&human::render_at(
                            f,
                            &chunk.source,
                            &chunk.text,
                            chunk.offset,
                            chunk.line,
                            g.index,
                            style,
                        ));
                        text.push_str(board.as_deref().unwrap_or(""));
                    }
                }
                Format::Jsonl => {
                    let v = json::game_at(g, &chunk.text, chunk.offset, chunk.line);
                    text.push_str(&serde_json::to_string(&v).unwrap_or_default());
                    text.push('\n');
                }
                Format::Json => {}
                Format::Sarif => {
                    for f in &g.findings {
                        sarif.push(report::sarif::result(
                            f,
                            &uri,
                            &chunk.text,
                            chunk.offset,
                            chunk.line,
                        ));
                    }
                }
            }
        }
        Done { games, text, sarif }
    };
    let mut chunks = inputs.iter().flat_map(input::chunks).peekable();
    // Batches bound memory (at most 256 chunks or about 8 MB of text in flight) while the
    // workers judge the games of a batch in parallel; output keeps the input order.
    while chunks.peek().is_some() {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while let Some(c) = chunks.next_if(|_| batch.len() < 256 && bytes < (8 << 20)) {
            bytes += c.text.len();
            batch.push(c);
        }
        let done: Vec<Done> = pool.install(|| batch.par_iter().map(work).collect());
        for (chunk, d) in batch.iter().zip(done) {
            if let Err(e) = out.write_all(d.text.as_bytes()) {
                write_error.get_or_insert(e);
            }
            sarif_results.extend(d.sarif);
            for g in &d.games {
                summary.add(g);
                if g.findings.iter().any(|f| f.severity() >= threshold) {
                    failing = true;
                }
                if a.format == Format::Json && !a.quiet {
                    json_games.push(json::game_at(g, &chunk.text, chunk.offset, chunk.line));
                }
            }
        }
    }
    let tail = match a.format {
        Format::Json => {
            let doc = json::document(json_games, &summary);
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
        Format::Jsonl => {
            let v = serde_json::json!({
                "arbiter": {"version": env!("CARGO_PKG_VERSION")},
                "summary": &summary,
            });
            writeln!(out, "{}", serde_json::to_string(&v).unwrap_or_default())
        }
        Format::Sarif => {
            let doc = report::sarif::document(sarif_results);
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
        Format::Human => Ok(()),
    };
    if let Err(e) = tail.and_then(|_| out.flush()) {
        write_error.get_or_insert(e);
    }
    eprintln!(
        "arbiter: {} {}, {} {}, {} {}: {} {}, {} {}, {} {}",
        summary.files,
        plural(summary.files, "file", "files"),
        summary.games,
        plural(summary.games, "game", "games"),
        summary.plies,
        plural(summary.plies, "ply", "plies"),
        summary.errors,
        plural(summary.errors, "error", "errors"),
        summary.warnings,
        plural(summary.warnings, "warning", "warnings"),
        summary.infos,
        plural(summary.infos, "info", "infos"),
    );
    if let Some(e) = write_error {
        eprintln!("arbiter: cannot write the report to standard output: {e}");
        return 2;
    }
    if summary.unusable {
        2
    } else if failing && !a.exit_zero {
        1
    } else {
        0
    }
}

/// The game `index` of the source `name`, or `None` after saying there is no such game.
fn pick<'a, T>(name: &str, games: &'a [T], index: usize) -> Option<&'a T> {
    let g = games.get(index);
    if g.is_none() {
        eprintln!(
            "arbiter: {name} has {} {}; there is no game index {index}",
            games.len(),
            plural(games.len(), "game", "games"),
        );
    }
    g
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn convert(a: ConvertArgs) -> i32 {
    let sources = pipeline::collect_sources(std::slice::from_ref(&a.file));
    let overrides = Overrides {
        game: a.game,
        ..Overrides::default()
    };
    let mut code = 0;
    let style = human::Style {
        color: use_color(Color::Auto),
        width: 100,
    };
    let mut first = true;
    for src in &sources {
        for rec in pipeline::parse_source(src) {
            let problem = if rec.unreadable() {
                Some(rec.findings.clone())
            } else {
                match pipeline::game_of(&rec, &overrides) {
                    Err(f) => Some(vec![f]),
                    Ok(game) => match pipeline::parameters_for(&rec, game, &overrides) {
                        Err(fs) => Some(fs),
                        Ok((params, defaults)) => {
                            match write_in(&rec, game, &params, &defaults, a.notation) {
                                Ok(text) => {
                                    let sep = if first { "" } else { "\n" };
                                    first = false;
                                    if !emit(&format!("{sep}{text}")) {
                                        return 2;
                                    }
                                    None
                                }
                                Err(ConvertError::Unreadable(f)) => Some(vec![*f]),
                                Err(ConvertError::NotXiangqi(g)) => {
                                    eprintln!(
                                    "arbiter: {} game {}: --notation {} is for xiangqi games, this one is {}",
                                    src.name,
                                    rec.index + 1,
                                    match a.notation {
                                        Some(NotationArg::Chinese) => "chinese",
                                        _ => "wxf",
                                    },
                                    g.as_str()
                                );
                                    Some(Vec::new())
                                }
                            }
                        }
                    },
                }
            };
            if let Some(fs) = problem {
                for f in fs
                    .iter()
                    .filter(|f| f.severity() == arbiter::Severity::Error)
                {
                    eprint!(
                        "{}",
                        human::render(f, &src.name, &src.text, rec.index, style)
                    );
                }
                code = 2;
            }
        }
    }
    code
}

/// One game as a native log, its moves as written or in `notation`.
fn write_in(
    rec: &arbiter::record::GameRecord,
    game: GameId,
    params: &arbiter::rules::Parameters,
    defaults: &arbiter::rules::Parameters,
    notation: Option<NotationArg>,
) -> Result<String, ConvertError> {
    let to = match notation {
        None => return Ok(arbiter::convert::write_native(rec, game, params, defaults)),
        Some(NotationArg::Iccs) => Notation::Iccs,
        Some(NotationArg::Wxf) => Notation::Wxf,
        Some(NotationArg::Chinese) => Notation::Chinese,
    };
    arbiter::convert::write_native_in(rec, game, params, defaults, to)
}

fn claim(a: ClaimArgs) -> i32 {
    let opts = a.rules.options();
    let sources = pipeline::collect_sources(std::slice::from_ref(&a.file));
    let Some(src) = sources.first() else {
        eprintln!("arbiter: nothing to read at {}", a.file.display());
        return 2;
    };
    let games = pipeline::check_source(src, &opts);
    let Some(g) = pick(&src.name, &games, a.game_index) else {
        return 2;
    };
    let style = human::Style {
        color: use_color(Color::Auto),
        width: 100,
    };
    match arbiter::claim::judge(g, a.claim, a.ply) {
        Err(e) => {
            for f in g.findings.iter().filter(|f| {
                matches!(
                    f.code,
                    arbiter::Code::ParseError
                        | arbiter::Code::UnsupportedGame
                        | arbiter::Code::IllegalMove
                )
            }) {
                eprint!("{}", human::render(f, &src.name, &src.text, g.index, style));
            }
            eprintln!("arbiter: cannot judge the claim: {}", e.0);
            2
        }
        Ok(ans) => {
            let text = match a.format {
                ClaimFormat::Json => {
                    format!(
                        "{}\n",
                        serde_json::to_string_pretty(&ans).unwrap_or_default()
                    )
                }
                ClaimFormat::Human => {
                    let verdict = if ans.holds {
                        "holds"
                    } else if ans.discretionary {
                        "is at the admin's discretion"
                    } else {
                        "does not hold"
                    };
                    let mut t = format!("claim `{}` after ply {}: {verdict}\n", ans.claim, ans.ply);
                    t.push_str(&format!("  reason: {}\n", ans.reason));
                    if !ans.rule.is_empty() {
                        t.push_str(&format!("  rule: {}\n", ans.rule));
                    }
                    if !ans.evidence_plies.is_empty() {
                        let list: Vec<String> =
                            ans.evidence_plies.iter().map(|p| p.to_string()).collect();
                        let noun = if list.len() == 1 { "ply" } else { "plies" };
                        t.push_str(&format!("  evidence: {noun} {}\n", list.join(", ")));
                    }
                    t
                }
            };
            if !emit(&text) {
                return 2;
            }
            if ans.holds {
                0
            } else {
                1
            }
        }
    }
}

/// Writes `text` to stdout; on failure (a closed pipe, a full disk) says so on stderr and
/// returns false, so that the command exits 2 instead of panicking or losing output silently.
fn emit(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("arbiter: cannot write to standard output: {e}");
            false
        }
    }
}

fn show(a: ShowArgs) -> i32 {
    let color = use_color(a.color);
    let overrides = a.rules.options().overrides;
    let sources = pipeline::collect_sources(std::slice::from_ref(&a.file));
    let Some(src) = sources.first() else {
        eprintln!("arbiter: nothing to read at {}", a.file.display());
        return 2;
    };
    let records = pipeline::parse_source(src);
    let style = human::Style { color, width: 100 };
    let Some(rec) = pick(&src.name, &records, a.game_index) else {
        return 2;
    };
    let view = match arbiter::show::board_at(rec, &overrides, a.ply) {
        Ok(v) => v,
        Err(e) => {
            for f in &e.findings {
                eprint!(
                    "{}",
                    human::render(f, &src.name, &src.text, rec.index, style)
                );
            }
            eprintln!("arbiter: cannot show {}: {}", src.name, e.message);
            return 2;
        }
    };
    let view = match a.as_side {
        None => view,
        Some(name) => {
            let word = format!("{name:?}");
            match arbiter::show::side_named(view.sides, &word) {
                Some(side) => view.seen_by(side),
                None => {
                    let [first, second] = view.sides;
                    eprintln!(
                        "arbiter: {} has no {word} player; --as takes {} or {}",
                        view.game,
                        first.to_lowercase(),
                        second.to_lowercase()
                    );
                    return 2;
                }
            }
        }
    };
    if !emit(&view.render_text(color)) {
        return 2;
    }
    if let Some(path) = &a.svg {
        if let Err(e) = std::fs::write(path, view.render_svg()) {
            eprintln!("arbiter: cannot write {}: {e}", path.display());
            return 2;
        }
        eprintln!("arbiter: wrote {}", path.display());
    }
    0
}
