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

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Files, directories (walked for .arb, .pgn and .xml files) or `-` for stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Ruleset for logs without a Game tag.
    #[arg(long, value_parser = parse_game)]
    game: Option<GameId>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Two-squares limit for every game checked (0 turns the rule off); overrides tags.
    #[arg(long, value_name = "N")]
    two_squares: Option<u32>,
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
    let opts = Options {
        overrides: Overrides {
            game: a.game,
            two_squares: a.two_squares,
            repetition: None,
        },
    };
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
