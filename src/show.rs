//! `arbiter show` and `arbiter check --show`: the position after a ply, as a [`BoardView`].
//!
//! Positions come from the one replay driver ([`crate::games::replay_game`]): the game is replayed
//! with its engine and the engine's own state is drawn at the plies asked for, so what a
//! player is shown to know is exactly what the rules tracked (Stratego's revealed pieces,
//! Spionage's unmasked ones), never a second reckoning.
//!
//! Which position `check --show` draws under a finding at ply *p*: the position after *p*
//! when ply *p* was played (the history findings, `two-squares-rule`, `more-squares-rule`,
//! `jungle-repetition`, `result-mismatch`: the offending move is then the highlighted last
//! move); otherwise the last position the replay reached before it (a refused move,
//! `illegal-move` or an unreadable one: the position the player moved in; `moves-after-end`:
//! the position in which the game ended). A finding without a ply gets the last position
//! reached, and none when the game never started (`setup-invalid`).

use crate::finding::{Code, Finding, Severity};
use crate::pipeline::{self, GameReport};
use crate::record::GameRecord;
use crate::rules::{GameId, Overrides, Parameters, Replay};
use crate::types::ExitStatus;
use crate::types::Side;
use crate::view::{BoardView, LastMove};
use std::collections::{BTreeMap, BTreeSet};

/// Why a position cannot be shown (`arbiter show` exits 2).
#[derive(Debug, Clone)]
pub struct Unshowable {
    /// One line for the user.
    pub message: String,
    /// The findings that explain it (unreadable record, unsupported game, invalid setup, the
    /// move that stopped the replay).
    pub findings: Vec<Finding>,
}

/// The side a command-line name (`red`, `blue`, `white`, `black`, any case) means in a game
/// whose players are called `sides` (first player first: Red/Blue, White/Black, Red/Black);
/// `None` when the game has no player of that name.
pub fn side_named(sides: [&str; 2], name: &str) -> Option<Side> {
    [Side::First, Side::Second]
        .into_iter()
        .find(|s| sides[s.index()].eq_ignore_ascii_case(name.trim()))
}

/// Replays `record` under `game` and draws the arbiter's view of the positions after the
/// plies in `wanted` (the start: 0, or a `FromPly` tag's value) that the replay reaches, with ply number, last move and
/// (at the end) the outcome filled in.
pub fn views_at(
    game: GameId,
    record: &GameRecord,
    params: &Parameters,
    wanted: &BTreeSet<u32>,
) -> (Replay, BTreeMap<u32, BoardView>) {
    let mut views = BTreeMap::new();
    let start = crate::rules::start_ply(record).unwrap_or(0);
    let replay = crate::games::replay_game(game, record, params, &mut |info, draw| {
        let ply = info.map_or(start, |i| i.number);
        if wanted.contains(&ply) {
            let mut v = draw();
            v.ply = ply;
            v.last_move = info.map(|i| LastMove {
                side: i.side,
                from: i.from,
                to: i.to,
                capture: i.capture,
            });
            views.insert(ply, v);
        }
    });
    if let Some(o) = &replay.outcome {
        if let Some(v) = views.get_mut(&o.ply) {
            v.ended = Some(crate::types::Verdict {
                result: o.result,
                reason: o.reason,
            });
        }
    }
    (replay, views)
}

/// The arbiter's view of the position after ply `ply` (0: the start) of `record`, or why it
/// cannot be shown: the record is unreadable or names no judged ruleset, its setup is
/// invalid, or the ply was never reached (the record is shorter, the replay stopped at a
/// refused move, or the game had ended on the board).
pub fn board_at(
    record: &GameRecord,
    overrides: &Overrides,
    ply: u32,
) -> Result<BoardView, Unshowable> {
    let fail = |message: String, findings: Vec<Finding>| Unshowable { message, findings };
    if record.unreadable() {
        let errors = record
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .cloned()
            .collect();
        return Err(fail("the game cannot be read".into(), errors));
    }
    let game = pipeline::game_of(record, overrides)
        .map_err(|f| fail("the game names no ruleset arbiter judges".into(), vec![f]))?;
    let (params, _, _) = pipeline::parameters_for(record, game, overrides)
        .map_err(|fs| fail(format!("{} cannot be replayed", game.as_str()), fs))?;
    let wanted = BTreeSet::from([ply]);
    let (replay, mut views) = views_at(game, record, &params, &wanted);
    if let Some(v) = views.remove(&ply) {
        return Ok(v);
    }
    let (first, played) = (replay.start_ply, replay.plies.len() as u32);
    let last = first + played;
    let errors: Vec<Finding> = replay
        .findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .cloned()
        .collect();
    if replay.stopped && played == 0 && errors.iter().all(|f| f.ply.is_none()) {
        return Err(fail(
            "the game could not start, so there is no position to show".into(),
            errors,
        ));
    }
    let range = if played == 0 {
        format!("only ply {first} (the start position) can be shown")
    } else {
        format!("plies {first} to {last} can be shown")
    };
    let refused: Vec<Finding> = errors
        .into_iter()
        .filter(|f| f.ply == Some(last + 1))
        .collect();
    let message = if let Some(f) = refused.iter().find(|f| f.code != Code::MovesAfterEnd) {
        format!(
            "there is no position after ply {ply}: the replay stopped at ply {} ({}); {range}",
            last + 1,
            f.code
        )
    } else if let Some(o) = replay.outcome.as_ref().filter(|o| o.ply == last) {
        format!(
            "there is no position after ply {ply}: the game ended on the board after ply {} ({}); {range}",
            o.ply, o.reason
        )
    } else {
        format!(
            "there is no position after ply {ply}: the game has {played} {}; {range}",
            if played == 1 { "ply" } else { "plies" }
        )
    };
    Err(fail(message, refused))
}

/// The ply whose position `check --show` draws under `finding` when the replay applied the
/// plies up to `played` (their number; see the module doc).
pub fn ply_for(finding: &Finding, played: u32) -> u32 {
    finding.board_ply(played)
}

/// For every finding of the judged game `report` (in order): the board `check --show`
/// prints under it (arbiter's view, drawn as text, each line indented by four spaces), for
/// error findings of a game that started; `None` for the others. A variation's findings are
/// drawn from a replay of their line ([`GameRecord::line_record`]), one per line that has
/// error findings.
pub fn finding_boards(
    record: &GameRecord,
    report: &GameReport,
    color: bool,
) -> Vec<Option<String>> {
    let mut out = vec![None; report.findings.len()];
    let Some(game) = report.game else {
        return out;
    };
    let errors = |line: usize| {
        report
            .findings
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.severity() == Severity::Error && f.line == line)
    };
    for line in errors_lines(report) {
        if line == 0 {
            // A log taken up after a ply (FromPly) numbers its plies from there.
            let start = report.replay.as_ref().map_or(0, |r| r.start_ply);
            let played = start + report.plies as u32;
            draw_line(game, record, report, played, errors(0), color, &mut out);
        } else if let Some(rec) = record.line_record(line) {
            // The line's own replay says how far it got.
            let (replay, _) = views_at(game, &rec, &report.parameters, &BTreeSet::new());
            let played = replay.start_ply + replay.plies.len() as u32;
            draw_line(game, &rec, report, played, errors(line), color, &mut out);
        }
    }
    out
}

/// The lines of play that hold error findings of `report`.
fn errors_lines(report: &GameReport) -> BTreeSet<usize> {
    report
        .findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .map(|f| f.line)
        .collect()
}

/// Draws into `out` the boards of `findings` (index in the report, finding), all of one
/// line of play that `record` holds as its moves and whose replay applied `played` plies.
fn draw_line<'f>(
    game: GameId,
    record: &GameRecord,
    report: &GameReport,
    played: u32,
    findings: impl Iterator<Item = (usize, &'f Finding)> + Clone,
    color: bool,
    out: &mut [Option<String>],
) {
    let wanted: BTreeSet<u32> = findings.clone().map(|(_, f)| ply_for(f, played)).collect();
    if wanted.is_empty() {
        return;
    }
    let (_, views) = views_at(game, record, &report.parameters, &wanted);
    for (i, f) in findings {
        let at = ply_for(f, played);
        let Some(v) = views.get(&at) else {
            continue;
        };
        let why = match f.ply {
            Some(p) if p == at => format!("board after ply {p}, the ply of this finding"),
            Some(p) => format!("board before ply {p}, which was not played"),
            None => "board at the last position the replay reached".to_string(),
        };
        let mut text = format!("\n    {why}:\n");
        for line in v.render_text(color).lines() {
            text.push_str("    ");
            text.push_str(line);
            text.push('\n');
        }
        text.push('\n');
        out[i] = Some(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_by_the_game_names() {
        assert_eq!(
            side_named(GameId::Stratego.side_names(), "Red"),
            Some(Side::First)
        );
        assert_eq!(
            side_named(GameId::Jungle.side_names(), "blue"),
            Some(Side::Second)
        );
        assert_eq!(
            side_named(GameId::Spionage.side_names(), "white"),
            Some(Side::First)
        );
        assert_eq!(
            side_named(GameId::Xiangqi.side_names(), "black"),
            Some(Side::Second)
        );
        assert_eq!(side_named(GameId::Stratego.side_names(), "black"), None);
        assert_eq!(side_named(GameId::Spionage.side_names(), "red"), None);
    }

    #[test]
    fn finding_ply_rule() {
        let f = |ply| {
            let mut f = Finding::new(
                Code::IllegalMove,
                crate::types::Span::new(0, 0),
                "x",
                crate::rulebook::Rule::Xiangqi,
            );
            f.ply = ply;
            f
        };
        // Played: the position after the ply. Refused (the replay applied 6): the last
        // position before it. No ply: the last position.
        assert_eq!(ply_for(&f(Some(4)), 6), 4);
        assert_eq!(ply_for(&f(Some(7)), 6), 6);
        assert_eq!(ply_for(&f(Some(12)), 6), 6);
        assert_eq!(ply_for(&f(None), 6), 6);
        assert_eq!(ply_for(&f(Some(1)), 0), 0);
    }
}

/// What one `arbiter show` asks.
#[derive(Debug, Clone, Default)]
pub struct ShowRequest {
    /// The position after this ply (0: the start).
    pub ply: u32,
    /// Which game of the input (from 0).
    pub game_index: usize,
    /// Which line of play of the game (0 the main line, `n` its variation `n`).
    pub line: usize,
    /// Only what the player of this name knows (`red`, `black`, ...); `None`: the arbiter.
    pub as_side: Option<String>,
    /// Also write the picture as an SVG file here; `-`: write the SVG to the output instead
    /// of the text board.
    pub svg: Option<std::path::PathBuf>,
    /// How the SVG writes piece faces (letters, or Xiangqi's characters).
    pub faces: crate::report::svg::Faces,
    /// Parameter overrides.
    pub overrides: Overrides,
    /// ANSI colours.
    pub color: bool,
    /// Print the position as the start of a native log (tags and setup sections, as
    /// `convert --from-ply` writes it) instead of drawing it.
    pub log: bool,
    /// The log goes to a terminal: text from the record is drawn with visible stand-ins
    /// ([`crate::escape::log_text`]); into a file or a pipe it is written byte for byte.
    pub terminal: bool,
}

/// `arbiter show --log`: the position after `req.ply` as the start of a native log.
fn print_log(
    chunk: &crate::input::Chunk,
    rec: &GameRecord,
    req: &ShowRequest,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> ExitStatus {
    match crate::convert::position_log(rec, &req.overrides, req.ply) {
        Ok(text) => match out
            .write_all(crate::escape::log_text(&text, req.terminal).as_bytes())
            .and_then(|_| out.flush())
        {
            Ok(()) => ExitStatus::Clean,
            Err(e) => {
                let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
                ExitStatus::Unusable
            }
        },
        Err(problem) => {
            let findings = match problem {
                crate::convert::Problem::Findings(fs) => fs,
                crate::convert::Problem::Notation(_) => Vec::new(),
            };
            crate::report::human::print_findings(chunk, &findings, rec.index, req.color, err);
            let _ = writeln!(
                err,
                "arbiter: cannot show {} as a log",
                crate::escape::visible_line(&chunk.source)
            );
            ExitStatus::Unusable
        }
    }
}

/// `arbiter show`: draws the position after `req.ply` of game `req.game_index` of `input`
/// on `out` (and as SVG where asked); [`ExitStatus::Unusable`] with why on `err` when there
/// is no such position.
pub fn run(
    input: &crate::input::Input,
    req: &ShowRequest,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> ExitStatus {
    let Some((chunk, rec)) = pipeline::line_or_say(input, req.game_index, req.line, err) else {
        return ExitStatus::Unusable;
    };
    if req.log {
        return print_log(&chunk, &rec, req, out, err);
    }
    let view = match board_at(&rec, &req.overrides, req.ply) {
        Ok(v) => v,
        Err(e) => {
            crate::report::human::print_findings(&chunk, &e.findings, rec.index, req.color, err);
            let _ = writeln!(
                err,
                "arbiter: cannot show {}: {}",
                crate::escape::visible_line(&chunk.source),
                crate::escape::visible(&e.message)
            );
            return ExitStatus::Unusable;
        }
    };
    let view = match &req.as_side {
        None => view,
        Some(word) => match side_named(view.sides, word) {
            Some(side) => view.seen_by(side),
            None => {
                let [first, second] = view.sides;
                let _ = writeln!(
                    err,
                    "arbiter: {} has no {word} player; --as takes {} or {}",
                    view.game,
                    first.to_lowercase(),
                    second.to_lowercase()
                );
                return ExitStatus::Unusable;
            }
        },
    };
    // `--svg -`: the SVG alone on standard output, in place of the text board.
    let to_stdout = req.svg.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let shown = if to_stdout {
        view.render_svg_with(req.faces)
    } else {
        view.render_text(req.color)
    };
    if let Err(e) = out.write_all(shown.as_bytes()).and_then(|_| out.flush()) {
        let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
        return ExitStatus::Unusable;
    }
    if let Some(path) = req.svg.as_ref().filter(|_| !to_stdout) {
        if let Err(e) = std::fs::write(path, view.render_svg_with(req.faces)) {
            let _ = writeln!(
                err,
                "arbiter: cannot write {}: {e}",
                crate::escape::visible_line(&path.display().to_string())
            );
            return ExitStatus::Unusable;
        }
        let _ = writeln!(
            err,
            "arbiter: wrote {}",
            crate::escape::visible_line(&path.display().to_string())
        );
    }
    ExitStatus::Clean
}
