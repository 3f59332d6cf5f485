//! The whole judgement of one source: read -> parse -> rules -> checks, producing one
//! [`GameReport`] per game. This is the only place the stages meet; each stage only consumes
//! the output of the one before.

use crate::checks;
use crate::finding::{Code, Finding};
use crate::games;
use crate::input::{self, Chunk, ChunkKind, Input};
use crate::record::{self, GameRecord};
use crate::rulebook::Rule;
use crate::rules::{params, GameId, Outcome, Overrides, Parameters, Replay};
use crate::types::{MoveRef, RecordedResult, Side, Span};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One input read whole: a file's text (invalid UTF-8 bytes replaced by `?`, so every byte
/// offset still points at the user's file) and how to name it in reports. `check` streams
/// inputs as [`Chunk`]s instead; `convert` and `claim` read one file whole.
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
    /// The bytes as read when they are not all UTF-8 (a binary XQF file, GB18030 DhtmlXQ
    /// text): the readers of those formats read them, not the repaired text.
    raw: Option<Vec<u8>>,
}

impl Source {
    /// Wraps raw bytes. Invalid UTF-8 sequences become `?` bytes of the same length and each
    /// gets a `parse-error` finding with its span (in a format that is not text, or not
    /// UTF-8, the chunk's reader has the bytes as they were).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Source {
        let raw = std::str::from_utf8(&bytes).is_err().then(|| bytes.clone());
        let (text, byte_findings) = input::repair_utf8(bytes, 0);
        Source {
            name: name.into(),
            text,
            byte_findings,
            unreadable: None,
            raw,
        }
    }

    /// A source that could not be read; `why` is the reason.
    pub fn unreadable(name: impl Into<String>, why: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: String::new(),
            byte_findings: Vec::new(),
            unreadable: Some(why.into()),
            raw: None,
        }
    }

    /// Reads a file.
    pub fn read(path: &Path) -> Source {
        let name = input::path_name(path);
        match std::fs::read(path) {
            Ok(bytes) => Source::from_bytes(name, bytes),
            Err(e) => Source::unreadable(name, e.to_string()),
        }
    }

    /// The source cut into chunks, as `check` would stream it (each chunk repairs its own
    /// invalid UTF-8, with its findings, where its format is UTF-8 text).
    pub fn chunks(&self) -> Vec<Chunk> {
        if let Some(why) = &self.unreadable {
            return input::chunks(&Input::Unreadable {
                name: self.name.clone(),
                why: why.clone(),
            })
            .collect();
        }
        let bytes = match &self.raw {
            Some(raw) => raw.clone(),
            None => self.text.clone().into_bytes(),
        };
        input::chunks_of_text(&self.name, bytes)
    }
}

/// Expands the command line's paths and reads each input whole (see [`input::expand`]).
pub fn collect_sources(paths: &[PathBuf]) -> Vec<Source> {
    input::expand(paths)
        .into_iter()
        .map(|i| match i {
            Input::File(p) => Source::read(&p),
            Input::Stdin => {
                let mut bytes = Vec::new();
                match std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
                    Ok(_) => Source::from_bytes("<stdin>", bytes),
                    Err(e) => Source::unreadable("<stdin>", e.to_string()),
                }
            }
            Input::Unreadable { name, why } => Source::unreadable(name, why),
        })
        .collect()
}

/// Everything arbiter says about one game.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct GameReport {
    /// The source's name.
    pub source: String,
    /// 0-based index of the game in its source.
    pub index: usize,
    /// The ruleset, when known.
    pub game: Option<GameId>,
    /// Parameters in force.
    pub parameters: Parameters,
    /// Plies of the main line replayed (0 when the game could not be read).
    pub plies: usize,
    /// Lines of play in the record: the main line and its variations (1 without any).
    pub lines: usize,
    /// Plies of the variations replayed, each once (a ply a variation shares with its parent
    /// line is the parent's).
    pub variation_plies: usize,
    /// The recorded result (`Result` tag, else result token).
    #[serde(serialize_with = "ser_result")]
    #[schemars(with = "Option<RecordedResult>")]
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
    /// The players as the tags name them (the tag named after each side: `Red`, `Blue`,
    /// `White`, `Black`; else PGN's `White` and `Black`), first player first.
    #[serde(skip)]
    pub players: [Option<String>; 2],
    /// True when the replay stopped before the record's end (a setup, move or parameter that
    /// could not be judged): the plies after it are unchecked.
    #[serde(skip)]
    pub stopped: bool,
    /// The ply that ended the game on the board, or else the ply the replay stopped at, named
    /// as the record writes it.
    #[serde(skip)]
    pub key_move: Option<MoveRef>,
    /// Where each variation branches off (variation `n` at index `n - 1`), to name its line
    /// in reports.
    #[serde(skip)]
    pub branches: Vec<Branch>,
}

/// Where a variation branches off its parent line: how reports name the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Branch {
    /// The line it branches off (0 the main line).
    pub parent: usize,
    /// Its first ply, counted from the game's start (after a `FromPly`, from the ply it
    /// names): the parent line's move at this ply is the one it replaces.
    pub ply: u32,
    /// Its first move as written.
    #[serde(rename = "move")]
    pub first_move: String,
    /// The parent line's move it replaces, as written (none when it branches off after the
    /// parent's last move).
    pub replaces: Option<String>,
}

impl Branch {
    /// Where every variation of `record` branches off (plies after its `FromPly`, as the
    /// replay numbers them).
    pub fn of_record(record: &GameRecord) -> Vec<Branch> {
        let text = |m: Option<&record::MoveRecord>| m.map(|m| m.text().to_string());
        let start = crate::rules::start_ply(record).unwrap_or(0);
        record
            .variations
            .iter()
            .map(|v| {
                let parent = match v.parent {
                    0 => Some((0, &record.moves)),
                    p => record.variations.get(p - 1).map(|pv| (pv.start, &pv.moves)),
                };
                let replaces = parent.and_then(|(start, moves)| {
                    text(
                        (v.start as usize)
                            .checked_sub(start as usize)
                            .and_then(|i| moves.get(i)),
                    )
                });
                Branch {
                    parent: v.parent,
                    ply: start.saturating_add(v.start).saturating_add(1),
                    first_move: text(v.moves.first()).unwrap_or_default(),
                    replaces,
                }
            })
            .collect()
    }

    /// `line N, which branches off line P at ply K with M in place of R`: the line named for
    /// a report (`n` its number).
    pub fn describe(&self, n: usize) -> String {
        let parent = match self.parent {
            0 => "the main line".to_string(),
            p => format!("line {p}"),
        };
        let mut t = format!(
            "line {n} branches off {parent} at ply {} with {}",
            self.ply, self.first_move
        );
        if let Some(r) = &self.replaces {
            t.push_str(&format!(" in place of {r}"));
        }
        t
    }
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

/// Parses a chunk into game records (one native game, or the games of a Gravon file). A
/// chunk that holds no readable game still yields one record carrying its `parse-error`.
pub fn parse_chunk(chunk: &Chunk) -> Vec<GameRecord> {
    let mut games = match &chunk.kind {
        ChunkKind::Unreadable(why) => cannot_read(
            chunk,
            why,
            "check the path; directories are walked for .arb, .pgn, .xml and .xqf files, .txt and .log files that begin with a tag line, .txt and .html files that hold DhtmlXQ records, and files an importer knows by their first bytes",
        ),
        ChunkKind::NotText(why) => cannot_read(
            chunk,
            why,
            "arbiter reads text logs in UTF-8 (or GB18030), Gravon XML, XQF, DhtmlXQ and the importers' formats",
        ),
        ChunkKind::NoSuchGame(n) => special(
            chunk,
            format!(
                "{} has {n} {}; there is no game index {}",
                chunk.source,
                if *n == 1 { "game" } else { "games" },
                chunk.first_index
            ),
            "--game-index past the last game",
            "games are counted from 0",
        ),
        ChunkKind::Empty => special(
            chunk,
            "no game in this file".to_string(),
            "the file is empty or holds only white space",
            "a game log holds tag pairs, setups and moves",
        ),
        ChunkKind::Gravon => read_gravon(chunk),
        ChunkKind::Xqf => {
            let mut g = record::xqf::read_xqf(&chunk.raw, chunk.first_index);
            g.index = chunk.first_index;
            vec![g]
        }
        ChunkKind::DhtmlXq => {
            let mut g = record::dhtmlxq::read_dhtmlxq(&chunk.raw, chunk.first_index);
            g.shift_spans(chunk.offset);
            vec![g]
        }
        ChunkKind::Imported(importer) => {
            let mut g = importer.read(&chunk.text);
            g.shift_spans(chunk.offset);
            g.index = chunk.first_index;
            vec![g]
        }
        ChunkKind::Native => {
            // The record is built in its vector: a returned record is a 288-byte copy.
            let mut games = vec![GameRecord::default()];
            read_native(chunk, &mut games[0]);
            games[0].shrink_moves();
            games
        }
    };
    if chunk.kind != ChunkKind::Native {
        // A native game's are folded as it is parsed (`parse_game_into`).
        for g in &mut games {
            record::defects::fold(&mut g.findings, None);
        }
    }
    place_byte_findings(chunk, &mut games);
    games
}

/// The record of a source that cannot be read (`why`), its file name escaped for a terminal.
fn cannot_read(chunk: &Chunk, why: &str, help: &str) -> Vec<GameRecord> {
    let name = crate::escape::visible_line(&chunk.source);
    special(
        chunk,
        format!("cannot read {name}: {why}"),
        "unreadable",
        help,
    )
}

/// The one record of a chunk that holds no game: a `parse-error` at its start.
fn special(chunk: &Chunk, message: String, label: &str, help: &str) -> Vec<GameRecord> {
    let at = Span::new(chunk.offset, chunk.offset);
    let mut g = GameRecord {
        span: at,
        index: chunk.first_index,
        ..GameRecord::default()
    };
    g.findings.push(
        Finding::new(Code::ParseError, at, message, Rule::LogFormat)
            .label(label.to_string())
            .help(help.to_string()),
    );
    vec![g]
}

/// The games of a Gravon chunk, spans in the source; one `parse-error` when it holds none.
fn read_gravon(chunk: &Chunk) -> Vec<GameRecord> {
    let mut g = record::gravon::parse_gravon(&chunk.text, &chunk.source);
    if g.is_empty() {
        return special(
            chunk,
            "no <game> element in this Gravon file".to_string(),
            "expected <stratego><game ...>",
            "Gravon records hold one <game> element",
        );
    }
    for (i, r) in g.iter_mut().enumerate() {
        r.shift_spans(chunk.offset);
        r.index = chunk.first_index + i;
    }
    g
}

/// The game of a native chunk into `g`, read from its decoded text when it was GB18030 (spans
/// mapped back to the source's bytes), with the ruleset its source's text shows.
fn read_native(chunk: &Chunk, g: &mut GameRecord) {
    match &chunk.decoded {
        Some(d) => {
            record::parse::parse_game_into(&d.text, 0, g);
            g.for_each_span_mut(&mut |s| {
                s.start = chunk.offset + d.original(s.start);
                s.end = chunk.offset + d.original(s.end);
            });
        }
        None => record::parse::parse_game_into(&chunk.text, chunk.offset, g),
    }
    g.index = chunk.first_index;
    g.content_game = chunk.content_game;
    g.unnamed_before = chunk.unnamed_before && chunk.content_game.is_none();
}

/// Puts each invalid-UTF-8 finding of `chunk` first into the game its bytes lie in (games are
/// in text order, so a binary search finds it); one splice per game keeps this linear.
fn place_byte_findings(chunk: &Chunk, games: &mut [GameRecord]) {
    if games.is_empty() || chunk.byte_findings.is_empty() {
        return;
    }
    let mut per_game: Vec<Vec<Finding>> = vec![Vec::new(); games.len()];
    for f in &chunk.byte_findings {
        let i = games
            .partition_point(|g| g.span.end.max(g.span.start + 1) <= f.span.start)
            .min(games.len() - 1);
        per_game[i].push(f.clone());
    }
    for (g, fs) in games.iter_mut().zip(per_game) {
        if !fs.is_empty() {
            g.findings.splice(0..0, fs);
        }
    }
}

/// [`parse_chunk`] into `games`, whose records are read into again: a native game (nearly
/// every chunk of an archive) reuses the first record's vectors, so that reading game after
/// game allocates nothing for its plies and tags. What `games` held is replaced.
pub fn parse_chunk_into(chunk: &Chunk, games: &mut Vec<GameRecord>) {
    if chunk.kind != ChunkKind::Native {
        *games = parse_chunk(chunk);
        return;
    }
    games.truncate(1);
    if games.is_empty() {
        games.push(GameRecord::default());
    }
    read_native(chunk, &mut games[0]);
    place_byte_findings(chunk, games);
}

/// Runs `f` on the records of `chunk`, read into the records this thread read its last chunk
/// into ([`parse_chunk_into`]): judging an archive chunk after chunk allocates nothing for a
/// game's plies and tags. A record that held a huge game is not kept for the next.
pub fn with_records<T>(chunk: &Chunk, f: impl FnOnce(&[GameRecord]) -> T) -> T {
    thread_local! {
        static RECORDS: std::cell::Cell<Vec<GameRecord>> = const { std::cell::Cell::new(Vec::new()) };
    }
    // Taken, not borrowed: a nested call (a stolen rayon job) reads into records of its own.
    let mut games = RECORDS.take();
    parse_chunk_into(chunk, &mut games);
    let out = f(&games);
    if games.iter().all(|g| g.room() <= KEPT_ROOM) {
        RECORDS.set(games);
    }
    out
}

/// The most items of room (plies, tags, findings, comments, ...) [`with_records`] keeps for
/// the next chunk: a few MB at most.
const KEPT_ROOM: usize = 50_000;

/// Judges every game of a chunk.
pub fn check_chunk(chunk: &Chunk, opts: &Options) -> Vec<GameReport> {
    with_records(chunk, |records| {
        records
            .iter()
            .map(|rec| check_record(&chunk.source, rec, opts))
            .collect()
    })
}

/// Parses a whole source into game records (native log or Gravon XML).
pub fn parse_source(src: &Source) -> Vec<GameRecord> {
    src.chunks().iter().flat_map(parse_chunk).collect()
}

/// Judges every game of a source.
pub fn check_source(src: &Source, opts: &Options) -> Vec<GameReport> {
    src.chunks()
        .iter()
        .flat_map(|c| check_chunk(c, opts))
        .collect()
}

/// How a record's ruleset was found ([`named_game`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedBy {
    /// Its `Game` tag.
    GameTag,
    /// Its `Variant` tag (engine and site PGN: `[Variant "xiangqi"]`).
    VariantTag,
    /// The importer's source format (Gravon's `type`, XQF).
    Importer,
    /// `--game`.
    Cli,
    /// The source's text (an xqbase file is Xiangqi).
    Content,
}

/// The ruleset a record names, and how: its `Game` tag; its `Variant` tag when that names a
/// ruleset; the importer's; `--game`; the importer's default (Gravon `classic`); the ruleset
/// the source's text shows. Otherwise the finding that says why it cannot be judged.
pub fn named_game(
    record: &GameRecord,
    overrides: &Overrides,
) -> Result<(GameId, NamedBy), Finding> {
    if let Some(t) = record.tag("Game") {
        return GameId::parse(&t.value.value)
            .map(|g| (g, NamedBy::GameTag))
            .ok_or_else(|| unknown_game(t));
    }
    // Engine and site PGN name the ruleset by `Variant` (`xiangqi`, pychess `Xiangqi`); a
    // Variant that names no ruleset is a variant of one (Jungle's), left to the engine.
    if let Some(g) = record.tag_value("Variant").and_then(GameId::parse) {
        return Ok((g, NamedBy::VariantTag));
    }
    let implied = |g: &String| {
        GameId::parse(g)
            .map(|g| (g, NamedBy::Importer))
            .ok_or_else(|| {
                let at = Span::new(record.span.start, record.span.start);
                games::stratego::gravon_variant_finding(g, at)
            })
    };
    match (&record.implied_game, overrides.game) {
        (Some(g), _) if !record.implied_is_default => return implied(g),
        (_, Some(g)) => return Ok((g, NamedBy::Cli)),
        (Some(g), None) => return implied(g),
        (None, None) => {}
    }
    if let Some(g) = record.content_game {
        return Ok((g, NamedBy::Content));
    }
    Err(no_ruleset(record))
}

/// The ruleset a record names ([`named_game`]), or the finding that says why it cannot be
/// judged.
pub fn game_of(record: &GameRecord, overrides: &Overrides) -> Result<GameId, Finding> {
    named_game(record, overrides).map(|(g, _)| g)
}

/// The `unsupported-game` finding for a `Game` tag that names no ruleset.
fn unknown_game(t: &record::Tag) -> Finding {
    if let Some(f) = games::refuse_name(t) {
        return f;
    }
    Finding::new(
        Code::UnsupportedGame,
        t.value.span,
        format!("unknown game `{}`", t.value.value),
        Rule::LogGameTag,
    )
    .label("not a ruleset arbiter knows")
    .help(format!("arbiter judges {}", GameId::NAMES))
}

/// The `parse-error` for a game that names no ruleset, given once a file (on its first such
/// game, [`GameRecord::unnamed_before`]): which `--game` its moves suggest.
fn no_ruleset(record: &GameRecord) -> Finding {
    let at = Span::new(record.span.start, record.span.start);
    let suggested = games::suggest(record);
    let pass = match suggested.as_slice() {
        [] => format!("--game ID (one of {})", GameId::NAMES),
        [g] => format!("--game {}", g.as_str()),
        several => {
            let names: Vec<&str> = several.iter().map(|g| g.as_str()).collect();
            format!(
                "--game with one of {} (the moves fit each)",
                names.join(", ")
            )
        }
    };
    Finding::new(
        Code::ParseError,
        at,
        "the game names no ruleset, nor do the later games of this file that have no Game tag",
        Rule::LogNoGameTag,
    )
    .label("no Game tag")
    .help(format!(
        "add [Game \"...\"] to each game, or run with {pass}; none of these games is judged"
    ))
}

/// The parameters in force for `record` under `game` ([`params::resolve`]), the ruleset's
/// own defaults and the warnings the tags raise (a tag the ruleset does not have), or the
/// findings that keep the game from being judged (`unsupported-game` for a variant the engine
/// refuses, `parse-error` for a bad parameter tag).
pub fn parameters_for(
    record: &GameRecord,
    game: GameId,
    overrides: &Overrides,
) -> Result<(Parameters, Parameters, Vec<Finding>), Vec<Finding>> {
    let engine = games::engine(game);
    if let Some(f) = engine.refuse(record) {
        return Err(vec![f]);
    }
    let defaults = engine.default_parameters();
    let mut findings = Vec::new();
    let params = params::resolve(record, game, &defaults, overrides, &mut findings);
    if findings
        .iter()
        .any(|f| f.severity() == crate::finding::Severity::Error)
    {
        Err(findings)
    } else {
        Ok((params, defaults, findings))
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
        lines: 1 + record.variations.len(),
        variation_plies: 0,
        result: None,
        termination: record.tag_value("Termination").map(str::to_string),
        outcome: None,
        findings: record.findings.clone(),
        replay: None,
        players: [None, None],
        stopped: false,
        key_move: None,
        branches: Branch::of_record(record),
    };
    report.result = checks::outcome::recorded_result(record, &mut Vec::new()).map(|r| r.value);
    if record.unreadable() {
        return report;
    }
    let game = match game_of(record, &opts.overrides) {
        Ok(g) => g,
        // One finding a file for games that name no ruleset: an earlier game has it.
        Err(f) if record.unnamed_before && f.code == Code::ParseError => return report,
        Err(f) => {
            report.findings.push(f);
            return report;
        }
    };
    report.game = Some(game);
    // The tag named after the side, else PGN's White and Black (first and second player).
    let [first, second] = game.side_names();
    report.players = [(first, "White"), (second, "Black")].map(|(side, pgn)| {
        record
            .tag_value(side)
            .or(record.tag_value(pgn))
            .map(str::to_string)
    });
    let (params, _defaults) = match parameters_for(record, game, &opts.overrides) {
        Ok((params, defaults, warnings)) => {
            report.findings.extend(warnings);
            (params, defaults)
        }
        Err(findings) => {
            report.findings.extend(findings);
            return report;
        }
    };
    let engine = games::engine(game);
    let mut replay = if record.variations.is_empty() {
        engine.replay(record, &params, &mut |_, _| {})
    } else {
        // Every variation is judged too, each ply once (rules::tree).
        let mut tree = engine.replay_tree(record, &params);
        report.variation_plies = tree.lines.iter().map(|l| l.plies).sum();
        report.findings.append(&mut tree.findings);
        tree.main
    };
    report.parameters = replay.parameters.clone();
    report.plies = replay.plies.len();
    report.outcome = replay.outcome.clone();
    report.stopped = replay.stopped;
    report.key_move = key_move(record, &replay);
    let after = engine.after_replay(&replay);
    let result_findings = checks::outcome::check_result(record, &replay);
    // The replay's findings move into the report: the report holds them, the replay the plies.
    report.findings.append(&mut replay.findings);
    report.findings.extend(after);
    report.findings.extend(result_findings);
    sort_findings(&mut report.findings);
    report.replay = Some(replay);
    report
}

/// The ply that ended the game on the board, or the ply the replay stopped at (the one after
/// the last ply played), named as `record` writes it.
fn key_move(record: &GameRecord, replay: &Replay) -> Option<MoveRef> {
    // A log taken up after ply `start` (`FromPly`) holds plies `start + 1` on.
    let start = replay.start_ply;
    let side_of = |ply: u32| {
        let i = (ply as usize).checked_sub(1 + start as usize)?;
        replay.plies.get(i).map(|p| p.side)
    };
    match (&replay.outcome, replay.stopped) {
        (Some(o), _) => record.move_ref_after(start, o.ply, side_of(o.ply)),
        (None, true) => {
            let next = start + replay.plies.len() as u32 + 1;
            // A game that cannot start (its setup) stops at no ply.
            replay.findings.last().filter(|f| f.ply == Some(next))?;
            let (i, moves) = (replay.plies.len(), &record.moves);
            let same_turn = i > 0
                && moves
                    .get(i)
                    .is_some_and(|m| m.turn() == moves[i - 1].turn());
            let side = match replay.plies.last() {
                Some(p) if same_turn => p.side,
                Some(p) => p.side.other(),
                None => replay.parameters.first_move.unwrap_or(Side::First),
            };
            record.move_ref_after(start, next, Some(side))
        }
        (None, false) => None,
    }
}

/// Orders findings: by line of play (the main line first), then record-level (no ply)
/// first, then by ply, then by position in the file.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by_key(|f| (f.line, f.ply.map_or(0, |p| p as u64 + 1), f.span.start));
}

/// Why a command that reads one game of one input cannot read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoGame {
    /// The input holds fewer games: how many it holds.
    Fewer(usize),
    /// The input is a directory, which holds no single game.
    Directory,
}

/// The chunk of `input` that holds its game `index` (from 0), cut out without parsing or
/// judging the games before it (every chunk of a game holds one: a native game, a Gravon
/// `<game>`, an XQF record, a DhtmlXQ block, an importer's whole source): the cost is one read
/// of the bytes before it. An input that cannot be read or holds no game gives the chunk that
/// says so; one with fewer games a [`ChunkKind::NoSuchGame`] chunk.
pub fn chunk_of_game(input: &Input, index: usize) -> Chunk {
    let mut seen = 0;
    for chunk in input::chunks(input) {
        let no_game = matches!(
            chunk.kind,
            ChunkKind::Empty
                | ChunkKind::Unreadable(_)
                | ChunkKind::NotText(_)
                | ChunkKind::NoSuchGame(_)
        );
        if no_game || chunk.first_index >= index {
            return chunk;
        }
        seen = chunk.first_index.saturating_add(1);
    }
    Chunk::no_such_game(&input.name(), seen, index)
}

/// The game `index` (from 0) of `input` and the chunk it was read from
/// ([`chunk_of_game`]: the games before it are neither parsed nor judged).
pub fn find_game(input: &Input, index: usize) -> Result<(Chunk, GameRecord), NoGame> {
    if let Input::File(p) = input {
        if p.is_dir() {
            return Err(NoGame::Directory);
        }
    }
    let chunk = chunk_of_game(input, index);
    if let ChunkKind::NoSuchGame(n) = chunk.kind {
        return Err(NoGame::Fewer(n));
    }
    let mut records = parse_chunk(&chunk);
    match records.iter().position(|r| r.index == index) {
        Some(i) => Ok((chunk, records.swap_remove(i))),
        None => Err(NoGame::Fewer(chunk.first_index + records.len())),
    }
}

/// [`find_game`], saying on `err` why there is no such game.
pub fn game_or_say(
    input: &Input,
    index: usize,
    err: &mut dyn std::io::Write,
) -> Option<(Chunk, GameRecord)> {
    match find_game(input, index) {
        Ok(found) => Some(found),
        Err(NoGame::Directory) => {
            let _ = writeln!(
                err,
                "arbiter: {} is a directory; name one file (this command reads one game)",
                crate::escape::visible_line(&input.name())
            );
            None
        }
        Err(NoGame::Fewer(n)) => {
            let _ = writeln!(
                err,
                "arbiter: {} has {n} {}; there is no game index {index}",
                crate::escape::visible_line(&input.name()),
                if n == 1 { "game" } else { "games" }
            );
            None
        }
    }
}

/// [`game_or_say`], then line `line` of that game as a game of its own (0: the game itself;
/// `n`: its variation `n`, [`GameRecord::line_record`]), saying on `err` when the game has no
/// such line. How `show --line` and `claim --line` read their game.
pub fn line_or_say(
    input: &Input,
    index: usize,
    line: usize,
    err: &mut dyn std::io::Write,
) -> Option<(Chunk, GameRecord)> {
    let (chunk, rec) = game_or_say(input, index, err)?;
    if line == 0 {
        return Some((chunk, rec));
    }
    match rec.line_record(line) {
        Some(r) => Some((chunk, r)),
        None => {
            let n = rec.variations.len();
            let _ = writeln!(
                err,
                "arbiter: game index {} of {} has {} {}; there is no line {line} ({})",
                index,
                crate::escape::visible_line(&input.name()),
                n + 1,
                if n == 0 { "line" } else { "lines" },
                match n {
                    0 => "0 is the main line; the game has no variation".to_string(),
                    1 => "0 is the main line, 1 its variation".to_string(),
                    n => format!("0 is the main line, 1 to {n} its variations"),
                }
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fixture's games, read one chunk after another into the same records (the
    /// check's way), are the records read afresh: nothing of a game is left in the next
    /// (variations, comments, findings, a result, a huge game's room).
    #[test]
    fn records_read_into_again_are_the_records_read_afresh() {
        let inputs = crate::input::expand(&[std::path::PathBuf::from("fixtures")]);
        let (mut games, mut chunks) = (0, 0);
        for input in &inputs {
            for chunk in crate::input::chunks(input) {
                let fresh = parse_chunk(&chunk);
                let again = with_records(&chunk, |records| records.to_vec());
                assert_eq!(again, fresh, "{}", chunk.source);
                (games, chunks) = (games + fresh.len(), chunks + 1);
            }
        }
        // Every fixture folder was read, with its variations, comments and findings.
        assert!(
            inputs.len() > 250 && chunks > 400 && games > 400,
            "{games} {chunks}"
        );
    }

    /// A record that held a huge game (here 60,000 tags) is not kept for the next chunk: its
    /// room would stay taken for the rest of the archive.
    #[test]
    fn the_room_of_a_huge_game_is_not_kept() {
        let tags: String = (0..60_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
        let big = format!("[Game \"xiangqi\"]\n{tags}\n1. h2e2 *\n");
        let small = "[Game \"xiangqi\"]\n\n1. h2e2 *\n";
        let room = |text: &str| {
            let chunk = crate::input::chunks_of_text("t", text.as_bytes().to_vec()).remove(0);
            with_records(&chunk, |r| (r[0].tags.len(), r[0].tags.capacity()))
        };
        assert_eq!(room(&big).0, 60_001);
        let (n, capacity) = room(small);
        assert_eq!(n, 1);
        assert!(capacity < 1000, "{capacity}");
        // A small game's room is kept.
        let tags16: String = (0..16).map(|i| format!("[T{i} \"v\"]\n")).collect();
        let kept = room(&format!("[Game \"xiangqi\"]\n{tags16}\n1. h2e2 *\n")).1;
        assert_eq!(room(small).1, kept);
    }
}
