//! What every fuzz target does with its input once it has one: the whole of `arbiter check`
//! in-process (read, cut into games, parse, replay, history checks), then every report the
//! CLI can print from it (every `--format`, through the one report writer) and the board after the last ply
//! (text and SVG), so a panic anywhere on the way is a crash the fuzzer finds. Spans are
//! checked to lie inside the input: a finding must point into the file the user gave.
//! [`each_game_alone`] asserts that a file's games are judged as each is alone (issue 20).

use arbiter::finding::Severity;
use arbiter::input::{chunks_of_text, Chunk, ChunkKind};
use arbiter::pipeline::{check_record, parse_chunk, GameReport, Options};
use arbiter::report::writer::{Format, Writer};
use arbiter::report::{SourceWindow, Summary};

/// Every output format of `check --format`.
const FORMATS: [Format; 8] = [
    Format::Human,
    Format::Json,
    Format::Jsonl,
    Format::Sarif,
    Format::Github,
    Format::Junit,
    Format::Rdjson,
    Format::Gitlab,
];

/// Judges `bytes` as the file `name` with `opts`, and renders everything.
pub fn judge(name: &str, bytes: &[u8], opts: &Options) {
    let mut judged = Vec::new();
    for chunk in chunks_of_text(name, bytes.to_vec()) {
        let mut games = Vec::new();
        for rec in parse_chunk(&chunk) {
            let r = check_record(&chunk.source, &rec, opts);
            for f in &r.findings {
                assert!(
                    f.span.start <= f.span.end && f.span.end <= bytes.len(),
                    "span {:?} outside the input ({} bytes): {f:?}",
                    f.span,
                    bytes.len()
                );
            }
            boards(&rec, &r, opts);
            games.push(r);
        }
        judged.push((chunk, games));
    }
    for format in FORMATS {
        render(format, &judged);
    }
}

/// Draws the board after the last ply of `rec`, as the arbiter and as each player sees it.
fn boards(rec: &arbiter::record::GameRecord, r: &GameReport, opts: &Options) {
    if let Ok(view) = arbiter::show::board_at(rec, &opts.overrides, r.plies as u32) {
        let _ = view.render_text(true);
        let _ = view.render_svg();
        for side in [arbiter::rules::Side::First, arbiter::rules::Side::Second] {
            let _ = view.seen_by(side).render_text(false);
        }
    }
}

/// Writes the whole report of `judged` in `format` to memory, as `check` writes it.
fn render(format: Format, judged: &[(Chunk, Vec<GameReport>)]) {
    let mut out = Vec::new();
    let mut summary = Summary::default();
    let mut writer = Writer::start(format, Severity::Error, &mut out).expect("memory");
    let renderer = writer.renderer(false);
    for (chunk, games) in judged {
        let src = SourceWindow::of(chunk);
        for r in games {
            let pieces = renderer.game(r, &src, &[]);
            writer.write(&mut out, r, &pieces).expect("memory");
            summary.add(r, Severity::Error);
        }
    }
    writer.finish(&mut out, &summary).expect("memory");
    // A log can never put a control character on a terminal, in any format.
    let text = std::str::from_utf8(&out).expect("every format writes UTF-8");
    assert!(!text.contains('\u{1b}'), "escape character in {format:?}");
}

/// A report without the parts that depend on where the game stands in its file: spans
/// relative to `base`.
fn verdict(r: &GameReport, base: usize) -> String {
    let mut out = format!("{:?} {} {:?}\n", r.game, r.plies, r.outcome);
    // The finding of a game that names no ruleset is given once a file (its first such game);
    // a Gravon file cut short between games is said at its last game, and any game read alone
    // (its piece of the file, which opens the root) is such a file.
    let once_a_file = |f: &&arbiter::Finding| {
        f.rule == arbiter::finding::Rule::LogNoGameTag
            || f.message == "the file ends before its <stratego> element is closed"
    };
    for f in r.findings.iter().filter(|f| !once_a_file(f)) {
        let rel = |x: usize| x as i64 - base as i64;
        out.push_str(&format!(
            "{} {:?} {} {} {}\n",
            f.code,
            f.ply,
            rel(f.span.start),
            rel(f.span.end),
            f.message
        ));
    }
    out
}

/// The reports of one chunk.
fn reports(chunk: &Chunk, opts: &Options) -> Vec<GameReport> {
    parse_chunk(chunk)
        .iter()
        .map(|rec| check_record(&chunk.source, rec, opts))
        .collect()
}

/// Every game of `bytes` (the file `name`) is judged exactly as it is alone: the file is cut
/// into games in order, nothing but white space (and a Gravon file's prolog and root end tag)
/// lies outside them, and each game's text read as a file of its own is that one game, with
/// the same findings (code, ply, message, span relative to the game), plies and outcome.
pub fn each_game_alone(name: &str, bytes: &[u8], opts: &Options) {
    let chunks = chunks_of_text(name, bytes.to_vec());
    let mut end = 0;
    for chunk in &chunks {
        // A source with no game, an unreadable one and a binary record are reported once,
        // not cut into games.
        if matches!(
            chunk.kind,
            ChunkKind::Empty | ChunkKind::Xqf | ChunkKind::Unreadable(_) | ChunkKind::NotText(_)
        ) {
            return;
        }
        assert!(
            chunk.offset >= end,
            "games overlap at byte {}",
            chunk.offset
        );
        let gap = &bytes[end..chunk.offset];
        if chunk.kind == ChunkKind::Native {
            assert!(
                gap.iter().all(|b| b" \t\r\n\xEF\xBB\xBF".contains(b)),
                "bytes outside every game: {gap:?}"
            );
        }
        end = chunk.offset + chunk.text.len();
        let here = reports(chunk, opts);
        let alone_bytes = bytes[chunk.offset..end].to_vec();
        let mut alone = chunks_of_text(name, alone_bytes);
        assert_eq!(
            alone.len(),
            1,
            "game at byte {} alone is one game",
            chunk.offset
        );
        // A game that names no ruleset takes the one its file's text shows: alone, it is
        // judged with the same.
        alone[0].content_game = chunk.content_game;
        let there = reports(&alone[0], opts);
        assert_eq!(here.len(), there.len());
        for (a, b) in here.iter().zip(&there) {
            assert_eq!(
                verdict(a, chunk.offset),
                verdict(b, 0),
                "game at byte {}",
                chunk.offset
            );
        }
    }
}
