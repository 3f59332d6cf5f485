//! `arbiter report`: one self-contained HTML page that an admin sends to both players (issue
//! 25, docs/report.md). Per game: the verdict and the tags, a board that steps through every
//! ply (drawn by [`super::svg`], the code of `show --svg`), the move list, every finding
//! pinned to its ply with the squares it is about, the arbiter's and each player's view, and
//! for print the board at each finding. Many games get a table of games first.
//!
//! What the page holds: the board frame of each kind of board and each kind of piece once,
//! drawn at the origin ([`Kits`]); per game a JSON block with the moves and, per view, the
//! start position and what each ply changes (square, piece) — linear in the plies. The one
//! script only clones those drawings onto the points the frame gives; it builds every text
//! with `textContent`, so nothing from a log is ever read as markup. A Content-Security-Policy
//! allows that script and that style sheet (by their SHA-256) and nothing else: no request
//! leaves the page.
//!
//! A page for one player (`--as SIDE`) holds that player's view only: positions from
//! [`BoardView::seen_by`], moves as coordinates, findings by their code's description, no
//! comments, in every game that hides pieces; an identity the player did not know is nowhere
//! in the file.

use super::svg::{self, esc, Faces, Layout, Mark};
use crate::finding::{Finding, Severity};
use crate::pipeline::GameReport;
use crate::record::GameRecord;
use crate::rules::{GameId, Overrides, PlyInfo};
use crate::types::Side;
use crate::view::{BoardView, LastMove};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write;

const SCRIPT: &str = include_str!("html.js");
const STYLE: &str = include_str!("html.css");

/// What one `arbiter report` asks.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// Parameter overrides, as for `check`.
    pub overrides: Overrides,
    /// A page for the player of this name (`red`, `black`, ...): only what that player knew.
    pub viewer: Option<String>,
    /// Piece faces on the boards.
    pub faces: Faces,
}

/// What makes two pieces look the same: ruleset, faces, owner, letter (`None`: unknown to
/// the viewer), knowledge mark.
type PieceKey = (&'static str, Faces, Side, Option<char>, Option<char>);

/// The drawings a page shares between its games: per board frame and per piece look, one
/// drawing, written once before the games.
#[derive(Default)]
pub struct Kits {
    /// `<template>` elements: each frame's board without pieces.
    frames: String,
    /// Rendered frame text -> its number.
    frame_ids: HashMap<String, usize>,
    /// `<g>` drawings of pieces and marks at the origin, inside one `<defs>`.
    pieces: String,
    /// (ruleset, faces, owner, letter, knowledge mark) -> piece number.
    piece_ids: HashMap<PieceKey, usize>,
}

impl Kits {
    /// The number of `v`'s board frame, drawn the first time it is met.
    fn frame(&mut self, v: &BoardView, faces: Faces) -> usize {
        let layout = Layout::board_only(v);
        let mut body = String::new();
        v.board_frame(&mut body, &layout, faces);
        if let Some(&n) = self.frame_ids.get(&body) {
            return n;
        }
        let n = self.frame_ids.len();
        let id = format!("f{n}-");
        let centres: Vec<String> = (0..v.geometry.squares() as u8)
            .map(|sq| {
                let (x, y) = layout.centre(v, sq);
                format!("{x},{y}")
            })
            .collect();
        let names: Vec<String> = (0..v.geometry.squares() as u8)
            .map(|sq| v.geometry.name(sq))
            .collect();
        let mut s = String::new();
        v.svg_open(&mut s, &layout, "");
        svg::arrow_defs(&mut s, &id);
        s.push_str(&body);
        let _ = write!(
            s,
            r#"<g class="marks"></g><g class="pieces"></g><line class="arrow" x1="0" y1="0" x2="0" y2="0" visibility="hidden" {}/></svg>"#,
            svg::arrow_attributes(&id)
        );
        let _ = writeln!(
            self.frames,
            r#"<template id="frame{n}" data-centres="{}" data-names="{}" data-back="{}">{s}</template>"#,
            centres.join(" "),
            esc(&names.join(" ")),
            svg::ARROW_BACK
        );
        self.frame_ids.insert(body, n);
        n
    }

    /// The number of the drawing of piece `p` as `v` shows it, drawn the first time.
    fn piece(&mut self, v: &BoardView, p: &crate::view::PieceView, faces: Faces) -> usize {
        // Looked up for every piece of every ply: a key that allocates nothing.
        let key = (
            v.game,
            faces,
            p.owner,
            p.identity.map(|i| i.letter),
            v.knowledge_mark(p),
        );
        if let Some(&n) = self.piece_ids.get(&key) {
            return n;
        }
        let n = self.piece_ids.len();
        let token = piece_token(v, p);
        let _ = write!(self.pieces, r#"<g id="p{n}" data-token="{}">"#, esc(&token));
        v.piece(&mut self.pieces, 0, 0, p, faces);
        self.pieces.push_str("</g>\n");
        self.piece_ids.insert(key, n);
        n
    }

    /// The shared drawings as HTML: the frame templates and one hidden SVG of definitions.
    fn html(&self) -> String {
        let mut s = self.frames.clone();
        s.push_str(r#"<svg class="kit" width="0" height="0" aria-hidden="true"><defs>"#);
        s.push_str(&self.pieces);
        for (id, kind) in [
            ("m-last", Mark::LastMove),
            ("m-finding", Mark::Finding),
            ("m-evidence", Mark::Evidence),
        ] {
            let _ = write!(s, r#"<g id="{id}">"#);
            svg::mark(&mut s, kind, 0, 0);
            s.push_str("</g>\n");
        }
        s.push_str("</defs></svg>\n");
        s
    }
}

/// The terminal drawing's name of a piece as `v` shows it: owner's initial, letter or `?`,
/// knowledge mark (`rX*`, `b?`).
fn piece_token(v: &BoardView, p: &crate::view::PieceView) -> String {
    let mut t = String::new();
    t.push(v.initial(p.owner));
    t.push(p.identity.map_or('?', |i| i.letter));
    if let Some(m) = v.knowledge_mark(p) {
        t.push(m);
    }
    t
}

/// The pieces each side has lost and the score, as a view gives them.
type LostPieces = ([Vec<crate::view::PieceView>; 2], Option<[u32; 2]>);

/// One view of one game as it goes: the position as piece numbers per square, the start, and
/// per ply the squares that changed.
struct Track {
    viewer: Option<Side>,
    prev: Vec<i64>,
    start: Vec<i64>,
    changes: Vec<Vec<i64>>,
    /// (ply, lost lines) whenever the lost pieces or the score changed.
    lost: Vec<Value>,
    last_lost: Option<LostPieces>,
}

impl Track {
    fn new(viewer: Option<Side>) -> Track {
        Track {
            viewer,
            prev: Vec::new(),
            start: Vec::new(),
            changes: Vec::new(),
            lost: Vec::new(),
            last_lost: None,
        }
    }

    /// Records the position after `ply` (the arbiter's view `v`, seen by this track's viewer).
    fn add(&mut self, v: &BoardView, ply: u32, kits: &mut Kits, faces: Faces) {
        let seen;
        let v = match self.viewer {
            Some(side) if v.hidden_pieces => {
                seen = v.seen_by(side);
                &seen
            }
            _ => v,
        };
        let now: Vec<i64> = v
            .pieces
            .iter()
            .map(|p| p.as_ref().map_or(-1, |p| kits.piece(v, p, faces) as i64))
            .collect();
        if ply == 0 {
            self.start = now.clone();
        } else {
            let mut diff = Vec::new();
            for (sq, (a, b)) in self.prev.iter().zip(&now).enumerate() {
                if a != b {
                    diff.extend([sq as i64, *b]);
                }
            }
            self.changes.push(diff);
        }
        self.prev = now;
        // The lines are written only when the lost pieces or the score changed.
        let lost = (v.lost.clone(), v.score);
        if self.last_lost.as_ref() != Some(&lost) {
            let mut lines: Vec<String> = [Side::First, Side::Second]
                .iter()
                .map(|s| v.lost_line(*s))
                .collect();
            lines.extend(v.score_line());
            self.lost.push(json!([ply, lines]));
            self.last_lost = Some(lost);
        }
    }

    fn json(&self, name: String, label: String) -> Value {
        json!({"name": name, "label": label, "start": self.start,
               "changes": self.changes, "lost": self.lost})
    }
}

/// Everything a game's board needs, gathered in one replay.
struct Stepper {
    tracks: Vec<Track>,
    plies: Vec<PlyInfo>,
    captions: Vec<(u8, Option<&'static str>)>,
    frame: Option<usize>,
    hidden: bool,
    sides: [&'static str; 2],
    /// The start position (arbiter's view), for coordinates.
    first: Option<BoardView>,
    /// The positions drawn for print, after the plies asked for (in the page's one view).
    snapshots: std::collections::BTreeMap<u32, BoardView>,
}

/// Replays `rec` and records every ply's position in the views of `viewers`.
/// The positions after the plies in `print` are kept as the page's first view sees them.
fn step_through(
    g: &GameInput,
    game: GameId,
    viewers: &[Option<Side>],
    print: &std::collections::BTreeSet<u32>,
    kits: &mut Kits,
    faces: Faces,
) -> Stepper {
    let mut st = Stepper {
        tracks: viewers.iter().map(|v| Track::new(*v)).collect(),
        plies: Vec::new(),
        captions: Vec::new(),
        frame: None,
        hidden: false,
        sides: game.side_names(),
        first: None,
        snapshots: Default::default(),
    };
    let params = &g.report.parameters;
    crate::games::replay_game(game, g.record, params, &mut |info, draw| {
        let mut v = draw();
        let ply = info.map_or(0, |i| i.number);
        if st.frame.is_none() {
            st.frame = Some(kits.frame(&v, faces));
            st.hidden = v.hidden_pieces;
            st.first = Some(v.clone());
            if !st.hidden {
                // Nothing is hidden: every player's view is the first one's.
                st.tracks.truncate(1);
            }
        }
        if print.contains(&ply) {
            v.ply = ply;
            v.last_move = info.map(last_move);
            let seen = viewers[0].map_or_else(|| v.clone(), |s| v.seen_by(s));
            st.snapshots.insert(ply, seen);
        }
        for t in &mut st.tracks {
            t.add(&v, ply, kits, faces);
        }
        st.captions.push((v.to_move.index() as u8, v.turn_note));
        if let Some(i) = info {
            st.plies.push(i.clone());
        }
    });
    st
}

/// `s` as JSON that can stand inside a `<script>` element: `<`, `>` and `&` escaped, so no
/// text of the log can close the element, and bidirectional, zero-width and line-separator
/// characters drawn as their stand-ins ([`crate::escape::format_stand_in`]).
fn script_json(v: &impl serde::Serialize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            // Text that would reorder, hide or break what the page shows: its stand-in.
            c => out.push(crate::escape::format_stand_in(c).unwrap_or(c)),
        }
    }
    out
}

/// The verdict of a judged game in the words of every other output
/// ([`super::verdict::GameVerdict::line`]): how the moves end it, whether the record agrees,
/// the findings counted (rulings §1.3, §4.3: the outcome on the board decides). `redact` (a
/// player's page of a game with hidden pieces): as [`super::verdict::GameVerdict::for_player`].
pub fn verdict_line(report: &GameReport, redact: bool) -> String {
    let v = super::verdict::GameVerdict::of(report);
    if redact {
        v.for_player().line()
    } else {
        v.line()
    }
}

/// The squares a finding is about: its own ply's from- and to-square, and those of the plies
/// it rests on (the run, the chase, the earlier occurrences, the window).
fn finding_squares(f: &Finding, plies: &[PlyInfo]) -> (Vec<u8>, Vec<u8>) {
    let squares = |p: u32| {
        plies
            .get((p as usize).wrapping_sub(1))
            .map_or(Vec::new(), |i| vec![i.from, i.to])
    };
    let own = f.ply.map_or(Vec::new(), squares);
    let mut ev: Vec<u8> = f.evidence.iter().flat_map(|&p| squares(p)).collect();
    ev.sort_unstable();
    ev.dedup();
    ev.retain(|sq| !own.contains(sq));
    (own, ev)
}

fn list(xs: &[u8]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// One finding as a list item: code, severity, ply, message, labels, help, rule; `redact`
/// (a player's page of a game with hidden pieces) gives the code's description instead of
/// the texts, which may name a piece the player did not know.
fn finding_item(f: &Finding, plies: &[PlyInfo], redact: bool, s: &mut String) {
    let at = f.board_ply(plies.len() as u32);
    // A variation's plies are not the main line's the board steps through: its squares are
    // not marked there, and the button names its line.
    let (own, ev) = if f.line == 0 {
        finding_squares(f, plies)
    } else {
        Default::default()
    };
    let sev = f.severity().as_str();
    let ply = match super::ply_prefix(f).trim_end_matches(": ") {
        "" => "game".to_string(),
        named => named.to_string(),
    };
    let evidence: Vec<String> = f.evidence.iter().map(|p| p.to_string()).collect();
    let _ = write!(
        s,
        r#"<li class="finding sev-{sev}" data-at="{at}" data-own="{}" data-ev="{}" data-plies="{}"><button class="goto" type="button">{ply}</button> <code>{}</code> <span class="sev">{sev}</span>"#,
        list(&own),
        list(&ev),
        evidence.join(","),
        f.code
    );
    if redact {
        let _ = write!(s, r#"<div class="msg">{}</div>"#, esc(f.code.description()));
    } else {
        let _ = write!(s, r#"<div class="msg">{}</div>"#, esc(&f.message));
        // In the order of the log, as the human report draws them.
        let mut labels: Vec<(usize, &str)> = std::iter::once((f.span.start, f.label.as_str()))
            .chain(f.labels.iter().map(|l| (l.span.start, l.text.as_str())))
            .filter(|(_, t)| !t.is_empty() && *t != f.message)
            .collect();
        labels.sort_by_key(|l| l.0);
        let labels: Vec<&str> = labels.into_iter().map(|l| l.1).collect();
        if !labels.is_empty() {
            s.push_str(r#"<ul class="labels">"#);
            for l in labels {
                let _ = write!(s, "<li>{}</li>", esc(l));
            }
            s.push_str("</ul>");
        }
        if let Some(h) = &f.help {
            let _ = write!(s, r#"<div class="help">help: {}</div>"#, esc(h));
        }
    }
    let _ = write!(
        s,
        r#"<div class="rule">rule: {}</div></li>"#,
        esc(f.rule.citation())
    );
    s.push('\n');
}

/// One game's place in the page: what the games table says of it.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// The section's anchor (`g3`).
    pub anchor: String,
    /// Source name and game number.
    pub title: String,
    /// The ruleset's name, or `?`.
    pub game: String,
    /// [`verdict_line`].
    pub verdict: String,
    /// The worst severity among its findings, if any.
    pub worst: Option<Severity>,
}

/// What the page needs of one judged game.
pub struct GameInput<'a> {
    /// Its number in the page (from 0).
    pub number: usize,
    /// The record.
    pub record: &'a GameRecord,
    /// The judgement.
    pub report: &'a GameReport,
    /// A page for one player (`--as`): the texts that may name a piece are left out of every
    /// game that hides pieces or could not be replayed.
    pub for_player: bool,
}

/// The views a page shows of a game: the arbiter's and each player's, or one player's.
fn viewers(viewer: Option<Side>) -> Vec<Option<Side>> {
    match viewer {
        Some(s) => vec![Some(s)],
        None => vec![None, Some(Side::First), Some(Side::Second)],
    }
}

/// The views' names, labels and positions, a view equal to an earlier one given as `same`.
fn views_json(st: &Stepper, viewers: &[Option<Side>], game: &str) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for (i, viewer) in viewers.iter().enumerate() {
        let (name, label) = match viewer {
            None => (
                "arbiter".to_string(),
                "arbiter's view: every piece the record gives".to_string(),
            ),
            Some(s) => {
                let n = st.sides[s.index()];
                let label = if st.hidden {
                    format!("{n}'s view: only what {n} knew after this ply")
                } else {
                    format!("{n}'s view: nothing is hidden in {game}, {n} sees every piece")
                };
                (n.to_string(), label)
            }
        };
        let Some(t) = st.tracks.get(i) else {
            out.push(json!({"name": name, "label": label, "same": 0}));
            continue;
        };
        let same = st.tracks[..i]
            .iter()
            .position(|e| e.start == t.start && e.changes == t.changes && e.lost == t.lost);
        out.push(match same {
            Some(j) => json!({"name": name, "label": label, "same": j}),
            None => t.json(name, label),
        });
    }
    Value::Array(out)
}

/// The game's data block ([`game_json`]), serialized as it stands: a game of ten million
/// comments once became a tree of JSON values, 6 GB for a 40 MB log.
#[derive(serde::Serialize)]
struct GameData<'a> {
    game: &'a str,
    sides: [&'static str; 2],
    frame: Option<usize>,
    moves: Vec<String>,
    from: Vec<u8>,
    to: Vec<u8>,
    cap: Vec<u8>,
    mover: Vec<usize>,
    next: Vec<u8>,
    notes: Vec<&'static str>,
    end: Option<Value>,
    unplayed: usize,
    /// (moves before it, text) of each main-line comment.
    comments: Vec<(usize, &'a str)>,
    views: Value,
}

/// The game's data block: moves, captions and every view's positions.
fn game_json<'a>(
    g: &'a GameInput,
    st: &Stepper,
    viewers: &[Option<Side>],
    redact: bool,
) -> GameData<'a> {
    let game = g.report.game.map_or("?", |x| x.as_str());
    let rec = g.record;
    let moves: Vec<String> = st
        .plies
        .iter()
        .enumerate()
        .map(|(i, p)| match rec.moves.get(i) {
            Some(m) if !redact => match m.annotation() {
                Some(a) => format!("{}({})", m.text(), a.value),
                None => m.text().to_string(),
            },
            _ => coordinates(st, p),
        })
        .collect();
    let comments = if redact {
        Vec::new()
    } else {
        rec.comments
            .iter()
            .filter(|c| c.line == 0)
            .map(|c| (c.after, c.text.as_str()))
            .collect()
    };
    let end = g.report.outcome.as_ref().map(|o| {
        // The caption's words are show's (board.rs headline), so page and terminal agree.
        let v = crate::types::Verdict {
            result: o.result,
            reason: o.reason,
        };
        let words = crate::types::ending_words(st.sides, v);
        json!([o.ply, o.reason.as_str(), o.result.as_str(), words])
    });
    GameData {
        game,
        sides: st.sides,
        frame: st.frame,
        moves,
        from: st.plies.iter().map(|p| p.from).collect(),
        to: st.plies.iter().map(|p| p.to).collect(),
        cap: st.plies.iter().map(|p| u8::from(p.capture)).collect(),
        mover: st.plies.iter().map(|p| p.side.index()).collect(),
        next: st.captions.iter().map(|c| c.0).collect(),
        notes: st.captions.iter().map(|c| c.1.unwrap_or("")).collect(),
        end,
        unplayed: rec.moves.len().saturating_sub(st.plies.len()),
        comments,
        views: views_json(st, viewers, game),
    }
}

/// `e4-e5` or `e4xe5` of a ply, as every drawing writes the last move.
fn coordinates(st: &Stepper, p: &PlyInfo) -> String {
    st.first
        .as_ref()
        .map_or(String::new(), |v| v.move_text(last_move(p)))
}

fn last_move(p: &PlyInfo) -> LastMove {
    LastMove {
        side: p.side,
        from: p.from,
        to: p.to,
        capture: p.capture,
    }
}

/// The section of one game, and its row in the games table. `viewer`: a player's page.
pub fn game_section(
    g: &GameInput,
    viewer: Option<Side>,
    kits: &mut Kits,
    faces: Faces,
    s: &mut String,
) -> GameRow {
    let report = g.report;
    let anchor = format!("g{}", g.number);
    let title = format!(
        "{} · game {}",
        report.source,
        report.index.saturating_add(1)
    );
    let print = print_plies(report);
    let stepper = report
        .game
        .filter(|_| report.replay.is_some())
        .map(|game| step_through(g, game, &viewers(viewer), &print.0, kits, faces))
        .filter(|st| st.frame.is_some());
    let redact = g.for_player && stepper.as_ref().is_none_or(|st| st.hidden);
    let row = GameRow {
        anchor: anchor.clone(),
        title: title.clone(),
        game: report.game.map_or("?", |x| x.as_str()).to_string(),
        verdict: verdict_line(report, redact),
        worst: report.findings.iter().map(|f| f.severity()).max(),
    };
    let _ = write!(
        s,
        r#"<section class="game" id="{anchor}" data-ruleset="{}" data-index="{}"><h2>{} <span class="ruleset">{}</span></h2><p class="verdict">{}</p>"#,
        esc(&row.game),
        report.index,
        esc(&title),
        esc(&row.game),
        esc(&row.verdict)
    );
    tags_table(g.record, s);
    if let Some(st) = &stepper {
        board_block(g, st, viewer, s);
    }
    let plies = stepper.as_ref().map_or(&[][..], |st| &st.plies[..]);
    findings_block(report, plies, redact, s);
    if let Some(st) = &stepper {
        print_boards(g, st, &print, faces, s);
        let data = script_json(&game_json(g, st, &viewers(viewer), redact));
        let _ = write!(
            s,
            r#"<script type="application/json" class="data">{data}</script>"#
        );
    }
    s.push_str("</section>\n");
    row
}

/// The tags as a two-column table, every name and value escaped.
fn tags_table(rec: &GameRecord, s: &mut String) {
    if rec.tags.is_empty() {
        return;
    }
    s.push_str(r#"<table class="tags"><tbody>"#);
    for t in &rec.tags {
        let _ = write!(
            s,
            "<tr><th>{}</th><td>{}</td></tr>",
            esc(&t.name.value),
            esc(&t.value.value)
        );
    }
    s.push_str("</tbody></table>");
}

/// The board, its caption and controls, the view switch and the move list (filled by the
/// script from the data block).
fn board_block(g: &GameInput, st: &Stepper, viewer: Option<Side>, s: &mut String) {
    let n = st.plies.len();
    s.push_str(r#"<div class="viewer" tabindex="0"><div class="left">"#);
    if viewer.is_none() {
        s.push_str(r#"<div class="views" role="group" aria-label="whose view"></div>"#);
    }
    let _ = write!(
        s,
        r#"<div class="caption"><div class="headline"></div><div class="viewline"></div></div><div class="board" data-frame="{}"></div>"#,
        st.frame.unwrap_or(0)
    );
    let _ = write!(
        s,
        r#"<div class="controls"><button type="button" data-step="first" title="first (Home)">|&lt;</button><button type="button" data-step="prev" title="previous (←)">&lt;</button><button type="button" data-step="next" title="next (→)">&gt;</button><button type="button" data-step="last" title="last (End)">&gt;|</button><input type="range" class="slider" min="0" max="{n}" value="{n}" aria-label="ply"><output class="plyno">{n}</output></div><div class="lost"></div></div>"#
    );
    let _ = write!(
        s,
        r#"<div class="right"><h3>Moves</h3><ol class="moves" data-game="{}"></ol></div></div>"#,
        g.number
    );
}

/// Every finding in a list, pinned to its ply.
fn findings_block(report: &GameReport, plies: &[PlyInfo], redact: bool, s: &mut String) {
    let _ = write!(
        s,
        r#"<h3>Findings ({})</h3><ol class="findings">"#,
        report.findings.len()
    );
    for f in &report.findings {
        finding_item(f, plies, redact, s);
    }
    s.push_str("</ol>");
}

/// At most this many boards a game are drawn for print: a game of thousands of findings (a
/// long shuffle, each of its repetitions one) would otherwise make a page a thousand times
/// its log's size.
pub const PRINT_BOARDS: usize = 24;

/// The plies drawn for print ([`PRINT_BOARDS`] at most: those of the most severe findings
/// first, then the earliest), and how many other plies with a finding are left out. Only the
/// main line's findings with a ply count: the board steps through the main line.
fn print_plies(report: &GameReport) -> (std::collections::BTreeSet<u32>, usize) {
    use std::cmp::Reverse;
    let played = report.plies as u32;
    let mut plies: Vec<(Reverse<Severity>, u32)> = report
        .findings
        .iter()
        .filter(|f| f.ply.is_some() && f.line == 0)
        .map(|f| (Reverse(f.severity()), f.board_ply(played)))
        .collect();
    plies.sort_unstable();
    let mut chosen = std::collections::BTreeSet::new();
    let mut all = std::collections::BTreeSet::new();
    for (_, ply) in plies {
        if chosen.len() < PRINT_BOARDS {
            chosen.insert(ply);
        }
        all.insert(ply);
    }
    let left_out = all.len() - chosen.len();
    (chosen, left_out)
}

/// For print: the board (the page's view) at each ply of `print` ([`print_plies`]), drawn by
/// `show --svg`'s code, and a line saying how many boards are left out.
fn print_boards(
    g: &GameInput,
    st: &Stepper,
    print: &(std::collections::BTreeSet<u32>, usize),
    faces: Faces,
    s: &mut String,
) {
    s.push_str(r#"<div class="print-boards">"#);
    if print.1 > 0 {
        let _ = write!(
            s,
            r#"<p class="print-note">{} more main-line plies with findings have no board here (at most {PRINT_BOARDS} a game, the most severe findings first); the page steps to each.</p>"#,
            print.1
        );
    }
    for &ply in &print.0 {
        let Some(v) = st.snapshots.get(&ply) else {
            continue;
        };
        let mut v = v.clone();
        if let Some(o) = g.report.outcome.as_ref().filter(|o| o.ply == ply) {
            v.ended = Some(crate::types::Verdict {
                result: o.result,
                reason: o.reason,
            });
        }
        let id = format!("g{}-{ply}-", g.number);
        let svg = v.render_svg_in(faces, &id);
        let svg = svg.split_once('\n').map_or(svg.as_str(), |(_, rest)| rest);
        let _ = write!(
            s,
            r#"<figure class="print-board" data-ply="{ply}">{svg}</figure>"#
        );
    }
    s.push_str("</div>");
}

/// The page's head: title, the Content-Security-Policy that lets only this page's own script
/// and style run and forbids every request, and the style.
fn head(title: &str) -> String {
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'",
        sha256_source(SCRIPT),
        sha256_source(STYLE)
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style></head>\n",
        esc(title)
    )
}

/// `sha256-...` of `text`, as a CSP source.
fn sha256_source(text: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha256::digest(text.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The whole page: head, title, the games table (more than one game), the shared drawings,
/// the game sections, the script.
pub fn page(title: &str, subtitle: &str, rows: &[GameRow], kits: &Kits, sections: &str) -> String {
    let mut s = head(title);
    let _ = writeln!(
        s,
        "<body><header><h1>{}</h1><p class=\"sub\">{}</p></header>",
        esc(title),
        esc(subtitle)
    );
    if rows.len() > 1 {
        s.push_str(r#"<table class="games"><thead><tr><th>#</th><th>game</th><th>ruleset</th><th>verdict</th></tr></thead><tbody>"#);
        for (i, r) in rows.iter().enumerate() {
            let worst = r.worst.map_or("none", |w| w.as_str());
            let _ = writeln!(
                s,
                r##"<tr class="worst-{worst}"><td>{}</td><td><a href="#{}">{}</a></td><td>{}</td><td>{}</td></tr>"##,
                i + 1,
                r.anchor,
                esc(&r.title),
                esc(&r.game),
                esc(&r.verdict)
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str(&kits.html());
    s.push_str("<main>\n");
    s.push_str(sections);
    s.push_str("</main>\n<script>");
    s.push_str(SCRIPT);
    s.push_str("</script></body></html>\n");
    s
}
