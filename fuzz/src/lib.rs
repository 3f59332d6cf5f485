//! What every fuzz target does with its input once it has one: the whole of `arbiter check`
//! in-process (read, cut into games, parse, replay, history checks), then every report the
//! CLI can print from it (every `--format`, through the one report writer) and the board after the last ply
//! (text and SVG), so a panic anywhere on the way is a crash the fuzzer finds. Spans are
//! checked to lie inside the text: a finding must point into the file the user gave.

use arbiter::finding::Severity;
use arbiter::pipeline::{check_source, parse_source, Options, Source};
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

/// Judges `bytes` as the file `name` (its extension picks the reader, as on the command
/// line) with `opts`, and renders everything.
pub fn judge(name: &str, bytes: &[u8], opts: &Options) {
    let src = Source::from_bytes(name, bytes.to_vec());
    let reports = check_source(&src, opts);
    for r in &reports {
        for f in &r.findings {
            assert!(
                f.span.start <= f.span.end && f.span.end <= src.text.len(),
                "span {:?} outside the text ({} bytes): {f:?}",
                f.span,
                src.text.len()
            );
        }
    }
    let window = SourceWindow::whole(name, &src.text);
    for format in FORMATS {
        render(format, &reports, &window);
    }
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

/// Writes the whole report of `reports` in `format` to memory, as `check` writes it.
fn render(format: Format, reports: &[arbiter::pipeline::GameReport], src: &SourceWindow) {
    let mut out = Vec::new();
    let mut summary = Summary::default();
    let mut writer = Writer::start(format, Severity::Error, &mut out).expect("memory");
    let renderer = writer.renderer(false);
    for r in reports {
        let pieces = renderer.game(r, src, &[]);
        writer.write(&mut out, r, &pieces).expect("memory");
        summary.add(r, Severity::Error);
    }
    writer.finish(&mut out, &summary).expect("memory");
    // A log can never put a control character on a terminal, in any format.
    let text = std::str::from_utf8(&out).expect("every format writes UTF-8");
    assert!(!text.contains('\u{1b}'), "escape character in {format:?}");
}
