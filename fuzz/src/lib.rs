//! What every fuzz target does with its input once it has one: the whole of `arbiter check`
//! in-process (read, cut into games, parse, replay, history checks), then every report the
//! CLI can print from it (human diagnostics, JSON, SARIF) and the board after the last ply
//! (text and SVG), so a panic anywhere on the way is a crash the fuzzer finds. Spans are
//! checked to lie inside the text: a finding must point into the file the user gave.

use arbiter::pipeline::{check_source, parse_source, Options, Source};
use arbiter::report::{human, json, sarif, SourceWindow};

/// Judges `bytes` as the file `name` (its extension picks the reader, as on the command
/// line) with `opts`, and renders everything.
pub fn judge(name: &str, bytes: &[u8], opts: &Options) {
    let src = Source::from_bytes(name, bytes.to_vec());
    let reports = check_source(&src, opts);
    let style = human::Style {
        color: false,
        width: 100,
    };
    let mut results = Vec::new();
    let mut games = Vec::new();
    let window = SourceWindow::whole(name, &src.text);
    for r in &reports {
        for f in &r.findings {
            assert!(
                f.span.start <= f.span.end && f.span.end <= src.text.len(),
                "span {:?} outside the text ({} bytes): {f:?}",
                f.span,
                src.text.len()
            );
            let _ = human::render_in(f, &window, r.index, &r.branches, style);
            results.push(sarif::result(f, "fuzz", &window));
        }
        games.push(json::game(r, &window));
    }
    let _ = sarif::document(results.into()).to_string();
    let summary = arbiter::Summary::default();
    let _ = json::document(games.into(), &summary).to_string();
    for (rec, r) in parse_source(&src).iter().zip(&reports) {
        if let Ok(view) = arbiter::show::board_at(rec, &opts.overrides, r.plies as u32) {
            let _ = view.render_text(true);
            let _ = view.render_svg();
            for side in [arbiter::rules::Side::First, arbiter::rules::Side::Second] {
                let _ = view.seen_by(side).render_text(false);
            }
        }
    }
}
