//! The whole judgement of one source: read -> parse -> rules -> checks, producing one
//! [`GameReport`] per game. This is the only place the stages meet; each stage only consumes
//! the output of the one before.

use crate::checks;
use crate::finding::{Code, Finding, Severity};
use crate::record::{self, GameRecord, RecordedResult, Span};
use crate::rules::{
    self, stratego::Stratego, xiangqi::Xiangqi, GameId, Outcome, Overrides, Parameters, Replay,
};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One input: a file's text (invalid UTF-8 bytes replaced by `?`, so every byte offset still
/// points at the user's file) and how to name it in reports.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name used in reports (the path as given, or `<stdin>`).
    pub name: String,
    /// The text.
    pub text: String,
    /// Problems with the bytes themselves (invalid UTF-8), as `parse-error` findings.
    pub byte_findings: Vec<Finding>,
    /// The input could not be read at all (I/O error, a directory loop): reported as one
    /// `parse-error` game.
    pub unreadable: Option<String>,
}

impl Source {
    /// Wraps raw bytes. Invalid UTF-8 sequences become `?` bytes of the same length and each
    /// gets a `parse-error` finding with its span.
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Source {
        let mut findings = Vec::new();
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let mut bytes = e.into_bytes();
                let mut pos = 0;
                while pos < bytes.len() {
                    match std::str::from_utf8(&bytes[pos..]) {
                        Ok(_) => break,
                        Err(err) => {
                            let bad_start = pos + err.valid_up_to();
                            let bad_len = err.error_len().unwrap_or(bytes.len() - bad_start);
                            for b in &mut bytes[bad_start..bad_start + bad_len] {
                                *b = b'?';
                            }
                            findings.push(
                                Finding::new(
                                    Code::ParseError,
                                    Span::new(bad_start, bad_start + bad_len),
                                    "invalid UTF-8 in the log",
                                    "docs/log-format.md: logs are UTF-8 text",
                                )
                                .label("these bytes are not UTF-8")
                                .help("save the file as UTF-8; the game containing these bytes is not judged"),
                            );
                            pos = bad_start + bad_len;
                        }
                    }
                }
                String::from_utf8(bytes).unwrap_or_default()
            }
        };
        Source {
            name: name.into(),
            text,
            byte_findings: findings,
            unreadable: None,
        }
    }

    /// A source that could not be read; `why` is the reason.
    pub fn unreadable(name: impl Into<String>, why: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: String::new(),
            byte_findings: Vec::new(),
            unreadable: Some(why.into()),
        }
    }

    /// Reads a file.
    pub fn read(path: &Path) -> Source {
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Source::from_bytes(name, bytes),
            Err(e) => Source::unreadable(name, e.to_string()),
        }
    }

    /// True when the source is a Gravon XML record (by its content, not its name).
    pub fn is_gravon(&self) -> bool {
        let head = self.text.trim_start_matches('\u{feff}').trim_start();
        head.starts_with("<?xml") || head.starts_with("<stratego")
    }
}

/// Expands the command line's paths into sources, in a stable order: files as given,
/// directories walked (sorted by name; only `.arb`, `.pgn` and `.xml` files), `-` for stdin.
/// Anything that cannot be read (a dangling symlink, a symlink loop, a permission error)
/// becomes an unreadable source, never a silent skip.
pub fn collect_sources(paths: &[PathBuf]) -> Vec<Source> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            let mut bytes = Vec::new();
            match std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
                Ok(_) => out.push(Source::from_bytes("<stdin>", bytes)),
                Err(e) => out.push(Source::unreadable("<stdin>", e.to_string())),
            }
            continue;
        }
        if p.is_dir() {
            let walker = walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name();
            for entry in walker {
                match entry {
                    Ok(e) => {
                        if e.file_type().is_dir() {
                            continue;
                        }
                        let ext = e
                            .path()
                            .extension()
                            .and_then(|x| x.to_str())
                            .map(|x| x.to_ascii_lowercase());
                        if matches!(ext.as_deref(), Some("arb" | "pgn" | "xml")) {
                            out.push(Source::read(e.path()));
                        }
                    }
                    Err(e) => {
                        let name = e
                            .path()
                            .map(|x| x.display().to_string())
                            .unwrap_or_else(|| p.display().to_string());
                        let why = if e.loop_ancestor().is_some() {
                            "symbolic link loop".to_string()
                        } else {
                            e.io_error()
                                .map(|io| io.to_string())
                                .unwrap_or_else(|| e.to_string())
                        };
                        out.push(Source::unreadable(name, why));
                    }
                }
            }
        } else {
            out.push(Source::read(p));
        }
    }
    out
}

/// Everything arbiter says about one game.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    /// The source's name.
    pub source: String,
    /// 0-based index of the game in its source.
    pub index: usize,
    /// The ruleset, when known.
    pub game: Option<GameId>,
    /// Parameters in force.
    pub parameters: Parameters,
    /// Plies replayed (0 when the game could not be read).
    pub plies: usize,
    /// The recorded result (`Result` tag, else result token).
    #[serde(serialize_with = "ser_result")]
    pub result: Option<RecordedResult>,
    /// The `Termination` tag as written.
    pub termination: Option<String>,
    /// What the moves show.
    pub outcome: Option<Outcome>,
    /// Findings in order (by ply, record-level first).
    #[serde(skip)]
    pub findings: Vec<Finding>,
    /// The replay (plies, keys) for later stages that show positions.
    #[serde(skip)]
    pub replay: Option<Replay>,
}

fn ser_result<S: serde::Serializer>(r: &Option<RecordedResult>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => s.serialize_str(r.as_str()),
        None => s.serialize_none(),
    }
}

/// Options of one `arbiter check` run that change verdicts.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Parameter overrides from the command line.
    pub overrides: Overrides,
}

/// Parses a source into game records (native log or Gravon XML).
pub fn parse_source(src: &Source) -> Vec<GameRecord> {
    if let Some(why) = &src.unreadable {
        let mut g = GameRecord::default();
        g.findings.push(
            Finding::new(
                Code::ParseError,
                Span::default(),
                format!("cannot read {}: {why}", src.name),
                "arbiter reads files, directories and stdin",
            )
            .label("unreadable")
            .help("check the path; directories are walked for .arb, .pgn and .xml files"),
        );
        return vec![g];
    }
    let mut games = if src.is_gravon() {
        record::gravon::parse_gravon(&src.text, &src.name)
    } else {
        record::parse::parse_log(&src.text)
    };
    if games.is_empty() {
        let mut g = GameRecord {
            span: Span::new(0, src.text.len()),
            ..GameRecord::default()
        };
        g.findings.push(
            Finding::new(
                Code::ParseError,
                Span::new(0, 0),
                "no game in this file",
                "docs/log-format.md",
            )
            .label("the file is empty or holds only white space and comments")
            .help("a game log holds tag pairs, setups and moves"),
        );
        games.push(g);
    }
    for f in &src.byte_findings {
        let i = games
            .iter()
            .position(|g| {
                g.span.start <= f.span.start && f.span.start < g.span.end.max(g.span.start + 1)
            })
            .unwrap_or(0);
        games[i].findings.insert(0, f.clone());
    }
    games
}

/// Judges every game of a source.
pub fn check_source(src: &Source, opts: &Options) -> Vec<GameReport> {
    parse_source(src)
        .into_iter()
        .map(|rec| check_record(&src.name, &rec, opts))
        .collect()
}

/// The ruleset a record names (its `Game` tag, the importer's, or `--game`), or the finding
/// that says why it cannot be judged.
pub fn game_of(record: &GameRecord, overrides: &Overrides) -> Result<GameId, Finding> {
    if let Some(t) = record.tag("Game") {
        return GameId::parse(&t.value.value).ok_or_else(|| {
            Finding::new(
                Code::UnsupportedGame,
                t.value.span,
                format!("unknown game `{}`", t.value.value),
                "log-format.md: the Game tag names the ruleset",
            )
            .label("not a ruleset arbiter knows")
            .help(format!("arbiter judges {}", GameId::NAMES))
        });
    }
    if let Some(g) = &record.implied_game {
        return GameId::parse(g).ok_or_else(|| {
            Finding::new(
                Code::UnsupportedGame,
                Span::new(record.span.start, record.span.start),
                format!("`{g}` games are not supported"),
                "rulings §1.1: Gravon's classicfree and ultimate lightning are not supported",
            )
            .label("unsupported variant")
            .help("arbiter judges classic, barrage and duell Gravon records")
        });
    }
    if let Some(g) = overrides.game {
        return Ok(g);
    }
    Err(Finding::new(
        Code::ParseError,
        Span::new(record.span.start, record.span.start),
        "the game names no ruleset",
        "log-format.md: a log without a Game tag takes the CLI's --game",
    )
    .label("no Game tag")
    .help(format!(
        "add [Game \"...\"] or run with --game ID (one of {})",
        GameId::NAMES
    )))
}

/// The parameters in force for `record` under `game` and the ruleset's own defaults, or the
/// findings that keep the game from being judged (`unsupported-game` for a ruleset without an
/// engine, `parse-error` for a bad parameter tag).
pub fn parameters_for(
    record: &GameRecord,
    game: GameId,
    overrides: &Overrides,
) -> Result<(Parameters, Parameters), Vec<Finding>> {
    let defaults = match game {
        GameId::Stratego | GameId::Barrage | GameId::Duel | GameId::Veldslag => Stratego::new(game)
            .expect("stratego family")
            .default_parameters(),
        GameId::Xiangqi => Xiangqi::new().default_parameters(),
        other => {
            return Err(vec![Finding::new(
                Code::UnsupportedGame,
                record
                    .tag("Game")
                    .map_or(Span::new(record.span.start, record.span.start), |t| {
                        t.value.span
                    }),
                format!(
                    "{} is not judged by this version of arbiter",
                    other.as_str()
                ),
                "rulings §5: unsupported-game",
            )
            .label("no rule engine for this game yet")
            .help("arbiter currently judges stratego, barrage, duel and veldslag")])
        }
    };
    let mut source_defaults = defaults.clone();
    if record.implied_game.is_some() && source_defaults.two_squares.is_some() {
        // Gravon played the two-squares rule with 5 (issue #3; rulings §1.4).
        source_defaults.two_squares = Some(5);
    }
    let mut findings = Vec::new();
    let params = rules::resolve_parameters(record, source_defaults, overrides, &mut findings);
    if findings.is_empty() {
        Ok((params, defaults))
    } else {
        Err(findings)
    }
}

/// Judges one record.
pub fn check_record(source: &str, record: &GameRecord, opts: &Options) -> GameReport {
    let mut report = GameReport {
        source: source.to_string(),
        index: record.index,
        game: None,
        parameters: Parameters::default(),
        plies: 0,
        result: None,
        termination: record.tag_value("Termination").map(str::to_string),
        outcome: None,
        findings: record.findings.clone(),
        replay: None,
    };
    report.result = checks::outcome::recorded_result(record, &mut Vec::new()).map(|r| r.value);
    if record.unreadable() {
        return report;
    }
    let game = match game_of(record, &opts.overrides) {
        Ok(g) => g,
        Err(f) => {
            report.findings.push(f);
            return report;
        }
    };
    report.game = Some(game);
    let (params, _defaults) = match parameters_for(record, game, &opts.overrides) {
        Ok(p) => p,
        Err(findings) => {
            report.findings.extend(findings);
            return report;
        }
    };
    report.parameters = params.clone();
    let replay = match game {
        GameId::Stratego | GameId::Barrage | GameId::Duel | GameId::Veldslag => {
            let engine = Stratego::new(game).expect("stratego family");
            rules::replay(&engine, record, &params)
        }
        GameId::Xiangqi => rules::replay(&Xiangqi::new(), record, &params),
        _ => unreachable!("parameters_for rejects games without an engine"),
    };
    let mut replay = replay;
    replay.game = Some(game);
    report.parameters = replay.parameters.clone();
    report.plies = replay.plies.len();
    report.outcome = replay.outcome.clone();
    report.findings.extend(replay.findings.iter().cloned());
    let result_findings = checks::outcome::check_result(record, &replay);
    report.findings.extend(result_findings);
    sort_findings(&mut report.findings);
    report.replay = Some(replay);
    report
}

/// Orders findings: record-level (no ply) first, then by ply, then by position in the file.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by_key(|f| (f.ply.map_or(0, |p| p as u64 + 1), f.span.start));
}

/// Counts of one run, for the summary line and the JSON `summary`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Sources read.
    pub files: usize,
    /// Games judged or attempted.
    pub games: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
    /// True when some input could not be read, parsed or judged (exit code 2).
    #[serde(skip)]
    pub unusable: bool,
}

impl Summary {
    /// Adds one game's counts.
    pub fn add(&mut self, g: &GameReport) {
        self.games += 1;
        self.plies += g.plies;
        for f in &g.findings {
            match f.severity() {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
            if matches!(f.code, Code::ParseError | Code::UnsupportedGame) {
                self.unusable = true;
            }
        }
    }
    /// The exit code of rulings §5: 2 unusable input, else 1 errors, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.unusable {
            2
        } else if self.errors > 0 {
            1
        } else {
            0
        }
    }
}
