//! The DhtmlXQ reader on raw bytes (any encoding, any markup around the blocks): no panic,
//! every block inside the input and every span of its record inside the block, variations
//! listed parents first; then the input as `check` reads it (cut into chunks by content,
//! each record judged with every variation, each finding rendered for people and machines).
#![no_main]
use arbiter::pipeline::{check_record, parse_chunk, Options};
use arbiter::record::dhtmlxq::{blocks, read_dhtmlxq};
use arbiter::report::{human, json, sarif, SourceWindow};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (start, end) in blocks(data) {
        assert!(start <= end && end <= data.len(), "block {start}..{end}");
        let rec = read_dhtmlxq(&data[start..end], 0);
        for s in rec.spans() {
            assert!(
                s.start <= s.end && s.end <= end - start,
                "span {s:?} outside its block"
            );
        }
        for (i, v) in rec.variations.iter().enumerate() {
            assert!(
                v.parent <= i,
                "variation {} listed before its parent {}",
                i + 1,
                v.parent
            );
        }
    }
    let style = human::Style {
        color: false,
        width: 100,
    };
    for chunk in arbiter::input::chunks_of_text("fuzz.html", data.to_vec()) {
        let src = SourceWindow::of(&chunk);
        for rec in parse_chunk(&chunk) {
            let g = check_record(&chunk.source, &rec, &Options::default());
            assert_eq!(g.lines, rec.variations.len() + 1);
            for f in &g.findings {
                let _ = human::render_in(f, &src, g.index, &g.branches, style);
                let _ = sarif::result(f, "fuzz", &src);
            }
            let _ = json::game_text(&g, &src, false);
        }
    }
});
