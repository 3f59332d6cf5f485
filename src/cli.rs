//! The `arbiter` command line: the clap types of every command and option, and [`main`], which
//! maps them onto the library's requests and returns the exit code (rulings §5: 0 no errors,
//! 1 errors found, 2 unusable input or usage). All judgement lives in the other modules; the
//! binary's `main.rs` only calls [`main`].

use crate::claim::{Claim, Question};
use crate::input::Input;
use crate::report::svg::Faces;
use crate::rules::{GameId, Overrides, RepetitionMode as Mode, TwoSquares};
use crate::run::{self, CheckOptions, ExitStatus, Format};
use crate::{Code, Severity};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Print a record (native log, Gravon XML, XQF, DhtmlXQ) as a native log.
    Convert(ConvertArgs),
    /// Does a claim hold after a ply, and may a move be played there? (docs/claims.md)
    Claim(ClaimArgs),
    /// Draw the position after a ply, as the arbiter or one player sees it (docs/show.md).
    Show(ShowArgs),
    /// Write one self-contained HTML page of the games: verdicts, findings, a board to step
    /// through (docs/report.md).
    Report(ReportArgs),
    /// What a finding code means, its severity, rule and what to do; every code without one.
    Explain {
        /// A finding code (`two-squares-rule`); omit it to list every code.
        code: Option<String>,
    },
    /// Print a shell completion script (e.g. `arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff: `arbiter man > arbiter.1; man ./arbiter.1`).
    Man,
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// Files, directories (walked as `check` walks them) or `-` for stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The page to write.
    #[arg(long, short = 'o', value_name = "FILE.html")]
    output: PathBuf,
    /// A page for this player: only what that player knew, in every game.
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    as_side: Option<SideName>,
    /// Piece faces: the log's letters, or (Xiangqi, Jieqi) the Chinese characters.
    #[arg(long, value_enum, default_value_t = Pieces::Letters)]
    pieces: Pieces,
    #[command(flatten)]
    rules: RuleArgs,
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
    /// Which line of play: 0 the main line, N the record's variation N (as check names it).
    #[arg(long, default_value_t = 0, value_name = "N")]
    line: usize,
    /// Only what this player knows at that ply (the game's own side names).
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    as_side: Option<SideName>,
    /// Also write the picture as a standalone SVG file (`-`: the SVG alone on stdout).
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// Print the position as the start of a native log (tags and setup sections, as
    /// `convert --from-ply` writes it) instead of drawing it.
    #[arg(long, conflicts_with_all = ["as_side", "svg"])]
    log: bool,
    /// Piece faces in the SVG: the log's letters, or (Xiangqi, Jieqi) the Chinese characters.
    #[arg(long, value_enum, default_value_t = Pieces::Letters)]
    pieces: Pieces,
    #[command(flatten)]
    rules: RuleArgs,
    /// Colours (NO_COLOR is honoured with auto).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Pieces {
    /// the letters of the log format (every game)
    Letters,
    /// Xiangqi and Jieqi: 帥仕相傌俥炮兵 and 將士象馬車砲卒 (other games keep letters)
    Chinese,
}

impl Pieces {
    fn faces(self) -> Faces {
        match self {
            Pieces::Letters => Faces::Letters,
            Pieces::Chinese => Faces::Chinese,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum SideName {
    Red,
    Blue,
    White,
    Black,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every claim of every ruleset, what it means, its source in the rulings, \
the evidence an answer cites and the exit codes: docs/claims.md.\n\
Exit codes: a claim 0 holds, 1 does not hold (or is at the admin's discretion), 2 does not \
apply to this game or cannot be judged; a move 0 allowed, 1 not allowed; --moves 0 when some \
move is allowed."
)]
struct ClaimArgs {
    /// The game log (`-` for stdin) and the claim, in either order: draw, two-squares, chase,
    /// repetition, jungle-repetition, no-return, perpetual-check, perpetual-chase, no-capture,
    /// move-limit, result. Without a claim, --move or --moves asks about moves.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE|CLAIM")]
    args: Vec<PathBuf>,
    /// The position after this ply (0: the start); `result` without it reads the whole game.
    #[arg(long)]
    ply: Option<u32>,
    /// May MOVE (the game's notation; for Spionage one move of a turn) be played after the ply?
    /// Without MOVE: as --moves.
    #[arg(long = "move", value_name = "MOVE", num_args = 0..=1, default_missing_value = "")]
    mv: Option<String>,
    /// Every move allowed after the ply, and apart the ones a history rule forbids.
    #[arg(long, conflicts_with = "mv")]
    moves: bool,
    /// Which game of the file (counting from 0).
    #[arg(long, default_value_t = 0)]
    game_index: usize,
    /// Which line of play: 0 the main line, N the record's variation N (as check names it).
    #[arg(long, default_value_t = 0, value_name = "N")]
    line: usize,
    #[command(flatten)]
    rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ClaimFormat::Human)]
    format: ClaimFormat,
}

/// Every claim's name, for messages.
const CLAIMS: &str = "draw, two-squares, chase, repetition, jungle-repetition, no-return, \
perpetual-check, perpetual-chase, no-capture, move-limit, result";

impl ClaimArgs {
    /// The question asked about moves, if any.
    fn move_question(&self) -> Option<Question> {
        match (&self.mv, self.moves) {
            (Some(m), _) if !m.is_empty() => Some(Question::Move(m.clone())),
            (Some(_), _) | (None, true) => Some(Question::Moves),
            (None, false) => None,
        }
    }

    /// The file and the question, the claim and the file in either order; `Err` with what is
    /// wrong with the usage.
    fn question(&self) -> Result<(PathBuf, Question), String> {
        match (self.args.as_slice(), self.move_question()) {
            ([file], Some(q)) => Ok((file.clone(), q)),
            ([_], None) => Err(format!(
                "name a claim ({CLAIMS}) or ask about moves with --move MOVE or --moves"
            )),
            ([_, _], Some(_)) => {
                Err("ask a claim or about moves (--move, --moves), not both".into())
            }
            ([a, b], None) => file_and_claim(a, b).map(|(f, c)| (f, Question::Claim(c))),
            _ => Err("give the game log and a claim".into()),
        }
    }
}

/// Which of `a` and `b` is the claim: the one that names a claim; when both do, the other
/// one is the file if it exists.
fn file_and_claim(a: &PathBuf, b: &PathBuf) -> Result<(PathBuf, Claim), String> {
    let claim_of = |p: &PathBuf| p.to_str().and_then(Claim::parse);
    match (claim_of(a), claim_of(b)) {
        (Some(c), Some(_)) if b.exists() && !a.exists() => Ok((b.clone(), c)),
        (_, Some(c)) => Ok((a.clone(), c)),
        (Some(c), None) => Ok((b.clone(), c)),
        (None, None) => {
            let unknown = if a.exists() { b } else { a };
            Err(format!(
                "unknown claim `{}`; one of {CLAIMS}",
                crate::escape::visible_line(&unknown.display().to_string())
            ))
        }
    }
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
    /// Ruleset for games that name none (no Game or Variant tag, nothing in the file shows one).
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
    fn overrides(&self) -> Overrides {
        Overrides {
            game: self.game,
            two_squares: self.two_squares.map(TwoSquares::from_count),
            repetition: self.repetition.map(|r| match r {
                RepetitionMode::Ends => Mode::Ends,
                RepetitionMode::Claim => Mode::Claim,
            }),
        }
    }
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files, directories (walked for .arb, .pgn, .xml and .xqf files, .txt and .log files
    /// that begin with a tag line, .txt and .html files that hold DhtmlXQ records, and files
    /// an importer knows by their first bytes) or `-` for stdin.
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
    /// No human report, only the summary line (a machine format is printed whole).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Count findings by code and by file, in place of the human report.
    #[arg(long)]
    statistics: bool,
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
    /// Judge only this game (counting from 0) of each file; the games before it are cut
    /// out without being parsed or judged.
    #[arg(long, value_name = "N")]
    game_index: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The record to convert (native log, Gravon XML, XQF or DhtmlXQ; `-` for stdin).
    file: PathBuf,
    /// Ruleset for games that name none (no Game or Variant tag, nothing in the file shows one).
    #[arg(long, value_parser = parse_game)]
    game: Option<GameId>,
    /// Write Xiangqi moves in this notation (default: as the record writes them); wxf and
    /// chinese are for Xiangqi games only.
    #[arg(long, value_enum)]
    notation: Option<NotationArg>,
    /// Start the log from the position after this ply (a FEN, or the position start of the
    /// Stratego family and Spionage), with the moves after it; ply numbers stay as they were.
    #[arg(long, value_name = "N")]
    from_ply: Option<u32>,
    /// Convert only this game (counting from 0); the games before it are cut out without
    /// being parsed.
    #[arg(long, value_name = "N")]
    game_index: Option<usize>,
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

impl NotationArg {
    fn word(self) -> &'static str {
        match self {
            NotationArg::Iccs => "iccs",
            NotationArg::Wxf => "wxf",
            NotationArg::Chinese => "chinese",
        }
    }
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

/// Parses the process's arguments, runs the command and returns its exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    if run::stdout_closed() {
        eprintln!("arbiter: standard output is closed: there is nowhere to write the report");
        return ExitStatus::Unusable.into();
    }
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let (mut out, mut err) = (stdout.lock(), stderr.lock());
    let status = match cli.command {
        Command::Check(a) => check(a, &mut out, &mut err),
        Command::Convert(a) => {
            let overrides = Overrides {
                game: a.game,
                ..Overrides::default()
            };
            let notation = a.notation.map(|n| n.word());
            let input = one_input(&a.file);
            crate::convert::run(
                &input,
                &overrides,
                &crate::convert::ConvertRequest {
                    notation,
                    from_ply: a.from_ply,
                    game_index: a.game_index,
                    terminal: std::io::stdout().is_terminal(),
                },
                use_color(Color::Auto),
                &mut out,
                &mut err,
            )
        }
        Command::Claim(a) => claim(a, &mut out, &mut err),
        Command::Explain { code } => crate::explain::run(code.as_deref(), &mut out, &mut err),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "arbiter", &mut out);
            ExitStatus::Clean
        }
        Command::Man => match clap_mangen::Man::new(Cli::command()).render(&mut out) {
            Ok(()) => ExitStatus::Clean,
            Err(e) => {
                let _ = writeln!(err, "arbiter: cannot write the manual page: {e}");
                ExitStatus::Unusable
            }
        },
        Command::Show(a) => {
            let req = crate::show::ShowRequest {
                ply: a.ply,
                game_index: a.game_index,
                line: a.line,
                as_side: a.as_side.map(|s| format!("{s:?}")),
                svg: a.svg,
                faces: a.pieces.faces(),
                overrides: a.rules.overrides(),
                color: use_color(a.color),
                log: a.log,
                terminal: std::io::stdout().is_terminal(),
            };
            crate::show::run(&one_input(&a.file), &req, &mut out, &mut err)
        }
        Command::Report(a) => {
            let opts = crate::report::html::ReportOptions {
                overrides: a.rules.overrides(),
                viewer: a.as_side.map(|s| format!("{s:?}").to_lowercase()),
                faces: a.pieces.faces(),
            };
            crate::page::run(&a.paths, &a.output, &opts, &mut err)
        }
    };
    status.into()
}

/// The one input a command that reads one file names (`-` for standard input).
fn one_input(path: &std::path::Path) -> Input {
    if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_path_buf())
    }
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

fn claim(a: ClaimArgs, out: &mut dyn Write, err: &mut dyn Write) -> ExitStatus {
    let format = match a.format {
        ClaimFormat::Human => crate::claim::ClaimFormat::Human,
        ClaimFormat::Json => crate::claim::ClaimFormat::Json,
    };
    let asked = a.question().and_then(|(file, q)| {
        if a.ply.is_none() && q != Question::Claim(Claim::Result) {
            return Err("--ply N is required (the position after ply N; 0 for the start)".into());
        }
        Ok((file, q))
    });
    let (file, question) = match asked {
        Ok(q) => q,
        Err(why) => {
            let _ = writeln!(err, "arbiter: {why}");
            if format == crate::claim::ClaimFormat::Json {
                let v = crate::claim::reply::ErrorReply {
                    error: why,
                    claim: None,
                    source: None,
                    game_index: None,
                    ply: None,
                };
                let _ = out.write_all(crate::claim::reply::json(&v).as_bytes());
            }
            return ExitStatus::Unusable;
        }
    };
    let req = crate::claim::ClaimRequest {
        question,
        ply: a.ply,
        game_index: a.game_index,
        line: a.line,
        overrides: a.rules.overrides(),
        format,
        color: use_color(Color::Auto),
    };
    crate::claim::run(&one_input(&file), &req, out, err)
}

fn check(a: CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> ExitStatus {
    for (on, flag) in [(a.show, "--show"), (a.statistics, "--statistics")] {
        if on && a.format != Format::Human {
            let _ = writeln!(
                err,
                "arbiter: {flag} is for the human format only; drop --format or {flag}"
            );
            return ExitStatus::Unusable;
        }
    }
    // More workers than MAX_JOBS only cost thread start-up: the work is split by games.
    const MAX_JOBS: usize = 256;
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(MAX_JOBS);
    let opts = CheckOptions {
        overrides: a.rules.overrides(),
        format: a.format,
        jobs,
        quiet: a.quiet,
        statistics: a.statistics,
        exit_zero: a.exit_zero,
        select: a.select,
        ignore: a.ignore,
        fail_on: match a.fail_on {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
            FailOn::Info => Severity::Info,
        },
        color: use_color(a.color),
        show: a.show,
        game_index: a.game_index,
    };
    run::check(&a.paths, &opts, out, err)
}
