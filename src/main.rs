//! The `arbiter` command line: arguments in, exit code out. All judgement lives in the library.

use arbiter::pipeline::{self, Options, Summary};
use arbiter::report::{human, json};
use arbiter::rules::{GameId, Overrides};
use clap::{Parser, Subcommand, ValueEnum};
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
    /// Print a record (native log or Gravon XML) as a native log.
    Convert(ConvertArgs),
    /// Does a claim hold in the position after a ply? Exit 0 holds, 1 does not, 2 unusable.
    Claim(ClaimArgs),
}

#[derive(clap::Args, Debug)]
struct ClaimArgs {
    /// The game log (`-` for stdin).
    file: PathBuf,
    /// The claim: draw, two-squares or chase.
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
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

fn parse_claim(s: &str) -> Result<arbiter::claim::Claim, String> {
    arbiter::claim::Claim::parse(s)
        .ok_or_else(|| format!("unknown claim `{s}`; one of draw, two-squares, chase"))
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    /// miette reports for people (stderr-free: findings on stdout, summary on stderr)
    Human,
    /// one JSON document on stdout
    Json,
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
    /// Two-squares limit for every game checked (0 turns the rule off); overrides tags.
    #[arg(long, value_name = "N")]
    two_squares: Option<u32>,
}

impl RuleArgs {
    fn options(&self) -> Options {
        Options {
            overrides: Overrides {
                game: self.game,
                two_squares: self.two_squares,
                repetition: None,
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
    /// Colours in human output (NO_COLOR is honoured with auto).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The record to convert (native log or Gravon XML; `-` for stdin).
    file: PathBuf,
    /// Ruleset for logs without a Game tag.
    #[arg(long, value_parser = parse_game)]
    game: Option<GameId>,
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

fn check(a: CheckArgs) -> i32 {
    let opts = a.rules.options();
    let style = human::Style {
        color: use_color(a.color),
        width: 100,
    };
    let sources = pipeline::collect_sources(&a.paths);
    let mut summary = Summary {
        files: sources.len(),
        ..Summary::default()
    };
    let mut games_json = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for src in &sources {
        for g in pipeline::check_source(src, &opts) {
            summary.add(&g);
            match a.format {
                Format::Json => games_json.push(json::game(&g, &src.text)),
                Format::Human => {
                    for f in &g.findings {
                        let _ = write!(
                            out,
                            "{}",
                            human::render(f, &src.name, &src.text, g.index, style)
                        );
                    }
                }
            }
        }
    }
    if a.format == Format::Json {
        let doc = json::document(games_json, &summary);
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        );
    }
    let _ = out.flush();
    eprintln!(
        "arbiter: {} {}, {} {}, {} plies: {} {}, {} {}, {} {}",
        summary.files,
        plural(summary.files, "file", "files"),
        summary.games,
        plural(summary.games, "game", "games"),
        summary.plies,
        summary.errors,
        plural(summary.errors, "error", "errors"),
        summary.warnings,
        plural(summary.warnings, "warning", "warnings"),
        summary.infos,
        plural(summary.infos, "info", "infos"),
    );
    summary.exit_code()
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
                            if !first {
                                println!();
                            }
                            first = false;
                            print!(
                                "{}",
                                arbiter::convert::write_native(&rec, game, &params, &defaults)
                            );
                            None
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

fn claim(a: ClaimArgs) -> i32 {
    let opts = a.rules.options();
    let sources = pipeline::collect_sources(std::slice::from_ref(&a.file));
    let Some(src) = sources.first() else {
        eprintln!("arbiter: nothing to read at {}", a.file.display());
        return 2;
    };
    let games = pipeline::check_source(src, &opts);
    let Some(g) = games.get(a.game_index) else {
        eprintln!(
            "arbiter: {} has {} {}; there is no game index {}",
            src.name,
            games.len(),
            plural(games.len(), "game", "games"),
            a.game_index
        );
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
            match a.format {
                Format::Json => {
                    println!("{}", serde_json::to_string_pretty(&ans).unwrap_or_default())
                }
                Format::Human => {
                    let verdict = if ans.holds {
                        "holds"
                    } else if ans.discretionary {
                        "is at the admin's discretion"
                    } else {
                        "does not hold"
                    };
                    println!("claim `{}` after ply {}: {verdict}", ans.claim, ans.ply);
                    println!("  reason: {}", ans.reason);
                    if !ans.rule.is_empty() {
                        println!("  rule: {}", ans.rule);
                    }
                    if !ans.evidence_plies.is_empty() {
                        let list: Vec<String> =
                            ans.evidence_plies.iter().map(|p| p.to_string()).collect();
                        println!("  evidence: plies {}", list.join(", "));
                    }
                }
            }
            if ans.holds {
                0
            } else {
                1
            }
        }
    }
}
